import http from 'node:http';
import { DataSource } from 'typeorm';
import { AccountsService } from '../src/modules/accounts/accounts.service';
import { BudgetService } from '../src/modules/budget/budget.service';
import { removeBuild, startApiProcess, startWorkerProcess, type ServiceProcess } from './support/api-process';
import { pollUntil } from './support/poll';
import { startPrivateRedis } from './support/private-redis';
import { openSse } from './support/sse';
import { startTcpProxy } from './support/tcp-proxy';
import { bootTestApp, newAccount, type TestApp } from './support/test-app';

const CONFIG = { jurisdictions: ['EU', 'UK'], areas: ['Payments'], horizon: 24 };
const FAST_RECOVERY = { RECONCILE_INTERVAL_MS: '500', SCAN_JOB_LOCK_MS: '1500', SSE_HEARTBEAT_MS: '300' };

// Real processes on real stores, with the stores taken away: what a platform team's fault drill would do.
describe('fault drills', () => {
  let t: TestApp;
  const role = process.env.APP_ROLE;
  const processes: ServiceProcess[] = [];
  const spawn = async (start: Promise<ServiceProcess>) => {
    const started = await start;
    processes.push(started);
    return started;
  };

  beforeAll(async () => {
    process.env.APP_ROLE = 'api';
    t = await bootTestApp();
  });
  afterAll(async () => {
    await Promise.all(processes.map((child) => child.kill()));
    await t.close();
    process.env.APP_ROLE = role;
    removeBuild();
  });

  const account = async () => {
    const owner = await newAccount(t);
    const accountId = await t.app.get(AccountsService).ensureAccount(owner.accountId);
    return { ...owner, accountId, auth: { Authorization: `Bearer ${owner.apiKey}` } };
  };
  const scanRow = async (id: string) =>
    (await t.app.get(DataSource).query('SELECT status, error, cost_cents, progress FROM scans WHERE id = $1', [id]))[0];
  /** The ledger agrees with the running balance, and no money is held once the work is final. */
  const expectLedgerSettled = async (accountId: string) => {
    const budget = await t.app.get(BudgetService).view(accountId);
    expect(budget.reserved_cents).toBe(0);
    expect(await t.app.get(BudgetService).ledgerTotals(accountId)).toEqual({
      pool: budget.pool_cents,
      spent: budget.spent_cents,
      reserved: 0,
    });
  };

  it('a worker process logs like an API process', async () => {
    const worker = await spawn(startWorkerProcess({ LOG_LEVEL: 'info', ...FAST_RECOVERY }));
    await pollUntil(async () => worker.output().includes('"msg":"worker started'), 20000, 100);
    // Nest's own start-up lines went through the same logger as the API's.
    await pollUntil(async () => /"context":"InstanceLoader"/.test(worker.output()), 10000, 100);
    for (const line of worker.output().trim().split('\n')) expect(() => JSON.parse(line)).not.toThrow();
    await worker.stop();
  }, 40_000);

  it('PostgreSQL unreachable for 20 s: the API answers 503 at once, the worker stays up, the scan resumes and completes', async () => {
    const db = new URL(process.env.DATABASE_URL!);
    const proxy = await startTcpProxy({ host: db.hostname, port: Number(db.port || 5432) });
    db.host = `127.0.0.1:${proxy.port}`;
    try {
      const env = { ...FAST_RECOVERY, DATABASE_URL: db.toString(), OFFLINE_STEP_MS: '700' };
      const api = await spawn(startApiProcess(env));
      const worker = await spawn(startWorkerProcess(env));
      const owner = await account();
      const scanId = await startScan(api, owner.auth);
      await pollUntil(async () => (await scanRow(scanId)).progress.percent > 0, 20000, 100);

      proxy.cut();
      const outageEnds = Date.now() + 20000;
      while (Date.now() < outageEnds) {
        const started = Date.now();
        const response = await fetch(`${api.baseUrl}/v1/scans/${scanId}`, { headers: owner.auth });
        expect(response.status).toBe(503);
        expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
        expect(((await response.json()) as { code: string }).code).toBe('transient_error');
        expect(Date.now() - started).toBeLessThan(6000);
        expect((await fetch(`${api.baseUrl}/health/ready`)).status).toBe(503);
        expect(worker.child.exitCode).toBeNull();
        await new Promise((r) => setTimeout(r, 2000));
      }
      proxy.restore();

      await pollUntil(async () => (await scanRow(scanId)).status !== 'running', 60000, 250);
      expect(await scanRow(scanId)).toMatchObject({ status: 'completed' });
      expect(worker.child.exitCode).toBeNull();
      expect(api.child.exitCode).toBeNull();
      const [snapshots] = await t.app.get(DataSource).query('SELECT count(*)::int AS n FROM snapshots WHERE scan_id = $1', [scanId]);
      expect(snapshots.n).toBe(1);
      await expectLedgerSettled(owner.accountId);
      await Promise.all([api.stop(), worker.stop()]);
    } finally {
      proxy.restore();
      await proxy.close();
    }
  }, 120_000);

  it('Redis restarted empty: the running scan finishes, the lost queued one is re-queued from PostgreSQL, streams get their end', async () => {
    const redis = await startPrivateRedis();
    try {
      const env = { ...FAST_RECOVERY, REDIS_URL: redis.url, OFFLINE_STEP_MS: '600', SCAN_WORKER_CONCURRENCY: '1' };
      const api = await spawn(startApiProcess(env));
      const worker = await spawn(startWorkerProcess(env));
      const owner = await account();
      const create = () => startScan(api, owner.auth);
      // One scan running on the only worker slot, one waiting in the queue behind it.
      const running = await create();
      await pollUntil(async () => (await scanRow(running)).progress.percent > 0, 20000, 50);
      const queued = await create();
      const stream = await openSse(api.baseUrl, `/v1/scans/${queued}/stream`, owner.auth);
      await stream.waitFor((event) => event.type === 'progress');
      await redis.crash();
      const during = await fetch(`${api.baseUrl}/v1/meta/areas`, { headers: owner.auth });
      expect(during.status).toBe(503);
      await redis.start();

      await pollUntil(
        async () => (await scanRow(running)).status !== 'running' && (await scanRow(queued)).status !== 'running',
        90000,
        250,
      );
      expect(await scanRow(running)).toMatchObject({ status: 'completed' });
      expect(await scanRow(queued)).toMatchObject({ status: 'completed' });
      // The stream either carried the end or closed; a client that reconnects gets the end at once.
      await Promise.race([stream.ended, stream.waitFor((event) => event.type === 'complete', 20000)]);
      const replay = await openSse(api.baseUrl, `/v1/scans/${queued}/stream`, owner.auth);
      await replay.ended;
      expect(replay.events.map((event) => event.type)).toEqual(['complete']);
      expect(api.child.exitCode).toBeNull();
      expect(worker.child.exitCode).toBeNull();
      await expectLedgerSettled(owner.accountId);
      await Promise.all([api.stop(), worker.stop()]);
    } finally {
      await redis.close();
    }
  }, 150_000);

  it('SIGTERM drains an API process: streams end with a reconnect hint, a sync scan answers 202, then it exits', async () => {
    const env = { ...FAST_RECOVERY, SHUTDOWN_TIMEOUT_MS: '3000', OFFLINE_STEP_MS: '1500' };
    const api = await spawn(startApiProcess(env));
    const worker = await spawn(startWorkerProcess(env));
    const owner = await account();
    const scanId = await startScan(api, owner.auth);
    const stream = await openSse(api.baseUrl, `/v1/scans/${scanId}/stream`, owner.auth);
    await stream.waitFor((event) => event.type === 'progress');
    const sync = postJson(`${api.baseUrl}/v1/scans`, owner.auth, CONFIG);
    const scans = async () =>
      (await t.app.get(DataSource).query('SELECT count(*)::int AS n FROM scans WHERE account_id = $1', [owner.accountId]))[0].n;
    await pollUntil(async () => (await scans()) === 2, 10000, 50);

    const signalled = Date.now();
    api.child.kill('SIGTERM');
    const answered = await sync;
    expect(JSON.parse(answered.body)).toMatchObject({ status: 'running', message: expect.stringMatching(/restarting/) });
    // Until the listener closes, readiness tells load balancers to send nothing more.
    const ready = await fetch(`${api.baseUrl}/health/ready`).catch(() => undefined);
    if (ready) expect(ready.status).toBe(503);
    expect(answered.status).toBe(202);
    expect(answered.headers.connection).toBe('close');
    await stream.ended;
    expect(stream.raw).toMatch(/^retry: \d+$/m);
    expect(await api.exited).toBe(0);
    expect(Date.now() - signalled).toBeLessThan(3000 + 5000);
    // The work itself goes on in the worker; the scan is not touched by the API leaving.
    await pollUntil(async () => (await scanRow(scanId)).status === 'completed', 40000, 250);
    await worker.stop();
  }, 90_000);
});

/** POST /v1/scans?mode=async on a service process; the new scan's id. */
async function startScan(api: ServiceProcess, auth: Record<string, string>): Promise<string> {
  const created = await fetch(`${api.baseUrl}/v1/scans?mode=async`, {
    method: 'POST',
    headers: { ...auth, 'Content-Type': 'application/json' },
    body: JSON.stringify(CONFIG),
  });
  expect(created.status).toBe(202);
  return ((await created.json()) as { scan_id: string }).scan_id;
}

function postJson(
  url: string,
  headers: Record<string, string>,
  body: unknown,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', headers: { ...headers, 'Content-Type': 'application/json' } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}
