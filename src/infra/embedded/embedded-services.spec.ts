import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { releaseStalePostmasterLock } from './embedded-services';

/** A real process id that no process has any more: a child that has already exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid!;
}

describe('releaseStalePostmasterLock', () => {
  let dir: string;
  const lockFile = () => join(dir, 'postmaster.pid');
  // postmaster.pid as PostgreSQL writes it: the postmaster's pid on the first line, then the data directory, …
  const writeLock = (pid: number | string) => writeFileSync(lockFile(), `${pid}\n${dir}\n1700000000\n5432\n`);

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'rgs-pg-lock-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('does nothing when there is no lock file', () => {
    expect(() => releaseStalePostmasterLock(dir)).not.toThrow();
    expect(existsSync(lockFile())).toBe(false);
  });

  it('removes a lock file left by a postmaster that is gone (a crash)', async () => {
    writeLock(await deadPid());
    releaseStalePostmasterLock(dir);
    expect(existsSync(lockFile())).toBe(false);
  });

  it('refuses, in one line naming the process, while the postmaster that wrote it is alive', async () => {
    const live = spawn(process.execPath, ['-e', 'setInterval(() => undefined, 1000)']);
    try {
      writeLock(live.pid!);
      expect(() => releaseStalePostmasterLock(dir)).toThrow(
        new Error(`the embedded database in ${dir} is in use by process ${live.pid}; stop it or set DATABASE_URL`),
      );
      expect(existsSync(lockFile())).toBe(true);
    } finally {
      const exited = new Promise((resolve) => live.once('exit', resolve));
      live.kill('SIGKILL');
      await exited;
    }
  });

  it('treats its own process id as stale: a restarted container may hand the old postmaster pid to this process', () => {
    writeLock(process.pid);
    releaseStalePostmasterLock(dir);
    expect(existsSync(lockFile())).toBe(false);
  });

  it('removes an unreadable lock file (no pid on its first line)', () => {
    writeLock('');
    releaseStalePostmasterLock(dir);
    expect(existsSync(lockFile())).toBe(false);
  });
});
