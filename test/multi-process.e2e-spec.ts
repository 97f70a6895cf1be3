import { removeBuild, startApiProcess, type ApiProcess } from './support/api-process';
import { DataSource } from 'typeorm';
import { holdNextKeyLookup } from './support/held-key-lookup';
import { openSse } from './support/sse';
import { bootTestApp, newAccount, type TestApp } from './support/test-app';
import { RedisService } from '../src/infra/redis/redis.service';

// A second API process (a real OS process on the same Postgres and Redis) beside the in-test one.
describe('two API processes', () => {
  let t: TestApp;

  let second: ApiProcess;

  beforeAll(async () => {
    t = await bootTestApp();
    await t.app.listen(0, '127.0.0.1');
    second = await startApiProcess();
  }, 60_000);
  afterAll(async () => {
    await second?.stop();
    removeBuild();
    await t.close();
  });

  it('shares one bucket between two API processes', async () => {
    const { apiKey } = await newAccount(t);
    const headers = { Authorization: `Bearer ${apiKey}` };
    const remaining: number[] = [];
    for (let i = 0; i < 30; i++) {
      const local = await t.http().get('/v1/meta/engines').set(headers).expect(200);
      const remote = await fetch(`${second.baseUrl}/v1/meta/engines`, { headers });
      expect(remote.status).toBe(200);
      remaining.push(
        Number(/remaining=(\d+)/.exec(local.headers.ratelimit)![1]),
        Number(/remaining=(\d+)/.exec(remote.headers.get('ratelimit')!)![1]),
      );
    }
    // One shared counter, unless the minute rolled over mid-test (then it restarts at 59).
    const restarts = remaining.filter((value, i) => i > 0 && value > remaining[i - 1]).length;
    expect(restarts).toBeLessThanOrEqual(1);
    if (restarts === 0) {
      expect(remaining).toEqual(Array.from({ length: 60 }, (_, i) => 59 - i));
      const limited = await fetch(`${second.baseUrl}/v1/meta/engines`, { headers });
      expect(limited.status).toBe(429);
      expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    }
  }, 60_000);

  it('sees a revocation made through the other process at once, even with the key cached', async () => {
    const account = await newAccount(t);
    const headers = { Authorization: `Bearer ${account.apiKey}` };
    expect((await fetch(`${second.baseUrl}/v1/meta/areas`, { headers })).status).toBe(200);
    expect((await fetch(`${second.baseUrl}/v1/meta/areas`, { headers })).status).toBe(200);
    await t.http().post(`/v1/keys/${account.keyId}/revoke`).set('Cookie', account.cookie).expect(200);
    const deadline = Date.now() + 1000;
    let status = 200;
    let body: { code?: string } = {};
    // Pub/sub delivery is asynchronous but prompt; allow it a moment, never a stale window.
    while (status === 200 && Date.now() < deadline) {
      const response = await fetch(`${second.baseUrl}/v1/meta/areas`, { headers });
      status = response.status;
      body = (await response.json()) as { code?: string };
    }
    expect(status).toBe(401);
    expect(body.code).toBe('key_revoked');
  });

  it('refuses a key revoked on the other process even when a lookup here read it just before', async () => {
    const account = await newAccount(t);
    const headers = { Authorization: `Bearer ${account.apiKey}` };
    // This process's lookup reads the row (not yet revoked) and is held until the eviction from the other
    // process has reached this process's subscriber.
    const held = holdNextKeyLookup(t);
    // Listeners run in the order they were added: the service's own handler has evicted by the time this one runs.
    const subscriber = t.app.get(RedisService).subscriberClient();
    let evicted!: () => void;
    const eviction = new Promise<void>((resolve) => (evicted = resolve));
    const onMessage = (_channel: string, apiKeyId: string) => apiKeyId === account.keyId && evicted();
    subscriber.on('message', onMessage);
    try {
      const racing = t
        .http()
        .get('/v1/meta/areas')
        .set(headers)
        .then((response) => response.status);
      await held.read;
      const revoked = await fetch(`${second.baseUrl}/v1/keys/${account.keyId}/revoke`, {
        method: 'POST',
        headers: { Cookie: account.cookie },
      });
      expect(revoked.status).toBe(200);
      await eviction;
      held.release();
      expect(await racing).toBe(200);
    } finally {
      held.release();
      held.restore();
      subscriber.removeListener('message', onMessage);
    }
    const response = await t.http().get('/v1/meta/areas').set(headers).expect(401);
    expect(response.body.code).toBe('key_revoked');
  });

  it('streams a scan on one process while the worker on the other runs it', async () => {
    const { apiKey } = await newAccount(t);
    const headers = { Authorization: `Bearer ${apiKey}` };
    // The second process is APP_ROLE=api: only the in-test app works the queue.
    const created = await fetch(`${second.baseUrl}/v1/scans?mode=async`, {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/json' },
      body: JSON.stringify({ jurisdictions: ['EU'], areas: ['Payments'], horizon: 24 }),
    });
    expect(created.status).toBe(202);
    const { stream_url: streamUrl } = (await created.json()) as { stream_url: string };
    const stream = await openSse(second.baseUrl, streamUrl, headers);
    await stream.ended;
    expect(stream.events[stream.events.length - 1]).toMatchObject({ type: 'complete' });

    // A client that reconnects gets the current state again.
    const again = await openSse(second.baseUrl, streamUrl, headers);
    await again.ended;
    expect(again.events).toHaveLength(1);
    expect(again.events[0].type).toBe('complete');

    // One that comes back to the other process with the id of an event it got here gets the rest, the same ids.
    const local = `http://127.0.0.1:${(t.app.getHttpServer().address() as { port: number }).port}`;
    const resumed = await openSse(local, streamUrl, { ...headers, 'Last-Event-ID': stream.ids[1]! });
    await resumed.ended;
    expect(resumed.ids).toEqual(stream.ids.slice(2));
    expect(resumed.events.slice(0, -1)).toEqual(stream.events.slice(2, -1));
    expect(resumed.events[resumed.events.length - 1]).toMatchObject({
      type: 'complete',
      snapshotId: stream.events[stream.events.length - 1].snapshotId,
    });
  });

  it('executes 50 concurrent identical scan requests across both processes exactly once', async () => {
    const { apiKey } = await newAccount(t);
    const body = { jurisdictions: ['UK'], areas: ['Consumer Protection'], horizon: 18 };
    const send = (base: string) =>
      fetch(`${base}/v1/scans?mode=async`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json', 'Idempotency-Key': 'one-scan-please' },
        body: JSON.stringify(body),
      });
    const local = `http://127.0.0.1:${(t.app.getHttpServer().address() as { port: number }).port}`;
    // Past the scans bucket (6 an hour) duplicates are answered 429 before the idempotency check; one scan runs either way.
    const responses = await Promise.all(Array.from({ length: 50 }, (_, i) => send(i % 2 ? second.baseUrl : local)));
    const statuses = responses.map((r) => r.status);
    expect(statuses.every((status) => [202, 409, 429].includes(status))).toBe(true);
    const accepted = await Promise.all(responses.filter((r) => r.status === 202).map((r) => r.json() as Promise<{ scan_id: string }>));
    expect(accepted.length).toBeGreaterThanOrEqual(1);
    expect(new Set(accepted.map((a) => a.scan_id)).size).toBe(1);
    const [{ n }] = await t.app
      .get(DataSource)
      .query(
        "SELECT count(*)::int AS n FROM scans s JOIN api_keys k ON k.id = s.api_key_id WHERE k.key_hash = encode(sha256($1::bytea), 'hex')",
        [apiKey],
      );
    expect(n).toBe(1);
  });
});
