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
    // A well-formed key that differs in its last character (a fixed 'Q' would match the real key 1 time in 62).
    const unknownKey = `${apiKey.slice(0, -1)}${apiKey.endsWith('Q') ? 'R' : 'Q'}`;
    for (let i = 0; i < 70; i++) await t.http().get('/v1/meta/engines').set('Authorization', `Bearer ${unknownKey}`).expect(401);
    await t.http().get('/v1/meta/engines').set('Authorization', `Bearer ${apiKey}`).expect(200);
  });

  it('does not limit health checks', async () => {
    for (let i = 0; i < 70; i++) await t.http().get('/health/live').expect(200);
  });

  it('limits scans to 6 an hour per key, counting estimates as reads instead', async () => {
    const { apiKey } = await newAccount(t);
    const scan = () =>
      t
        .http()
        .post('/v1/scans?mode=async')
        .set('Authorization', `Bearer ${apiKey}`)
        .send({ jurisdictions: ['EU'], areas: ['Payments'], horizon: 3 });
    for (let i = 0; i < 10; i++) {
      await t
        .http()
        .post('/v1/scans/estimate')
        .set('Authorization', `Bearer ${apiKey}`)
        .send({ jurisdictions: ['EU'], areas: ['Payments'] })
        .expect(200);
    }
    const reset = Math.ceil((Math.ceil(now / 3_600_000) * 3_600_000 - now) / 1000);
    for (let i = 1; i <= 6; i++) expect((await scan().expect(202)).headers.ratelimit).toBe(`limit=6, remaining=${6 - i}, reset=${reset}`);
    const limited = await scan().expect(429);
    expect(limited.body.detail).toContain('scans');
    expect(limited.headers['retry-after']).toBe(String(reset));
  });

  it('limits exports to 30 an hour per key (rejected requests count too)', async () => {
    const { apiKey } = await newAccount(t);
    for (let i = 0; i < 30; i++) await t.http().post('/v1/exports').set('Authorization', `Bearer ${apiKey}`).send({}).expect(422);
    const limited = await t.http().post('/v1/exports').set('Authorization', `Bearer ${apiKey}`).send({}).expect(429);
    expect(limited.body.detail).toContain('exports');
    expect(limited.headers['ratelimit-policy']).toBe('30;w=3600');
  });

  it('limits mutations (cancel, delete export) to 30 a minute per key', async () => {
    const { apiKey } = await newAccount(t);
    const missing = '00000000-0000-4000-8000-000000000000';
    for (let i = 0; i < 15; i++) {
      await t.http().post(`/v1/scans/${missing}/cancel`).set('Authorization', `Bearer ${apiKey}`).expect(404);
      await t.http().delete(`/v1/exports/${missing}`).set('Authorization', `Bearer ${apiKey}`).expect(404);
    }
    const limited = await t.http().delete(`/v1/exports/${missing}`).set('Authorization', `Bearer ${apiKey}`).expect(429);
    expect(limited.body.detail).toContain('mutations');
  });
});
