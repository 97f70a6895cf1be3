import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '../../src/infra/embedded/free-port';

let builtDir: string | undefined;

/** Compiles the service once per test file with the production build (swc, about a second). */
export function buildService(): string {
  if (builtDir) return builtDir;
  const root = join(__dirname, '..', '..');
  // Inside the project so the compiled files resolve its node_modules; node_modules/.cache is ignored by git.
  mkdirSync(join(root, 'node_modules', '.cache'), { recursive: true });
  const out = mkdtempSync(join(root, 'node_modules', '.cache', 'rgs-test-build-'));
  execFileSync(process.execPath, [join(root, 'scripts', 'build.js'), out], { cwd: root });
  builtDir = out;
  return out;
}

export interface ApiProcess {
  baseUrl: string;
  stop(): Promise<void>;
}

export interface ServiceProcess extends ApiProcess {
  child: ChildProcess;
  /** Everything the process wrote to stdout so far (its logs). */
  output(): string;
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number | null>;
  kill(): Promise<void>;
}

/** Starts the service as a separate OS process on the test run's Postgres and Redis. */
export async function startApiProcess(env: Record<string, string> = {}): Promise<ServiceProcess> {
  return startServiceProcess({ APP_ROLE: 'api', ...env }, true);
}

/** Starts a queue worker (APP_ROLE=worker) as a separate OS process; `kill()` ends it abruptly. */
export async function startWorkerProcess(env: Record<string, string> = {}): Promise<ServiceProcess> {
  return startServiceProcess({ APP_ROLE: 'worker', ...env }, false);
}

async function startServiceProcess(env: Record<string, string>, http: boolean): Promise<ServiceProcess> {
  const dir = buildService();
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [join(dir, 'src', 'main.js')], {
    cwd: join(__dirname, '..', '..'),
    env: { ...process.env, PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let stdout = '';
  child.stderr?.on('data', (chunk) => {
    stderr += chunk;
    stdout += chunk;
  });
  child.stdout?.on('data', (chunk) => (stdout += chunk));
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 20000;
  while (http) {
    if (child.exitCode !== null) throw new Error(`API process exited: ${stderr}`);
    try {
      if ((await fetch(`${baseUrl}/health/ready`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`API process did not become ready: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const exited = new Promise<number | null>((resolve) =>
    child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', (code) => resolve(code)),
  );
  return {
    baseUrl,
    child,
    output: () => stdout,
    exited,
    kill: async () => {
      child.kill('SIGKILL');
      await exited;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

export function removeBuild(): void {
  if (builtDir) rmSync(builtDir, { recursive: true, force: true });
  builtDir = undefined;
}
