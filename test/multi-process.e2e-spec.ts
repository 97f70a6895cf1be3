import { removeBuild, startApiProcess, type ApiProcess } from './support/api-process';
import { bootTestApp, newAccount, type TestApp } from './support/test-app';

// A second API process (a real OS process on the same Postgres and Redis) beside the in-test one.
describe('two API processes', () => {
  let t: TestApp;

  let second: ApiProcess;

  beforeAll(async () => {
    t = await bootTestApp();
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
});
