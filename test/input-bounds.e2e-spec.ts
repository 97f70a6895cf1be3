import { randomUUID } from 'node:crypto';
import { bootTestAppWithEnv, newAccount, type TestApp } from './support/test-app';

// Bounded work for every input (issue #10): each case was a 500, a huge answer or seconds of CPU before its fix.

type Reply = { status: number; headers: Record<string, string>; body: Record<string, unknown>; text: string };

function expectProblem(response: Reply, status: number, code: string) {
  expect({ status: response.status, code: response.body?.code }).toEqual({ status, code });
  expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(response.body).toMatchObject({ status, code, request_id: response.headers['x-request-id'] });
}

const LIMITS = { RATE_LIMIT_READS: '100000', RATE_LIMIT_SCANS: '100000', RATE_LIMIT_EXPORTS: '100000', RATE_LIMIT_KEYS: '100000' };

describe('input bounds', () => {
  let t: TestApp;
  let auth: string;
  let cookie: string;

  beforeAll(async () => {
    t = await bootTestAppWithEnv(LIMITS);
    const account = await newAccount(t);
    auth = `Bearer ${account.apiKey}`;
    cookie = account.cookie;
  });
  afterAll(async () => {
    await t.close();
  });

  const post = (path: string) => t.http().post(path).set('Authorization', auth).set('Content-Type', 'application/json');
  const get = (path: string) => t.http().get(path).set('Authorization', auth);
  const scanBody = { jurisdictions: ['EU'], areas: ['Payments'], horizon: 12 };

  describe('lists, objects and errors[] are bounded before per-entry work', () => {
    it('answers an estimate with 500,000 jurisdictions with one error for the list', async () => {
      const body = `{"jurisdictions":[${new Array(500_000).fill('0').join(',')}],"areas":["Payments"]}`;
      const response = await post('/v1/scans/estimate').send(body);
      expectProblem(response, 422, 'validation_error');
      expect(response.body.errors).toEqual([
        { path: 'jurisdictions', code: 'invalid', message: expect.stringMatching(/at most 100 entries/) },
      ]);
      expect(response.text.length).toBeLessThan(5000);
    });

    it('gives an over-long scan list one error, without judging its entries', async () => {
      const response = await post('/v1/scans?mode=async').send({ ...scanBody, areas: new Array(1000).fill(7) });
      expectProblem(response, 422, 'validation_error');
      expect(response.body.errors).toEqual([{ path: 'areas', code: 'invalid', message: expect.stringMatching(/at most 20 entries/) }]);
    });

    it('bounds translationLanguages: at most 20 codes of at most 35 characters', async () => {
      const many = await post('/v1/scans?mode=async').send({ ...scanBody, translationLanguages: new Array(100_000).fill(1) });
      expect(many.body.errors).toEqual([{ path: 'translationLanguages', code: 'invalid', message: expect.stringMatching(/at most 20/) }]);
      const long = await post('/v1/scans?mode=async').send({ ...scanBody, translationLanguages: ['fr', 'x'.repeat(36)] });
      expect(long.body.errors).toEqual([{ path: 'translationLanguages[1]', code: 'too_long', message: expect.any(String) }]);
    });

    it('refuses a body with thousands of members as a whole', async () => {
      const members = Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`field${i}`, i]));
      const scans = await post('/v1/scans?mode=async').send({ ...scanBody, ...members });
      expectProblem(scans, 422, 'validation_error');
      expect(scans.body.errors).toEqual([{ path: '', code: 'invalid', message: expect.stringMatching(/at most 64 members/) }]);
      const estimate = await post('/v1/scans/estimate').send({ ...scanBody, ...members });
      expect(estimate.body.errors).toEqual([{ path: '', code: 'invalid', message: expect.any(String) }]);
      const keys = await t
        .http()
        .post('/v1/keys')
        .set('Cookie', cookie)
        .send({ name: 'k', ...members });
      expectProblem(keys, 422, 'validation_error');
      expect(keys.body.errors).toEqual([{ path: '', code: 'invalid', message: expect.stringMatching(/at most 64 members/) }]);
      const exported = await post('/v1/exports').send({
        snapshot_id: randomUUID(),
        provider: 'internal-pdf',
        artifact_type: 'pdf',
        ...members,
      });
      expectProblem(exported, 422, 'validation_error');
      expect(exported.body.errors).toEqual([{ path: '', code: 'invalid', message: expect.stringMatching(/at most 64 members/) }]);
    });

    it('answers an export with 10,000 options with one error for options', async () => {
      const options = Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`opt${i}`, 'x']));
      const response = await post('/v1/exports').send({
        snapshot_id: randomUUID(),
        provider: 'internal-pptx',
        artifact_type: 'slide-deck',
        options,
      });
      expectProblem(response, 422, 'validation_error');
      expect(response.body.errors).toEqual([{ path: 'options', code: 'invalid', message: expect.stringMatching(/at most 20/) }]);
    });

    it('bounds export option names and values', async () => {
      const send = (options: object) =>
        post('/v1/exports').send({ snapshot_id: randomUUID(), provider: 'internal-pptx', artifact_type: 'slide-deck', options });
      const value = await send({ theme: 'd'.repeat(100_000) });
      expect(value.body.errors).toEqual([{ path: 'options.theme', code: 'too_long', message: expect.stringMatching(/2000/) }]);
      const name = await send({ ['n'.repeat(100_000)]: 'x' });
      expect(name.body.errors).toHaveLength(1);
      expect(name.body.errors[0]).toMatchObject({ code: 'unknown_option' });
      expect(name.text.length).toBeLessThan(5000);
    });

    it('caps errors[] at 50 entries and gives the total', async () => {
      const unknown = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`extra${i}`, i]));
      const response = await post('/v1/scans?mode=async').send({
        jurisdictions: new Array(20).fill(1),
        areas: new Array(20).fill(2),
        horizon: 12,
        ...unknown,
      });
      expectProblem(response, 422, 'validation_error');
      expect(response.body.errors).toHaveLength(50);
      expect(response.body.errors_total).toBe(80);
      expect(response.body.detail).toMatch(/and 30 more/);
      expect(response.body.errors[0]).toEqual({ path: 'extra0', code: 'unknown', message: expect.any(String) });
    });

    it('keeps echoed paths and messages short', async () => {
      const response = await post('/v1/scans/estimate').send({ ...scanBody, ['k'.repeat(200_000)]: 1 });
      expectProblem(response, 422, 'validation_error');
      expect(response.text.length).toBeLessThan(5000);
    });
  });

  describe('nesting depth', () => {
    const deep = (levels: number) => `{"jurisdictions":${'['.repeat(levels)}${']'.repeat(levels)},"areas":["x"],"horizon":12}`;

    it('refuses JSON nested deeper than 32 levels with a problem document, idempotency key or not', async () => {
      const withKey = await post('/v1/scans?mode=async').set('Idempotency-Key', randomUUID()).send(deep(100_000));
      expectProblem(withKey, 400, 'invalid_request');
      expect(withKey.body.detail).toMatch(/32 levels/);
      expectProblem(await post('/v1/exports').set('Idempotency-Key', randomUUID()).send(deep(40)), 400, 'invalid_request');
      expectProblem(
        await t.http().post('/v1/keys').set('Cookie', cookie).set('Content-Type', 'application/json').send(deep(33)),
        400,
        'invalid_request',
      );
    });

    it('reads JSON of 32 levels as usual', async () => {
      const response = await post('/v1/scans/estimate').send(deep(31));
      expectProblem(response, 422, 'validation_error');
      expect(response.body.errors[0]).toMatchObject({ path: 'jurisdictions[0]', code: 'invalid' });
    });

    it('counts brackets inside strings as text', async () => {
      const response = await post('/v1/scans/estimate').send({ jurisdictions: ['['.repeat(50)], areas: ['{"'.repeat(50)] });
      expect(response.status).toBe(200);
    });
  });

  describe('bodies that are not objects', () => {
    it.each([['"x"'], ['42'], ['true'], ['null'], ['[]']])('answers %s with 422 validation_error at path ""', async (body) => {
      for (const request of [
        post('/v1/scans/estimate'),
        post('/v1/scans?mode=async'),
        post('/v1/exports'),
        t.http().post('/v1/keys').set('Cookie', cookie).set('Content-Type', 'application/json'),
      ]) {
        const response = await request.send(body);
        expectProblem(response, 422, 'validation_error');
        expect(response.body.errors).toContainEqual({ path: '', code: 'invalid', message: expect.any(String) });
      }
    });

    it('still answers unparseable and oversized bodies with a plain 400 and 413', async () => {
      const broken = await post('/v1/scans/estimate').send('{"jurisdictions": [');
      expect(broken.status).toBe(400);
      expect(broken.headers['content-type']).toMatch(/^text\/plain/);
      expect(broken.headers['x-request-id']).toBeUndefined();
      const bare = await post('/v1/scans/estimate').send('x');
      expect(bare.status).toBe(400);
      expect(bare.headers['content-type']).toMatch(/^text\/plain/);
      const big = await post('/v1/scans/estimate').send(`"${'x'.repeat(2 * 1024 * 1024)}"`);
      expect(big.status).toBe(413);
      expect(big.headers['x-request-id']).toBeUndefined();
    });
  });

  describe('dates in query parameters', () => {
    const invalid = [
      '2009-W01-1',
      '2026-001',
      '0000-01-01',
      '2026-02-30',
      '2025-02-29',
      '2026-13-01',
      '2026-01-01T10:00:00',
      '2026-01-01T24:00:00Z',
      '2026-01-01T10:00:60Z',
      '2026-01-01T10:00:00+24:00',
      '20260101',
      '2026-1-1',
      '+002026-01-01',
      '2026-01-01T10:00Z',
      '',
    ];

    it.each(invalid)('answers usage %j with 422 at the parameter', async (value) => {
      for (const name of ['from', 'to']) {
        const response = await get(`/v1/usage?${name}=${encodeURIComponent(value)}`);
        expectProblem(response, 422, 'validation_error');
        expect(response.body.errors).toEqual([{ path: name, code: 'invalid', message: expect.any(String) }]);
      }
    });

    it.each(invalid)('answers snapshot list %j with 422 at the parameter', async (value) => {
      for (const name of ['from', 'to']) {
        const response = await get(`/v1/snapshots?${name}=${encodeURIComponent(value)}`);
        expectProblem(response, 422, 'validation_error');
        expect(response.body.errors).toEqual([{ path: name, code: 'invalid', message: expect.any(String) }]);
      }
    });

    it('accepts RFC 3339 date-times and plain dates (midnight UTC)', async () => {
      const usage = await get('/v1/usage?from=2024-02-29&to=2026-01-31T10:00:00.123456%2B02:00').expect(200);
      expect(usage.body).toMatchObject({ from: '2024-02-29T00:00:00.000Z', to: '2026-01-31T08:00:00.123Z' });
      const lower = await get('/v1/usage?from=2026-01-01t00:00:00z&to=9999-12-31T23:59:59Z').expect(200);
      expect(lower.body).toMatchObject({ from: '2026-01-01T00:00:00.000Z', to: '9999-12-31T23:59:59.000Z' });
      await get('/v1/snapshots?from=0001-01-01&to=2026-01-31T10:00:00-05:00').expect(200);
    });

    it('refuses repeated date parameters', async () => {
      const response = await get('/v1/usage?from=2026-01-01&from=2026-01-02');
      expect(response.body.errors).toEqual([{ path: 'from', code: 'invalid', message: expect.any(String) }]);
    });
  });

  describe('headers', () => {
    it('answers a 15,000-slash Origin quickly, without echoing it', async () => {
      const origin = `https://evil.example${'/'.repeat(15_000)}x`;
      const started = performance.now();
      const responses = [];
      for (let i = 0; i < 10; i++)
        responses.push(await t.http().post('/v1/keys').set('Cookie', cookie).set('Origin', origin).send({ name: 'k' }));
      // The trailing-slash regex took about 90 ms per request here.
      expect(performance.now() - started).toBeLessThan(500);
      for (const response of responses) {
        expectProblem(response, 403, 'permission_denied');
        expect(response.text.length).toBeLessThan(2000);
      }
    });

    it('still accepts the dashboard origin with trailing slashes', async () => {
      const own = await t
        .http()
        .post('/v1/keys')
        .set('Cookie', cookie)
        .set('Origin', 'https://dashboard.example.com//')
        .send({ name: 'k' });
      expect(own.status).toBe(201);
      await t.http().post(`/v1/keys/${own.body.id}/revoke`).set('Cookie', cookie).expect(200);
    });

    it('checks an Idempotency-Key before anything else reads the request', async () => {
      const response = await post('/v1/scans?mode=async').set('Idempotency-Key', 'k'.repeat(8000)).send(scanBody);
      expectProblem(response, 422, 'invalid_idempotency_key');
      expect(response.text.length).toBeLessThan(2000);
    });
  });

  describe('long strings where a short one is expected', () => {
    it('answers a 1 MB export provider quickly and briefly', async () => {
      const started = performance.now();
      const provider = await post('/v1/exports').send({
        snapshot_id: randomUUID(),
        provider: 'p'.repeat(1024 * 1024),
        artifact_type: 'pdf',
      });
      const artifact = await post('/v1/exports').send({
        snapshot_id: randomUUID(),
        provider: 'internal-pdf',
        artifact_type: 'a'.repeat(1024 * 1024),
      });
      expect(performance.now() - started).toBeLessThan(500);
      expectProblem(provider, 422, 'validation_error');
      expect(provider.body.errors).toEqual([{ path: 'provider', code: 'unknown', message: expect.any(String) }]);
      expect(provider.text.length).toBeLessThan(5000);
      expect(artifact.body.errors).toEqual([{ path: 'artifact_type', code: 'unknown', message: expect.any(String) }]);
      expect(artifact.text.length).toBeLessThan(5000);
    });

    it('bounds snapshot list filters like the scan fields they match', async () => {
      const jurisdiction = await get(`/v1/snapshots?jurisdiction=${'j'.repeat(101)}`);
      expect(jurisdiction.body.errors).toEqual([{ path: 'jurisdiction', code: 'too_long', message: expect.any(String) }]);
      const area = await get(`/v1/snapshots?area=${'a'.repeat(201)}`);
      expect(area.body.errors).toEqual([{ path: 'area', code: 'too_long', message: expect.any(String) }]);
      await get(`/v1/snapshots?jurisdiction=${'j'.repeat(100)}&area=${'a'.repeat(200)}`).expect(200);
    });
  });

  describe('characters PostgreSQL cannot store', () => {
    it('refuses NUL in snapshot list filters', async () => {
      for (const name of ['jurisdiction', 'area']) {
        const response = await get(`/v1/snapshots?${name}=EU%00`);
        expectProblem(response, 422, 'validation_error');
        expect(response.body.errors).toEqual([{ path: name, code: 'invalid', message: expect.stringMatching(/NUL/) }]);
      }
    });

    it('refuses NUL and unpaired surrogates in scan and estimate strings', async () => {
      const body = '{"jurisdictions":["EU\\u0000"],"areas":["ok","\\ud800x"],"horizon":12,"translationLanguages":["fr\\u0000"]}';
      for (const path of ['/v1/scans?mode=async', '/v1/scans/estimate']) {
        const response = await post(path).send(body);
        expectProblem(response, 422, 'validation_error');
        expect(response.body.errors).toEqual(
          expect.arrayContaining([
            { path: 'jurisdictions[0]', code: 'invalid', message: expect.any(String) },
            { path: 'areas[1]', code: 'invalid', message: expect.any(String) },
          ]),
        );
      }
      const scan = await post('/v1/scans?mode=async').send(body);
      expect(scan.body.errors).toContainEqual({ path: 'translationLanguages[0]', code: 'invalid', message: expect.any(String) });
    });

    it('keeps well-formed astral characters', async () => {
      await post('/v1/scans/estimate')
        .send({ jurisdictions: ['EU 🇪🇺'], areas: ['𝔓ayments'] })
        .expect(200);
    });

    it('refuses NUL and unpaired surrogates in a key name', async () => {
      for (const name of ['ci\\u0000', '\\udc00ci']) {
        const response = await t
          .http()
          .post('/v1/keys')
          .set('Cookie', cookie)
          .set('Content-Type', 'application/json')
          .send(`{"name":"${name}"}`);
        expectProblem(response, 422, 'validation_error');
        expect(response.body.errors).toEqual([{ path: 'name', code: 'invalid', message: expect.any(String) }]);
      }
    });

    it('refuses NUL in export option values', async () => {
      const response = await post('/v1/exports').send(
        '{"snapshot_id":"' + randomUUID() + '","provider":"notebook","artifact_type":"audio","options":{"instructions":"be brief\\u0000"}}',
      );
      expectProblem(response, 422, 'validation_error');
      expect(response.body.errors).toContainEqual({ path: 'options.instructions', code: 'invalid', message: expect.any(String) });
    });
  });
});
