import { Clock } from '../src/common/clock';
import { bootTestApp, newAccount, type TestApp } from './support/test-app';

describe('rate limits', () => {
  let t: TestApp;
  let clock: Clock;
  let now: number;

  beforeAll(async () => {
    t = await bootTestApp();
    clock = t.app.get(Clock);
    // Mid-window, far from a boundary, and moved by hand.
    now = Math.floor(Date.now() / 3_600_000) * 3_600_000 + 10 * 60_000 + 5_000;
    jest.spyOn(clock, 'now').mockImplementation(() => now);
  });
  afterAll(() => t.close());

  it('lets 60 reads a minute through with RateLimit headers, then answers 429 with Retry-After naming the bucket', async () => {
    const { apiKey } = await newAccount(t);
    const read = () => t.http().get('/v1/meta/engines').set('Authorization', `Bearer ${apiKey}`);
    for (let i = 1; i <= 60; i++) {
      const response = await read().expect(200);
      expect(response.headers['ratelimit-policy']).toBe('60;w=60');
      expect(response.headers.ratelimit).toBe(`limit=60, remaining=${60 - i}, reset=55`);
    }
    const limited = await read().expect(429);
    expect(limited.body.code).toBe('rate_limit_exceeded');
    expect(limited.body.detail).toContain('reads');
    expect(limited.headers['retry-after']).toBe('55');
    expect(limited.headers['content-type']).toMatch(/problem\+json/);

    now += 55_000; // the next window
    const fresh = await read().expect(200);
    expect(fresh.headers.ratelimit).toBe('limit=60, remaining=59, reset=60');
  });

  it('counts every read endpoint against one reads bucket per key, and keys separately', async () => {
    const a = await newAccount(t);
    const b = await newAccount(t);
    const paths = [
      '/v1/meta/engines',
      '/v1/meta/models',
      '/v1/meta/jurisdictions',
      '/v1/meta/areas',
      '/v1/meta/export-types',
      '/v1/usage',
      '/v1/usage/budget',
    ];
    for (let i = 0; i < 60; i++)
      await t
        .http()
        .get(paths[i % paths.length])
        .set('Authorization', `Bearer ${a.apiKey}`)
        .expect(200);
    await t.http().get('/v1/usage/budget').set('Authorization', `Bearer ${a.apiKey}`).expect(429);
    await t.http().get('/v1/meta/areas').set('Authorization', `Bearer ${b.apiKey}`).expect(200);
  });

  it('limits key management to 10 a minute per dashboard user', async () => {
    const { cookie } = await newAccount(t); // one POST /v1/keys already used
    for (let i = 0; i < 9; i++) await t.http().get('/v1/keys').set('Cookie', cookie).expect(200);
    const limited = await t.http().get('/v1/keys').set('Cookie', cookie).expect(429);
    expect(limited.body.detail).toContain('keys');
    expect(limited.headers['ratelimit-policy']).toBe('10;w=60');
  });

  it('authenticates before counting: bad credentials neither pass nor use a bucket', async () => {
    const { apiKey } = await newAccount(t);
    for (let i = 0; i < 70; i++)
      await t
        .http()
        .get('/v1/meta/engines')
        .set('Authorization', `Bearer ${apiKey.slice(0, -1)}Q`)
        .expect(401);
    await t.http().get('/v1/meta/engines').set('Authorization', `Bearer ${apiKey}`).expect(200);
  });

  it('does not limit health checks', async () => {
    for (let i = 0; i < 70; i++) await t.http().get('/health/live').expect(200);
  });
});
