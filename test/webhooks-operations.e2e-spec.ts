import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { DataSource } from 'typeorm';
import { runCli } from '../src/cli/run-cli';
import { APP_CONFIG, type AppConfig } from '../src/config/app-config';
import { AccountsService } from '../src/modules/accounts/accounts.service';
import { BudgetService } from '../src/modules/budget/budget.service';
import { WebhooksProcessor } from '../src/modules/webhooks/webhooks.processor';
import { pollUntil } from './support/poll';
import { bootTestAppWithEnv, newAccount, type TestApp } from './support/test-app';

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A loopback receiver that records every request and acknowledges it with 204. */
function startReceiver() {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ path: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.statusCode = 204;
      res.end();
    });
  });
  return {
    received,
    at: (path: string) => received.filter((r) => r.path === path),
    url: (path: string) => `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`,
    listen: () => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve)),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function cli(...argv: string[]) {
  let out = '';
  let err = '';
  const code = await runCli(argv, { out: (text) => (out += text), err: (text) => (err += text) });
  return { code, out: out.trim(), err };
}

const SCAN = { jurisdictions: ['EU'], areas: ['AML / KYC'], horizon: 12 };
const MAX_ENDPOINTS = 3;

describe('Webhook operations: budget.low, the endpoint cap, retention, secret rotation', () => {
  let t: TestApp;
  let db: DataSource;
  let budget: BudgetService;
  const receiver = startReceiver();
  /**
   * What one scan of SCAN may hold: the larger of what it held and was charged, measured once on a roomy account,
   * and the floor of a hold. The estimate history is shared by every account of the run (issue 26), so a zero-cost
   * scan of the same shape elsewhere in the run can make the measured hold 0 and the next one larger.
   */
  let hold: number;
  let cost: number;

  beforeAll(async () => {
    await receiver.listen();
    t = await bootTestAppWithEnv({
      WEBHOOK_ALLOW_LOOPBACK_URLS: 'true',
      WEBHOOK_BACKOFF_MS: '20',
      WEBHOOK_MAX_ENDPOINTS_PER_ACCOUNT: String(MAX_ENDPOINTS),
      RECONCILE_INTERVAL_MS: '300',
      RATE_LIMIT_SCANS: '100',
    });
    db = t.app.get(DataSource);
    budget = t.app.get(BudgetService);
    const probe = await newAccount(t);
    const scan = await t.http().post('/v1/scans').set('Authorization', `Bearer ${probe.apiKey}`).send(SCAN).expect(200);
    const [row] = await db.query(`SELECT amount_cents FROM budget_ledger WHERE reference_id = $1 AND kind = 'reservation'`, [
      scan.body.scan_id,
    ]);
    cost = Number(scan.body.snapshot.cost_cents);
    hold = Math.max(Number(row.amount_cents), cost, t.app.get<AppConfig>(APP_CONFIG).minScanReservationCents);
    expect(cost).toBeGreaterThan(0);
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  const register = (cookie: string, body: object) => t.http().post('/v1/webhooks/endpoints').set('Cookie', cookie).send(body);
  const internalId = (externalId: string) => t.app.get(AccountsService).ensureAccount(externalId);
  const verified = (secret: string, request: Received) =>
    new Webhook(secret).verify(request.body, {
      'webhook-id': String(request.headers['webhook-id']),
      'webhook-timestamp': String(request.headers['webhook-timestamp']),
      'webhook-signature': String(request.headers['webhook-signature']),
    }) as { type: string; timestamp: string; data: Record<string, unknown> };
  const arrivals = (path: string, count: number) =>
    pollUntil(async () => (receiver.at(path).length >= count ? receiver.at(path) : undefined), 40000, 50);
  /** Every delivery recorded for the account has reached a final state (so nothing more is on its way). */
  const settled = (accountId: string) =>
    pollUntil(async () => {
      const [row] = await db.query(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE account_id = $1 AND status = 'pending'`, [
        accountId,
      ]);
      return row.n === 0;
    });
  const lowDeliveries = async (accountId: string) =>
    Number(
      (await db.query(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE account_id = $1 AND event_type = 'budget.low'`, [accountId]))[0]
        .n,
    );

  /**
   * Spends (a settled hold outside any scan) until `remaining` cents are left: a pool of 100 holds, so the
   * default threshold (10 %) is 10 holds, and one scan from threshold + half a cost crosses it.
   */
  const spendDownTo = async (accountId: string, remaining: number) => {
    const view = await budget.view(accountId);
    const spend = view.remaining_cents - remaining;
    const reference = { type: 'test-spend', id: randomUUID() };
    await budget.reserve(accountId, reference, spend);
    await budget.settle(accountId, reference, spend);
  };

  it('sends one signed budget.low when a scan takes the remaining below 10 %, none on the next scan, again after budget:add re-arms it', async () => {
    const account = await newAccount(t);
    const accountId = await internalId(account.accountId);
    const pool = 100 * hold;
    expect((await cli('budget:set', '--account', account.accountId, '--cents', String(pool))).code).toBe(0);
    const created = await register(account.cookie, { url: receiver.url('/low'), events: ['budget.low'] }).expect(201);
    const threshold = pool / 10;
    await spendDownTo(accountId, threshold + cost / 2);
    expect(await lowDeliveries(accountId)).toBe(0);

    const auth = `Bearer ${account.apiKey}`;
    await t.http().post('/v1/scans').set('Authorization', auth).send(SCAN).expect(200);
    const [first] = await arrivals('/low', 1);
    const event = verified(created.body.secret, first);
    expect(event).toEqual({
      type: 'budget.low',
      timestamp: expect.any(String),
      data: {
        account_id: account.accountId,
        currency: 'USD',
        pool_cents: pool,
        spent_cents: expect.any(Number),
        reserved_cents: expect.any(Number),
        remaining_cents: expect.any(Number),
        threshold_percent: 10,
        threshold_cents: threshold,
      },
    });
    const data = event.data as Record<string, number>;
    expect(data.remaining_cents).toBeLessThan(threshold);
    expect(data.remaining_cents).toBeCloseTo(data.pool_cents - data.spent_cents - data.reserved_cents, 4);

    // Still low after the next scan: nothing new is recorded.
    await t.http().post('/v1/scans').set('Authorization', auth).send(SCAN).expect(200);
    await settled(accountId);
    expect(await lowDeliveries(accountId)).toBe(1);
    expect(receiver.at('/low')).toHaveLength(1);

    // budget:add (another process: the operator CLI) lifts the remaining above the threshold and re-arms the event.
    const added = await cli('budget:add', '--account', account.accountId, '--cents', String(pool));
    expect(added.code).toBe(0);
    expect(JSON.parse(added.out).remaining_cents).toBeGreaterThan((2 * pool) / 10);
    expect(await lowDeliveries(accountId)).toBe(1);
    await spendDownTo(accountId, (2 * pool) / 10 + cost / 2);
    await t.http().post('/v1/scans').set('Authorization', auth).send(SCAN).expect(200);
    const both = await arrivals('/low', 2);
    expect(verified(created.body.secret, both[1]).data).toEqual(expect.objectContaining({ pool_cents: 2 * pool, threshold_cents: (2 * pool) / 10 }));
    expect(new Set(both.map((r) => r.headers['webhook-id'])).size).toBe(2);
  });

  it('records one budget.low for concurrent scans that cross the threshold together', async () => {
    const account = await newAccount(t);
    const accountId = await internalId(account.accountId);
    const pool = 100 * hold;
    await budget.setPool(accountId, pool, 'test');
    await register(account.cookie, { url: receiver.url('/concurrent'), events: ['budget.low'] }).expect(201);
    await spendDownTo(accountId, pool / 10 + cost / 2);
    const auth = `Bearer ${account.apiKey}`;
    const responses = await Promise.all(Array.from({ length: 5 }, () => t.http().post('/v1/scans').set('Authorization', auth).send(SCAN)));
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    await arrivals('/concurrent', 1);
    await settled(accountId);
    expect(await lowDeliveries(accountId)).toBe(1);
    expect(receiver.at('/concurrent')).toHaveLength(1);
  });

  it('delivers a budget.low recorded by the CLI (a process without the queue) through the workers', async () => {
    const account = await newAccount(t);
    const accountId = await internalId(account.accountId);
    const pool = 100 * hold;
    await budget.setPool(accountId, pool, 'test');
    const created = await register(account.cookie, { url: receiver.url('/cli'), events: ['budget.low'] }).expect(201);
    await spendDownTo(accountId, pool / 2);
    // Spent: half the pool; a pool of 55 % of the old one leaves 5 % of the new one, under the 10 % threshold.
    const lowered = await cli('budget:set', '--account', account.accountId, '--cents', String((pool * 55) / 100));
    expect(lowered.code).toBe(0);
    const [request] = await arrivals('/cli', 1);
    expect(verified(created.body.secret, request)).toEqual(
      expect.objectContaining({ type: 'budget.low', data: expect.objectContaining({ pool_cents: (pool * 55) / 100 }) }),
    );
  });

  it('offers budget.low in the event list and documents its payload under webhooks in /openapi.json', async () => {
    const document = (await t.http().get('/openapi.json').expect(200)).body;
    expect(document.webhooks['budget.low'].post.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/BudgetLowWebhookEvent',
    });
    expect(document.components.schemas.BudgetLowWebhookData.required).toEqual(
      expect.arrayContaining(['account_id', 'pool_cents', 'spent_cents', 'reserved_cents', 'remaining_cents', 'threshold_cents']),
    );
    expect(document.components.schemas.CreateWebhookEndpointDto.properties.events.items.enum).toContain('budget.low');
  });

  it(`refuses endpoint ${MAX_ENDPOINTS + 1} with 422 webhook_endpoint_limit_exceeded, also under concurrent creates and from the CLI`, async () => {
    const account = await newAccount(t);
    const responses = await Promise.all(
      Array.from({ length: MAX_ENDPOINTS + 4 }, (_, i) => register(account.cookie, { url: `https://example.com/h${i}`, events: ['scan.failed'] })),
    );
    expect(responses.filter((r) => r.status === 201)).toHaveLength(MAX_ENDPOINTS);
    const refused = responses.filter((r) => r.status === 422);
    expect(refused).toHaveLength(4);
    for (const response of refused) {
      expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(response.body).toEqual(
        expect.objectContaining({
          code: 'webhook_endpoint_limit_exceeded',
          status: 422,
          title: 'Webhook endpoint limit exceeded',
          type: expect.stringMatching(/\/problems\/webhook-endpoint-limit-exceeded$/),
          detail: `The account already has ${MAX_ENDPOINTS} webhook endpoints; delete one before registering another`,
        }),
      );
    }
    const listed = await t.http().get('/v1/webhooks/endpoints').set('Cookie', account.cookie).expect(200);
    expect(listed.body.data).toHaveLength(MAX_ENDPOINTS);
    await t.http().get('/problems/webhook-endpoint-limit-exceeded').expect(200);

    // The CLI reads its configuration when it runs: give it the same cap.
    process.env.WEBHOOK_MAX_ENDPOINTS_PER_ACCOUNT = String(MAX_ENDPOINTS);
    const fromCli = await cli('webhooks:create', '--account', account.accountId, '--url', 'https://example.com/cli', '--events', 'scan.failed').finally(
      () => delete process.env.WEBHOOK_MAX_ENDPOINTS_PER_ACCOUNT,
    );
    expect(fromCli.code).toBe(1);
    expect(fromCli.err).toMatch(/already has 3 webhook endpoints/);
    // Deleting one makes room again.
    await t.http().delete(`/v1/webhooks/endpoints/${listed.body.data[0].id}`).set('Cookie', account.cookie).expect(204);
    await register(account.cookie, { url: 'https://example.com/again', events: ['scan.failed'] }).expect(201);
  });

  it('prunes finished deliveries older than WEBHOOK_DELIVERY_RETENTION_DAYS (30) with their attempts, and keeps the rest', async () => {
    const account = await newAccount(t);
    const created = await register(account.cookie, { url: 'https://example.com/retention', events: ['scan.completed'] }).expect(201);
    const rows: Array<{ id: string; label: string }> = [];
    for (const [label, status, age] of [
      ['old-delivered', 'delivered', '31 days'],
      ['old-failed', 'failed', '40 days'],
      ['old-pending', 'pending', '31 days'],
      ['recent', 'delivered', '29 days'],
    ]) {
      const [row] = await db.query(
        `INSERT INTO webhook_deliveries (endpoint_id, account_id, event_type, payload, status, attempt_count, created_at)
         SELECT id, account_id, 'scan.completed', '{}'::jsonb, $2, 1, now() - $3::interval FROM webhook_endpoints WHERE id = $1
         RETURNING id`,
        [created.body.id, status, age],
      );
      rows.push({ id: row.id, label });
    }
    for (const row of rows) {
      await db.query(`INSERT INTO webhook_attempts (delivery_id, attempted_at, response_status, duration_ms) VALUES ($1, now(), 500, 3)`, [row.id]);
    }
    await t.app.get(WebhooksProcessor).pruneDeliveries();
    const left: Array<{ id: string }> = await db.query(`SELECT id FROM webhook_deliveries WHERE endpoint_id = $1`, [created.body.id]);
    const labelsLeft = rows.filter((row) => left.some((l) => l.id === row.id)).map((row) => row.label);
    expect(labelsLeft.sort()).toEqual(['old-pending', 'recent']);
    const attempts: Array<{ delivery_id: string }> = await db.query(`SELECT delivery_id FROM webhook_attempts WHERE delivery_id = ANY($1::uuid[])`, [
      rows.map((row) => row.id),
    ]);
    expect(attempts.map((a) => a.delivery_id).sort()).toEqual(left.map((l) => l.id).sort());
  });

  it('rotates a secret: the new one is shown once, and both sign until the grace period ends', async () => {
    const account = await newAccount(t);
    const created = await register(account.cookie, { url: receiver.url('/rotate'), events: ['scan.completed'] }).expect(201);
    const rotated = await t
      .http()
      .post(`/v1/webhooks/endpoints/${created.body.id}/rotate-secret`)
      .set('Cookie', account.cookie)
      .expect(200);
    expect(rotated.body).toEqual({
      ...created.body,
      secret: expect.stringMatching(/^whsec_/),
      previous_secret_expires_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(rotated.body.secret).not.toBe(created.body.secret);
    const auth = `Bearer ${account.apiKey}`;
    await t.http().post('/v1/scans').set('Authorization', auth).send(SCAN).expect(200);
    const [during] = await arrivals('/rotate', 1);
    expect(String(during.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verified(rotated.body.secret, during).type).toBe('scan.completed');
    expect(verified(created.body.secret, during).type).toBe('scan.completed');

    // Once the grace period is over only the new secret signs.
    await db.query(`UPDATE webhook_endpoints SET previous_secret_expires_at = now() - interval '1 second' WHERE id = $1`, [created.body.id]);
    await t.http().post('/v1/scans').set('Authorization', auth).send(SCAN).expect(200);
    const after = (await arrivals('/rotate', 2))[1];
    expect(verified(rotated.body.secret, after).type).toBe('scan.completed');
    expect(() => verified(created.body.secret, after)).toThrow();

    const other = await newAccount(t);
    const hidden = await t.http().post(`/v1/webhooks/endpoints/${created.body.id}/rotate-secret`).set('Cookie', other.cookie).expect(404);
    expect(hidden.body.code).toBe('not_found');
  });
});
