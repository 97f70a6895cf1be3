import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import http from 'node:http';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../src/config/app-config';
import { RedisService } from '../src/infra/redis/redis.service';
import { AccountsService } from '../src/modules/accounts/accounts.service';
import { BudgetService } from '../src/modules/budget/budget.service';
import { ScanEventsService } from '../src/modules/scans/scan-events.service';
import { ScanStreamService } from '../src/modules/scans/scan-stream.service';
import { validateScanConfig } from '../src/modules/scans/validation/scan-config.validator';
import { pollUntil } from './support/poll';
import { openSse } from './support/sse';
import { startTcpProxy } from './support/tcp-proxy';
import { bootTestAppWithEnv, newAccount, type TestApp } from './support/test-app';

const CONFIG = { jurisdictions: ['EU'], areas: ['Payments'], horizon: 12 };
// No worker runs here (APP_ROLE=api): scans stay where the test puts them.
describe('scan streams under pressure and faults', () => {
  let t: TestApp;
  let baseUrl: string;
  let redisProxy: Awaited<ReturnType<typeof startTcpProxy>>;
  const savedRedisUrl = process.env.REDIS_URL!;

  beforeAll(async () => {
    const redis = new URL(savedRedisUrl);
    redisProxy = await startTcpProxy({ host: redis.hostname, port: Number(redis.port || 6379) });
    redis.host = `127.0.0.1:${redisProxy.port}`;
    t = await bootTestAppWithEnv({
      APP_ROLE: 'api',
      SSE_MAX_STREAMS_PER_KEY: '2',
      SSE_MAX_STREAMS_PER_PROCESS: '3',
      REDIS_URL: redis.toString(),
    });
    const server = t.app.getHttpServer().listen(0);
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    redisProxy.restore();
    await t.close();
    await redisProxy.close();
  });

  /** A running scan of a fresh account (inserted with its hold, as the API would), and that account's key. */
  const runningScan = async () => {
    const owner = await newAccount(t);
    const accountId = await t.app.get(AccountsService).ensureAccount(owner.accountId);
    const scanId = randomUUID();
    await t.app.get(DataSource).transaction(async (manager) => {
      await t.app.get(BudgetService).reserve(accountId, { type: 'scan', id: scanId }, 20, manager);
      await manager.query(
        `INSERT INTO scans (id, account_id, status, progress, config, engine, mode, reserved_cents, fingerprint_key)
         VALUES ($1, $2, 'running', '{"phase":"analyse","percent":55,"message":"Analysing"}', $3, 'v4', 'async', 20, 'x')`,
        [scanId, accountId, JSON.stringify(validateScanConfig(CONFIG, t.app.get(APP_CONFIG)).config)],
      );
    });
    return { scanId, auth: { Authorization: `Bearer ${owner.apiKey}` } };
  };
  const settled = () =>
    pollUntil(async () => t.app.get(ScanStreamService).openStreams === 0 && t.app.get(ScanEventsService).subscriptionCount === 0, 5000, 20);

  it('caps open streams per API key with 429 (Retry-After), and frees the slot when a client leaves', async () => {
    const { scanId, auth } = await runningScan();
    const first = await openSse(baseUrl, `/v1/scans/${scanId}/stream`, auth);
    const second = await openSse(baseUrl, `/v1/scans/${scanId}/stream`, auth);
    const third = await t.http().get(`/v1/scans/${scanId}/stream`).set(auth).expect(429);
    expect(third.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(third.body).toMatchObject({ code: 'rate_limit_exceeded', detail: expect.stringMatching(/streams/) });
    expect(Number(third.headers['retry-after'])).toBeGreaterThan(0);
    first.close();
    await pollUntil(async () => t.app.get(ScanStreamService).openStreams === 1, 5000, 20);
    const again = await openSse(baseUrl, `/v1/scans/${scanId}/stream`, auth);
    expect(again.status).toBe(200);
    second.close();
    again.close();
    await settled();
  });

  it('caps open streams per process with 503 transient_error', async () => {
    const streams = [];
    for (let i = 0; i < 3; i++) {
      const { scanId, auth } = await runningScan();
      streams.push(await openSse(baseUrl, `/v1/scans/${scanId}/stream`, auth));
    }
    const { scanId, auth } = await runningScan();
    const refused = await t.http().get(`/v1/scans/${scanId}/stream`).set(auth).expect(503);
    expect(refused.body).toMatchObject({ code: 'transient_error' });
    expect(refused.headers['retry-after']).toBeDefined();
    for (const stream of streams) stream.close();
    await settled();
  });

  it('leaves no listener, heartbeat or slot behind when clients leave at any moment', async () => {
    const { scanId, auth } = await runningScan();
    const port = new URL(baseUrl).port;
    // Abort each request a little later than the one before: some before the subscription is live, some after.
    await Promise.all(
      Array.from({ length: 30 }, (_, i) => {
        return new Promise<void>((resolve) => {
          const req = http.get({ host: '127.0.0.1', port, path: `/v1/scans/${scanId}/stream`, headers: auth });
          req.on('error', () => resolve());
          req.on('close', () => resolve());
          setTimeout(() => req.destroy(), i);
        });
      }),
    );
    await settled();
  });

  it('delivers the terminal state even when its event was never published, then closes', async () => {
    const { scanId, auth } = await runningScan();
    const stream = await openSse(baseUrl, `/v1/scans/${scanId}/stream`, auth);
    await stream.waitFor((event) => event.type === 'progress');
    // Finished without an event, as when the worker's publish fell into a Redis outage.
    await t.app
      .get(DataSource)
      .query(`UPDATE scans SET status = 'failed', error = 'The scan failed', completed_at = now() WHERE id = $1`, [scanId]);
    await stream.ended;
    expect(stream.events[stream.events.length - 1]).toEqual({ type: 'error', error: 'The scan failed' });
    await settled();
  });

  it('sends the progress published while its link to Redis was down, from the scan log, in order, once', async () => {
    const { scanId, auth } = await runningScan();
    const stream = await openSse(baseUrl, `/v1/scans/${scanId}/stream`, auth);
    await stream.waitFor((event) => event.type === 'progress');
    // A worker that still reaches Redis publishes while this process's link is cut.
    const workerRedis = new RedisService({ redisUrl: savedRedisUrl, redisPrefix: t.app.get(APP_CONFIG).redisPrefix } as AppConfig);
    const worker = new ScanEventsService(workerRedis);
    const missed = [70, 80].map((percent) => ({ type: 'progress' as const, phase: 'verify', percent, message: `Verifying ${percent}` }));
    redisProxy.cut();
    try {
      for (const event of missed) expect(await worker.publish(scanId, event)).toEqual(expect.any(String));
    } finally {
      redisProxy.restore();
    }
    await stream.waitFor((event) => event.percent === 80);
    await t.app.get(DataSource).query(`UPDATE scans SET status = 'cancelled', completed_at = now() WHERE id = $1`, [scanId]);
    await worker.publish(scanId, { type: 'cancelled' });
    await stream.ended;
    expect(stream.events.slice(1)).toEqual([...missed, { type: 'cancelled' }]);
    expect(new Set(stream.ids).size).toBe(stream.ids.length);
    await workerRedis.onApplicationShutdown();
    await settled();
  }, 30_000);

  it('answers 503 promptly when the stream cannot subscribe (Redis unreachable), and streams again afterwards', async () => {
    const { scanId, auth } = await runningScan();
    redisProxy.cut();
    try {
      const started = Date.now();
      const response = await t.http().get(`/v1/scans/${scanId}/stream`).set(auth);
      expect(response.status).toBe(503);
      expect(response.body.code).toBe('transient_error');
      expect(Date.now() - started).toBeLessThan(8000);
    } finally {
      redisProxy.restore();
    }
    const stream = await pollUntil(
      async () => {
        const attempt = await openSse(baseUrl, `/v1/scans/${scanId}/stream`, auth);
        if (attempt.status === 200) return attempt;
        attempt.close();
        return undefined;
      },
      15000,
      300,
    );
    await stream.waitFor((event) => event.type === 'progress');
    stream.close();
    await settled();
  }, 30_000);
});
