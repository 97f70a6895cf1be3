import { spawn, type ChildProcess } from 'node:child_process';
import Redis from 'ioredis';
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
    const deadline = Date.now() + 10000;
    for (;;) {
      const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
      probe.on('error', () => undefined);
      try {
        await probe.connect();
        await probe.ping();
        return;
      } catch {
        if (Date.now() > deadline) throw new Error(`private redis-server did not start on port ${port}`);
        await new Promise((r) => setTimeout(r, 50));
      } finally {
        probe.disconnect();
      }
    }
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
