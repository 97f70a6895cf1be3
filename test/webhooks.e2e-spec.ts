import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { DataSource } from 'typeorm';
import { WebhooksProcessor } from '../src/modules/webhooks/webhooks.processor';
import { pollUntil } from './support/poll';
import { bootTestAppWithEnv, finishedExport, newAccount, type TestApp } from './support/test-app';

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A loopback receiver that records every request and answers with the status the test queues for its path. */
function startReceiver() {
  const received: Received[] = [];
  const statuses = new Map<string, number[]>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = req.url ?? '/';
      received.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.statusCode = statuses.get(path)?.shift() ?? 204;
      res.end();
    });
  });
  return {
    received,
    failNext: (path: string, ...codes: number[]) => statuses.set(path, codes),
    url: (path: string) => `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`,
    listen: () => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve)),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const SCAN = { jurisdictions: ['EU'], areas: ['AML / KYC'], horizon: 12 };

describe('Signed webhooks', () => {
  let t: TestApp;
  const receiver = startReceiver();

  beforeAll(async () => {
    await receiver.listen();
    t = await bootTestAppWithEnv({ WEBHOOK_ALLOW_LOOPBACK_URLS: 'true', WEBHOOK_BACKOFF_MS: '20', WEBHOOK_MAX_ATTEMPTS: '4' });
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  const register = (cookie: string, body: object) => t.http().post('/v1/webhooks/endpoints').set('Cookie', cookie).send(body);
  const arrivals = (path: string, count = 1) =>
    pollUntil(
      async () =>
        receiver.received.filter((r) => r.path === path).length >= count ? receiver.received.filter((r) => r.path === path) : undefined,
      20000,
      50,
    );
  const verified = (secret: string, request: Received) =>
    new Webhook(secret).verify(request.body, {
      'webhook-id': String(request.headers['webhook-id']),
      'webhook-timestamp': String(request.headers['webhook-timestamp']),
      'webhook-signature': String(request.headers['webhook-signature']),
    }) as { type: string; timestamp: string; data: Record<string, unknown> };

  it('signs scan.completed so that standardwebhooks verifies it, and shows the secret only at creation', async () => {
    const account = await newAccount(t);
    const created = await register(account.cookie, { url: receiver.url('/scan'), events: ['scan.completed'], description: 'CI' }).expect(
      201,
    );
    expect(created.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      url: receiver.url('/scan'),
      events: ['scan.completed'],
      description: 'CI',
      enabled: true,
      disabled_reason: null,
      previous_secret_expires_at: null,
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]+=*$/),
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const listed = await t.http().get('/v1/webhooks/endpoints').set('Cookie', account.cookie).expect(200);
    expect(listed.body.data).toEqual([{ ...created.body, secret: undefined }]);
    expect(JSON.stringify(listed.body)).not.toContain(created.body.secret);

    const scan = await t.http().post('/v1/scans').set('Authorization', `Bearer ${account.apiKey}`).send(SCAN).expect(200);
    const [request] = await arrivals('/scan');
    expect(request.headers['content-type']).toMatch(/^application\/json/);
    const payload = verified(created.body.secret, request);
    expect(payload).toEqual({
      type: 'scan.completed',
      timestamp: expect.any(String),
      data: expect.objectContaining({ scan_id: scan.body.scan_id, status: 'completed', snapshot_id: scan.body.snapshot_id }),
    });
    expect(() =>
      new Webhook(created.body.secret).verify(request.body.replace('completed', 'failed'), request.headers as Record<string, string>),
    ).toThrow();
  });

  it('delivers export.completed once an export finishes', async () => {
    const account = await newAccount(t);
    const created = await register(account.cookie, { url: receiver.url('/export'), events: ['export.completed', 'export.failed'] }).expect(
      201,
    );
    const auth = `Bearer ${account.apiKey}`;
    const scan = await t.http().post('/v1/scans').set('Authorization', auth).send(SCAN).expect(200);
    const job = await t
      .http()
      .post('/v1/exports')
      .set('Authorization', auth)
      .send({ snapshot_id: scan.body.snapshot_id, provider: 'internal-csv', artifact_type: 'csv' })
      .expect(202);
    await finishedExport(t, job.body.export_job_id, auth);
    const [request] = await arrivals('/export');
    const payload = verified(created.body.secret, request);
    expect(payload.type).toBe('export.completed');
    expect(payload.data).toEqual(expect.objectContaining({ export_job_id: job.body.export_job_id, status: 'completed' }));
  });

  it('retries on 500 with the same webhook-id, stops at the first 2xx, and shows the attempts', async () => {
    const account = await newAccount(t);
    receiver.failNext('/retry', 500, 500);
    const created = await register(account.cookie, { url: receiver.url('/retry'), events: ['scan.completed'] }).expect(201);
    await t.http().post('/v1/scans').set('Authorization', `Bearer ${account.apiKey}`).send(SCAN).expect(200);
    const requests = await arrivals('/retry', 3);
    const ids = new Set(requests.map((r) => r.headers['webhook-id']));
    expect(ids.size).toBe(1);
    for (const request of requests) expect(verified(created.body.secret, request).type).toBe('scan.completed');

    const deliveryId = [...ids][0] as string;
    // Polled in the database: the reads bucket would not take a tight HTTP poll.
    await pollUntil(async () => {
      const [row] = await t.app.get(DataSource).query('SELECT status FROM webhook_deliveries WHERE id = $1', [deliveryId]);
      return row?.status === 'delivered';
    });
    const delivery = (await t.http().get(`/v1/webhooks/deliveries/${deliveryId}`).set('Cookie', account.cookie).expect(200)).body;
    expect(delivery).toEqual({
      id: deliveryId,
      endpoint_id: created.body.id,
      event_type: 'scan.completed',
      status: 'delivered',
      attempt_count: 3,
      payload: expect.objectContaining({ type: 'scan.completed' }),
      next_attempt_at: null,
      created_at: expect.any(String),
      delivered_at: expect.any(String),
      attempts: [
        expect.objectContaining({ response_status: 500, error: null }),
        expect.objectContaining({ response_status: 500, error: null }),
        expect.objectContaining({ response_status: 204, error: null }),
      ],
    });
    const list = await t.http().get(`/v1/webhooks/endpoints/${created.body.id}/deliveries`).set('Cookie', account.cookie).expect(200);
    expect(list.body.data.map((d: { id: string }) => d.id)).toEqual([deliveryId]);
    // Nothing more arrives for this delivery once it succeeded: a later event is the only further request.
    expect(receiver.received.filter((r) => r.path === '/retry')).toHaveLength(3);
  });

  it('gives a delivery up as failed after WEBHOOK_MAX_ATTEMPTS answers that are not 2xx', async () => {
    const account = await newAccount(t);
    receiver.failNext('/down', 500, 503, 404, 500);
    await register(account.cookie, { url: receiver.url('/down'), events: ['scan.completed'] }).expect(201);
    await t.http().post('/v1/scans').set('Authorization', `Bearer ${account.apiKey}`).send(SCAN).expect(200);
    const [first] = await arrivals('/down');
    const deliveryId = String(first.headers['webhook-id']);
    await pollUntil(async () => {
      const [row] = await t.app.get(DataSource).query('SELECT status FROM webhook_deliveries WHERE id = $1', [deliveryId]);
      return row?.status === 'failed';
    });
    const delivery = (await t.http().get(`/v1/webhooks/deliveries/${deliveryId}`).set('Cookie', account.cookie).expect(200)).body;
    expect(delivery).toEqual(expect.objectContaining({ status: 'failed', attempt_count: 4, next_attempt_at: null, delivered_at: null }));
    expect(delivery.attempts.map((a: { response_status: number }) => a.response_status)).toEqual([500, 503, 404, 500]);
  });

  it('disables an endpoint whose deliveries have all failed for more than WEBHOOK_DISABLE_AFTER_SECONDS (5 days)', async () => {
    const account = await newAccount(t);
    receiver.failNext('/dead', 500);
    const created = await register(account.cookie, { url: receiver.url('/dead'), events: ['scan.completed'] }).expect(201);
    // A delivery that failed six days ago, and nothing delivered since.
    await t.app.get(DataSource).query(
      `INSERT INTO webhook_deliveries (endpoint_id, account_id, event_type, payload, status, attempt_count, created_at)
       SELECT id, account_id, 'scan.completed', '{}'::jsonb, 'failed', 8, now() - interval '6 days' FROM webhook_endpoints WHERE id = $1`,
      [created.body.id],
    );
    await t.http().post('/v1/scans').set('Authorization', `Bearer ${account.apiKey}`).send(SCAN).expect(200);
    await arrivals('/dead');
    await pollUntil(async () => {
      const [row] = await t.app.get(DataSource).query('SELECT disabled_at FROM webhook_endpoints WHERE id = $1', [created.body.id]);
      return row?.disabled_at;
    });
    const endpoint = (await t.http().get(`/v1/webhooks/endpoints/${created.body.id}`).set('Cookie', account.cookie).expect(200)).body;
    expect(endpoint).toEqual(
      expect.objectContaining({
        enabled: false,
        disabled_reason: expect.stringMatching(/^Every delivery failed for more than 5 days \(last: HTTP 500\)/),
      }),
    );
  });

  it('keeps an endpoint enabled while some delivery got through within the period', async () => {
    const account = await newAccount(t);
    receiver.failNext('/flaky', 500);
    const created = await register(account.cookie, { url: receiver.url('/flaky'), events: ['scan.completed'] }).expect(201);
    await t.app.get(DataSource).query(
      `INSERT INTO webhook_deliveries (endpoint_id, account_id, event_type, payload, status, attempt_count, created_at, delivered_at)
       SELECT id, account_id, 'scan.completed', '{}'::jsonb, s.status, 1, s.created, s.delivered
         FROM webhook_endpoints, (VALUES ('failed', now() - interval '6 days', NULL::timestamptz), ('delivered', now() - interval '1 day', now() - interval '1 day')) AS s(status, created, delivered)
        WHERE id = $1`,
      [created.body.id],
    );
    await t.http().post('/v1/scans').set('Authorization', `Bearer ${account.apiKey}`).send(SCAN).expect(200);
    await arrivals('/flaky', 2);
    const endpoint = (await t.http().get(`/v1/webhooks/endpoints/${created.body.id}`).set('Cookie', account.cookie).expect(200)).body;
    expect(endpoint).toEqual(expect.objectContaining({ enabled: true, disabled_reason: null }));
  });

  it('re-queues a recorded delivery whose job was lost (the process died between commit and queueing)', async () => {
    const account = await newAccount(t);
    const created = await register(account.cookie, { url: receiver.url('/lost'), events: ['scan.failed'] }).expect(201);
    const db = t.app.get(DataSource);
    const [row] = await db.query(
      `INSERT INTO webhook_deliveries (endpoint_id, account_id, event_type, payload, created_at)
       SELECT id, account_id, 'scan.failed', $2::jsonb, now() - interval '1 minute' FROM webhook_endpoints WHERE id = $1 RETURNING id`,
      [created.body.id, JSON.stringify({ type: 'scan.failed', timestamp: new Date().toISOString(), data: { scan_id: 'x' } })],
    );
    expect(await t.app.get(WebhooksProcessor).reconcile()).toBeGreaterThanOrEqual(1);
    const [request] = await arrivals('/lost');
    expect(request.headers['webhook-id']).toBe(row.id);
    expect(verified(created.body.secret, request).type).toBe('scan.failed');
  });

  it('gives nothing to a disabled endpoint, and resumes once it is enabled again', async () => {
    const account = await newAccount(t);
    const created = await register(account.cookie, { url: receiver.url('/disabled'), events: ['scan.completed'] }).expect(201);
    const patched = await t
      .http()
      .patch(`/v1/webhooks/endpoints/${created.body.id}`)
      .set('Cookie', account.cookie)
      .send({ enabled: false })
      .expect(200);
    expect(patched.body).toEqual(expect.objectContaining({ enabled: false, disabled_reason: 'Disabled by the account' }));
    await t.http().post('/v1/scans').set('Authorization', `Bearer ${account.apiKey}`).send(SCAN).expect(200);
    const none = await t.http().get(`/v1/webhooks/endpoints/${created.body.id}/deliveries`).set('Cookie', account.cookie).expect(200);
    expect(none.body.data).toEqual([]);
    await t.http().patch(`/v1/webhooks/endpoints/${created.body.id}`).set('Cookie', account.cookie).send({ enabled: true }).expect(200);
    await t.http().post('/v1/scans').set('Authorization', `Bearer ${account.apiKey}`).send(SCAN).expect(200);
    expect(await arrivals('/disabled')).toHaveLength(1);
  });

  it.each([
    [{ url: 'https://10.1.2.3/hook', events: ['scan.completed'] }, 'url'],
    [{ url: 'https://169.254.169.254/latest', events: ['scan.completed'] }, 'url'],
    [{ url: 'https://localhost.internal/hook', events: ['scan.completed'] }, 'url'],
    [{ url: 'http://example.com/hook', events: ['scan.completed'] }, 'url'],
    [{ url: 'not a url', events: ['scan.completed'] }, 'url'],
    [{ url: 'https://example.com/hook', events: ['scan.exploded'] }, 'events'],
    [{ url: 'https://example.com/hook', events: [] }, 'events'],
    [{ url: 'https://example.com/hook', events: ['scan.completed'], secret: 'plain' }, 'secret'],
    [{ url: 'https://example.com/hook', events: ['scan.completed'], extra: 1 }, 'extra'],
  ])('refuses %j with 422 validation_error at %s', async (body, path) => {
    const account = await newAccount(t);
    const response = await register(account.cookie, body).expect(422);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(response.body.code).toBe('validation_error');
    expect(response.body.errors.map((e: { path: string }) => e.path)).toContain(path);
  });

  it('keeps a secret the client supplies in the whsec_ format', async () => {
    const account = await newAccount(t);
    const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    const created = await register(account.cookie, { url: 'https://example.com/hook', events: ['scan.failed'], secret }).expect(201);
    expect(created.body.secret).toBe(secret);
  });

  it('hides an endpoint from another account (404) and refuses API keys (403) and anonymous callers (401)', async () => {
    const owner = await newAccount(t);
    const other = await newAccount(t);
    const created = await register(owner.cookie, { url: 'https://example.com/hook', events: ['scan.completed'] }).expect(201);
    const path = `/v1/webhooks/endpoints/${created.body.id}`;
    expect((await t.http().get(path).set('Cookie', other.cookie).expect(404)).body.code).toBe('not_found');
    await t.http().patch(path).set('Cookie', other.cookie).send({ enabled: false }).expect(404);
    await t.http().delete(path).set('Cookie', other.cookie).expect(404);
    await t.http().get(`${path}/deliveries`).set('Cookie', other.cookie).expect(404);
    expect((await t.http().get(path).set('Authorization', `Bearer ${owner.apiKey}`).expect(403)).body.code).toBe('permission_denied');
    expect((await t.http().get('/v1/webhooks/endpoints').expect(401)).body.code).toBe('authentication_required');
    await t.http().delete(path).set('Cookie', owner.cookie).expect(204);
    await t.http().get(path).set('Cookie', owner.cookie).expect(404);
  });
});
