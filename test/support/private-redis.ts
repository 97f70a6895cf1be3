import { spawn, type ChildProcess } from 'node:child_process';
import { waitForRedis } from '../../src/infra/embedded/embedded-services';
import { freePort } from '../../src/infra/embedded/free-port';

export interface PrivateRedis {
  url: string;
  /** Ends the server abruptly (SIGKILL): with no persistence, everything in it is gone. */
  crash(): Promise<void>;
  /** Starts an empty server on the same port again. */
  start(): Promise<void>;
  close(): Promise<void>;
}

/** A redis-server of the test's own, without persistence, that the test can crash and bring back empty. */
export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn(
      process.env.REDIS_SERVER_BIN ?? 'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      {
        stdio: 'ignore',
      },
    );
    const started = child;
    if (!(await waitForRedis(url, 10000, () => started.exitCode !== null)))
      throw new Error(`private redis-server did not start on port ${port}`);
  };
  const crash = async () => {
    const running = child;
    if (!running || running.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      running.once('exit', () => resolve());
      running.kill('SIGKILL');
    });
  };
  await start();
  return { url, crash, start, close: crash };
}
