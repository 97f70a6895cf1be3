import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { DataSource } from 'typeorm';
import { Clock } from '../src/common/clock';
import { APP_CONFIG } from '../src/config/app-config';
import { freePort } from '../src/infra/embedded/free-port';
import { MetricsServer } from '../src/infra/metrics/metrics-server';
import { AccountsService } from '../src/modules/accounts/accounts.service';
import { BudgetService } from '../src/modules/budget/budget.service';
import { validateScanConfig } from '../src/modules/scans/validation/scan-config.validator';
import { uniqueName } from './setup/test-infra';
import { startWorkerProcess } from './support/api-process';
import { pollUntil } from './support/poll';
import { parseExposition, type Exposition } from './support/prometheus-text';
import { openSse } from './support/sse';
import { bootTestAppWithEnv, finishedExport, newAccount, type TestApp } from './support/test-app';

const SCAN = { jurisdictions: ['EU', 'UK'], areas: ['AML / KYC', 'Payments'], horizon: 12 };

async function scrapeAt(url: string, headers: Record<string, string> = {}): Promise<Exposition> {
  const response = await fetch(url, { headers });
  expect(response.status).toBe(200);
  return parseExposition(await response.text());
}

// Its own Redis prefix: its scans and exports run in this process, whose metrics the test reads.
describe('metrics', () => {
  let t: TestApp;
  let metricsUrl: string;
  const scrape = () => scrapeAt(metricsUrl);

  beforeAll(async () => {
    t = await bootTestAppWithEnv({ REDIS_PREFIX: uniqueName('metrics') });
    metricsUrl = t.app.get(MetricsServer).url;
  });
  afterAll(() => t.close());

  it('serves the exposition format on its own port, with process metrics, and not on the API port', async () => {
    expect(new URL(metricsUrl).port).not.toBe('');
    const response = await fetch(metricsUrl);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const metrics = parseExposition(await response.text());
    expect(metrics.types.get('process_cpu_user_seconds_total')).toBe('counter');
    expect(metrics.types.get('nodejs_heap_size_used_bytes')).toBe('gauge');
    expect(metrics.types.get('regscan_http_requests_total')).toBe('counter');
    expect(metrics.types.get('regscan_http_request_duration_seconds')).toBe('histogram');
    expect((await fetch(metricsUrl.replace('/metrics', '/v1/meta/engines'))).status).toBe(404);
    await t.http().get('/metrics').expect(404);
  });

  it('counts requests by route template, method and status, with a latency histogram', async () => {
    const { apiKey, accountId, keyId } = await newAccount(t);
    const snapshotId = randomUUID();
    const labels = { route: '/v1/snapshots/:id', method: 'GET', status: '404' };
    const before = await scrape();
    await t.http().get(`/v1/snapshots/${snapshotId}`).set('Authorization', `Bearer ${apiKey}`).expect(404);
    await t.http().get(`/v1/snapshots/${snapshotId}`).set('Authorization', `Bearer ${apiKey}`).expect(404);
    await t.http().get(`/v1/no-such-route/${snapshotId}`).set('Authorization', `Bearer ${apiKey}`).expect(404);
    await t.http().get(`/no-such-route/${snapshotId}`).expect(404);
    await t.http().get(`/v1/snapshots/${snapshotId}`).expect(401);
    const after = await scrape();

    expect(after.sum('regscan_http_requests_total', labels) - before.sum('regscan_http_requests_total', labels)).toBe(2);
    const count = 'regscan_http_request_duration_seconds_count';
    expect(after.sum(count, labels) - before.sum(count, labels)).toBe(2);
    const infBucket = { ...labels, le: '+Inf' };
    expect(after.sum('regscan_http_request_duration_seconds_bucket', infBucket)).toBe(after.sum(count, labels));
    // Unknown paths are one bounded label value, whatever the URL.
    const unmatched = { route: '(unmatched)', method: 'GET', status: '404' };
    expect(after.sum('regscan_http_requests_total', unmatched) - before.sum('regscan_http_requests_total', unmatched)).toBe(2);
    const refused = { ...labels, status: '401' };
    expect(after.sum('regscan_http_requests_total', refused) - before.sum('regscan_http_requests_total', refused)).toBe(1);
    // The POST /v1/keys of newAccount, by its template too.
    expect(after.sum('regscan_http_requests_total', { route: '/v1/keys', method: 'POST', status: '201' })).toBeGreaterThanOrEqual(1);

    const labelValues = after.samples.flatMap((s) => Object.values(s.labels)).join('\n');
    for (const id of [snapshotId, accountId, keyId, apiKey]) expect(labelValues).not.toContain(id);
    expect(labelValues).not.toContain('no-such-route');
    const routes = new Set(after.find('regscan_http_requests_total').map((s) => s.labels.route));
    for (const route of routes) expect(route).toMatch(/^(\(unmatched\)|\/[a-z0-9/:_.-]*)$/);
  });

  it('counts the queue dashboard, whose pages poll, as one route, refusals included', async () => {
    const board = (status: string) => ({ route: '/admin/queues', method: 'GET', status });
    const before = await scrape();
    await t.http().get('/admin/queues/api/queues').expect(401);
    await t.http().get(`/admin/queues/static/${randomUUID()}.js`).expect(401);
    const after = await scrape();
    expect(after.sum('regscan_http_requests_total', board('401')) - before.sum('regscan_http_requests_total', board('401'))).toBe(2);
  });

  it('counts rate-limit rejections by bucket, and the 429s by route', async () => {
    const clock = t.app.get(Clock);
    // Mid-window and held there: a minute boundary cannot refill the bucket during the test.
    const now = Math.floor(Date.now() / 60_000) * 60_000 + 30_000;
    const held = jest.spyOn(clock, 'now').mockImplementation(() => now);
    try {
      const { cookie } = await newAccount(t); // one request of the keys bucket already used
      const before = await scrape();
      for (let i = 0; i < 9; i++) await t.http().get('/v1/keys').set('Cookie', cookie).expect(200);
      await t.http().get('/v1/keys').set('Cookie', cookie).expect(429);
      await t.http().get('/v1/keys').set('Cookie', cookie).expect(429);
      const after = await scrape();
      const rejected = (m: Exposition, bucket: string) => m.sum('regscan_rate_limit_rejections_total', { bucket });
      expect(rejected(after, 'keys') - rejected(before, 'keys')).toBe(2);
      expect(rejected(after, 'reads') - rejected(before, 'reads')).toBe(0);
      const limited = { route: '/v1/keys', method: 'GET', status: '429' };
      expect(after.sum('regscan_http_requests_total', limited) - before.sum('regscan_http_requests_total', limited)).toBe(2);
    } finally {
      held.mockRestore();
    }
  });

  it('counts a finished scan by engine and outcome, its duration, and the money held and charged for it', async () => {
    const { apiKey } = await newAccount(t);
    const auth = `Bearer ${apiKey}`;
    const before = await scrape();
    const scan = await t.http().post('/v1/scans').set('Authorization', auth).send(SCAN).expect(200);
    expect(scan.body.status).toBe('completed');
    const status = await t.http().get(`/v1/scans/${scan.body.scan_id}`).set('Authorization', auth).expect(200);
    const [{ reserved_cents: reserved, engine }] = await t.app
      .get(DataSource)
      .query('SELECT reserved_cents, engine FROM scans WHERE id = $1', [scan.body.scan_id]);
    // The counters move after the commit that ends the scan, which the sync answer may overtake by a moment.
    const after = await pollUntil(async () => {
      const m = await scrape();
      return m.sum('regscan_scans_total', { outcome: 'completed' }) > before.sum('regscan_scans_total', { outcome: 'completed' }) && m;
    });

    const delta = (name: string, match: Record<string, string>) => after.sum(name, match) - before.sum(name, match);
    expect(delta('regscan_scans_total', { engine, outcome: 'completed' })).toBe(1);
    expect(delta('regscan_scan_duration_seconds_count', { engine, outcome: 'completed' })).toBe(1);
    expect(delta('regscan_budget_reserved_cents_total', { reference_type: 'scan' })).toBeCloseTo(Number(reserved), 4);
    expect(delta('regscan_budget_settled_cents_total', { reference_type: 'scan' })).toBeCloseTo(status.body.cost_cents, 4);
    expect(after.types.get('regscan_scan_duration_seconds')).toBe('histogram');
  });

  it('counts money held only once its ledger entry has committed', async () => {
    const owner = await newAccount(t);
    const accountId = await t.app.get(AccountsService).ensureAccount(owner.accountId);
    const budget = t.app.get(BudgetService);
    const reference = () => ({ type: 'metrics-test', id: randomUUID() });
    const held = async () => (await scrape()).sum('regscan_budget_reserved_cents_total', { reference_type: 'metrics-test' });
    const start = await held();
    await expect(
      t.app.get(DataSource).transaction(async (manager) => {
        await budget.reserve(accountId, reference(), 7, manager);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await held()).toBe(start);
    await t.app.get(DataSource).transaction(async (manager) => {
      await budget.reserve(accountId, reference(), 5, manager);
      expect(await held()).toBe(start); // written, not yet committed
    });
    expect(await held()).toBe(start + 5);
    await budget.reserve(accountId, reference(), 3); // its own transaction
    expect(await held()).toBe(start + 8);
  });

  it('counts an export by provider, type and outcome, with its duration', async () => {
    const { apiKey } = await newAccount(t);
    const auth = `Bearer ${apiKey}`;
    const scan = await t.http().post('/v1/scans').set('Authorization', auth).send(SCAN).expect(200);
    const before = await scrape();
    const created = await t
      .http()
      .post('/v1/exports')
      .set('Authorization', auth)
      .send({ snapshot_id: scan.body.snapshot_id, provider: 'internal-csv', artifact_type: 'csv' })
      .expect(202);
    expect((await finishedExport(t, created.body.export_job_id, auth)).status).toBe('completed');
    const labels = { provider: 'internal-csv', artifact_type: 'csv', outcome: 'completed' };
    const after = await pollUntil(async () => {
      const m = await scrape();
      return m.sum('regscan_exports_total', labels) > before.sum('regscan_exports_total', labels) && m;
    });
    expect(after.sum('regscan_exports_total', labels) - before.sum('regscan_exports_total', labels)).toBe(1);
    const count = 'regscan_export_duration_seconds_count';
    expect(after.sum(count, labels) - before.sum(count, labels)).toBe(1);
    const labelValues = after.samples.flatMap((s) => Object.values(s.labels)).join('\n');
    for (const id of [created.body.export_job_id, scan.body.snapshot_id, scan.body.scan_id]) expect(labelValues).not.toContain(id);
  });

  it('reports the jobs of each queue by state, read when scraped, and a stalled-job counter', async () => {
    const metrics = await scrape();
    for (const queue of ['scans', 'exports']) {
      for (const state of ['waiting', 'active', 'delayed', 'failed']) {
        expect(metrics.find('regscan_queue_jobs', { queue, state })).toHaveLength(1);
      }
      expect(metrics.find('regscan_queue_stalled_jobs_total', { queue })).toHaveLength(1);
    }
    expect(metrics.types.get('regscan_queue_jobs')).toBe('gauge');
  });

  it('counts open scan streams while they are open', async () => {
    const server = t.app.getHttpServer().listen(0);
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const owner = await newAccount(t);
    const accountId = await t.app.get(AccountsService).ensureAccount(owner.accountId);
    const scanId = randomUUID();
    // A running scan with no job: the stream stays open on heartbeats.
    await t.app.get(DataSource).transaction(async (manager) => {
      await t.app.get(BudgetService).reserve(accountId, { type: 'scan', id: scanId }, 20, manager);
      await manager.query(
        `INSERT INTO scans (id, account_id, status, progress, config, engine, mode, reserved_cents, fingerprint_key)
         VALUES ($1, $2, 'running', '{"phase":"analyse","percent":55,"message":"Analysing"}', $3, 'v4', 'async', 20, 'x')`,
        [scanId, accountId, JSON.stringify(validateScanConfig(SCAN, t.app.get(APP_CONFIG)).config)],
      );
    });
    const open = async () => (await scrape()).sum('regscan_sse_open_streams');
    expect(await open()).toBe(0);
    const stream = await openSse(baseUrl, `/v1/scans/${scanId}/stream`, { Authorization: `Bearer ${owner.apiKey}` });
    expect(stream.status).toBe(200);
    await stream.waitFor((event) => event.type === 'progress');
    expect(await open()).toBe(1);
    stream.close();
    await pollUntil(async () => (await open()) === 0, 5000, 20);
    await t.http().delete(`/v1/scans/${scanId}`).set('Authorization', `Bearer ${owner.apiKey}`);
    server.close();
  });

  it('is not an API route: never rate-limited and never counted in the request metrics', async () => {
    const before = await scrape();
    for (let i = 0; i < 70; i++) await scrape();
    const after = await scrape();
    expect(after.sum('regscan_http_requests_total')).toBe(before.sum('regscan_http_requests_total'));
    expect(after.find('regscan_http_requests_total').some((s) => s.labels.route.includes('metrics'))).toBe(false);
  });
});

describe('metrics with a scrape token', () => {
  const token = 'scrape-token-0123456789';
  let t: TestApp;
  let metricsUrl: string;

  beforeAll(async () => {
    t = await bootTestAppWithEnv({ METRICS_TOKEN: token, APP_ROLE: 'api' });
    metricsUrl = t.app.get(MetricsServer).url;
  });
  afterAll(() => t.close());

  it('answers 401 without the bearer token or with another, and 200 with it', async () => {
    const missing = await fetch(metricsUrl);
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toBe('Bearer');
    expect(await missing.text()).not.toContain('regscan_');
    expect((await fetch(metricsUrl, { headers: { Authorization: `Bearer ${token}x` } })).status).toBe(401);
    expect((await fetch(metricsUrl, { headers: { Authorization: `Basic ${token}` } })).status).toBe(401);
    const metrics = await scrapeAt(metricsUrl, { Authorization: `Bearer ${token}` });
    expect(metrics.types.get('regscan_http_requests_total')).toBe('counter');
  });
});

// A worker has no HTTP server of its own: its metrics listener is how it is scraped.
describe('metrics of a worker process', () => {
  it('serves its own metrics, with its queues, on METRICS_PORT', async () => {
    const port = await freePort();
    const worker = await startWorkerProcess({ METRICS_PORT: String(port), REDIS_PREFIX: uniqueName('metrics_worker') });
    try {
      const metrics = await pollUntil(
        async () => {
          if (worker.child.exitCode !== null) throw new Error(`worker exited: ${worker.output()}`);
          const response = await fetch(`http://127.0.0.1:${port}/metrics`).catch(() => undefined);
          return response?.ok && parseExposition(await response.text());
        },
        20000,
        100,
      );
      expect(metrics.find('regscan_queue_jobs', { queue: 'scans', state: 'waiting' })).toHaveLength(1);
      expect(metrics.find('regscan_queue_stalled_jobs_total', { queue: 'exports' })).toHaveLength(1);
      expect(metrics.types.get('process_cpu_user_seconds_total')).toBe('counter');
    } finally {
      await worker.stop();
    }
  });
});
