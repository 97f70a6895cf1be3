import { bootTestApp, finishedExport, newAccount, sessionCookie, sessionToken, type TestApp } from './support/test-app';

type Json = Record<string, any>;

/**
 * What a Swagger UI user sends with "Try it out" and no edits: each request-body example as it is, parameters
 * filled with their example (or default), nothing else. Read from the served /openapi.json and sent to a fresh
 * account, it must succeed.
 */
describe('OpenAPI examples, sent as they are', () => {
  let t: TestApp;
  let served: Json;

  beforeAll(async () => {
    t = await bootTestApp();
    served = (await t.http().get('/openapi.json').expect(200)).body;
  });
  afterAll(() => t.close());

  const operation = (method: string, path: string) => served.paths[path][method] as Json;
  const bodyExamples = (method: string, path: string): Array<[string, Json]> =>
    Object.entries(operation(method, path).requestBody.content['application/json'].examples ?? {}).map(([name, example]) => [
      name,
      (example as Json).value,
    ]);
  /** The body Swagger UI builds from the schema when an operation has no request-body example. */
  const schemaSample = (method: string, path: string): Json => {
    const ref: string = operation(method, path).requestBody.content['application/json'].schema.$ref;
    const properties = served.components.schemas[ref.split('/').pop()!].properties as Json;
    return Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, property.example]));
  };
  /** The headers and query string Swagger UI pre-fills: a parameter's example, else its default. */
  const prefilled = (method: string, path: string, where: 'query' | 'header') =>
    Object.fromEntries(
      (operation(method, path).parameters ?? [])
        .filter((parameter: Json) => parameter.in === where)
        .map((parameter: Json) => [parameter.name, parameter.example ?? parameter.schema?.example ?? parameter.schema?.default])
        .filter(([, value]: [string, unknown]) => value !== undefined),
    );
  const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

  it('documents request examples for every operation that takes a body, or property examples for the whole body', () => {
    const withBody = Object.entries(served.paths as Json).flatMap(([path, item]) =>
      Object.entries(item as Json)
        .filter(([, op]) => (op as Json).requestBody)
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    expect(withBody.sort()).toEqual([
      'PATCH /v1/webhooks/endpoints/{id}',
      'POST /v1/exports',
      'POST /v1/keys',
      'POST /v1/scans',
      'POST /v1/scans/estimate',
      'POST /v1/webhooks/endpoints',
    ]);
    for (const [method, path] of [
      ['post', '/v1/scans'],
      ['post', '/v1/scans/estimate'],
      ['post', '/v1/keys'],
      ['post', '/v1/webhooks/endpoints'],
      ['patch', '/v1/webhooks/endpoints/{id}'],
    ]) {
      expect(bodyExamples(method, path).length).toBeGreaterThan(0);
    }
    expect(Object.values(schemaSample('post', '/v1/exports'))).not.toContain(undefined);
  });

  it('runs every POST /v1/scans example on a fresh account (200 completed, or 202 running)', async () => {
    const examples = bodyExamples('post', '/v1/scans');
    const outcomes = await Promise.all(
      examples.map(async ([name, body]) => {
        const { apiKey } = await newAccount(t);
        const query = prefilled('post', '/v1/scans', 'query');
        const response = await t
          .http()
          .post('/v1/scans')
          .query(query)
          .set(bearer(apiKey))
          .set(prefilled('post', '/v1/scans', 'header'))
          .send(body);
        return [name, response.status, response.body.status, response.body.errors];
      }),
    );
    for (const outcome of outcomes) expect(outcome).toEqual([outcome[0], 200, 'completed', undefined]);
  });

  it('lets a Swagger UI user run the same example twice: no Idempotency-Key is pre-filled, so both run', async () => {
    const { apiKey } = await newAccount(t);
    const [, body] = bodyExamples('post', '/v1/scans')[0]!;
    const headers = { ...bearer(apiKey), ...prefilled('post', '/v1/scans', 'header') };
    expect(headers).not.toHaveProperty('Idempotency-Key');
    const first = await t.http().post('/v1/scans').set(headers).send(body).expect(200);
    const second = await t.http().post('/v1/scans').set(headers).send(body).expect(200);
    expect(second.headers['idempotency-replayed']).toBeUndefined();
    expect(second.body.scan_id).not.toBe(first.body.scan_id);
  });

  it('estimates every POST /v1/scans/estimate example', async () => {
    for (const [name, body] of bodyExamples('post', '/v1/scans/estimate')) {
      const { apiKey } = await newAccount(t);
      const response = await t.http().post('/v1/scans/estimate').set(bearer(apiKey)).send(body);
      expect([name, response.status]).toEqual([name, 200]);
      expect(response.body.engine).toBe(body.engine ?? 'v4');
    }
  });

  it('creates a key from every POST /v1/keys example with a dashboard session', async () => {
    for (const [name, body] of bodyExamples('post', '/v1/keys')) {
      const cookie = sessionCookie(await sessionToken());
      const response = await t.http().post('/v1/keys').set('Cookie', cookie).send(body);
      expect([name, response.status, response.body.name]).toEqual([name, 201, body.name]);
    }
  });

  it('registers a webhook endpoint from every POST /v1/webhooks/endpoints example, and applies every PATCH example to it', async () => {
    for (const [name, body] of bodyExamples('post', '/v1/webhooks/endpoints')) {
      const cookie = sessionCookie(await sessionToken());
      const created = await t.http().post('/v1/webhooks/endpoints').set('Cookie', cookie).send(body);
      expect([name, created.status, created.body.url]).toEqual([name, 201, body.url]);
      for (const [patchName, patch] of bodyExamples('patch', '/v1/webhooks/endpoints/{id}')) {
        const patched = await t.http().patch(`/v1/webhooks/endpoints/${created.body.id}`).set('Cookie', cookie).send(patch);
        expect([patchName, patched.status]).toEqual([patchName, 200]);
      }
    }
  });

  it('exports with the POST /v1/exports sample once snapshot_id is a real one; unchanged, it names snapshot_id (422, not a 404)', async () => {
    const { apiKey } = await newAccount(t);
    const [, scanBody] = bodyExamples('post', '/v1/scans')[0]!;
    const scan = await t.http().post('/v1/scans').set(bearer(apiKey)).send(scanBody).expect(200);
    const sample = schemaSample('post', '/v1/exports');

    const unchanged = await t.http().post('/v1/exports').set(bearer(apiKey)).send(sample).expect(422);
    expect(unchanged.body.errors).toEqual([expect.objectContaining({ path: 'snapshot_id' })]);

    const created = await t
      .http()
      .post('/v1/exports')
      .set(bearer(apiKey))
      .send({ ...sample, snapshot_id: scan.body.snapshot_id })
      .expect(202);
    expect((await finishedExport(t, created.body.export_job_id, `Bearer ${apiKey}`)).status).toBe('completed');
  });

  it('lists the new snapshot with the parameters Swagger UI pre-fills on GET /v1/snapshots and GET /v1/exports', async () => {
    const { apiKey } = await newAccount(t);
    const [, scanBody] = bodyExamples('post', '/v1/scans')[1]!;
    const scan = await t.http().post('/v1/scans').set(bearer(apiKey)).send(scanBody).expect(200);
    const snapshots = await t
      .http()
      .get('/v1/snapshots')
      .query(prefilled('get', '/v1/snapshots', 'query'))
      .set(bearer(apiKey))
      .expect(200);
    expect(snapshots.body.data.map((snapshot: Json) => snapshot.id)).toEqual([scan.body.snapshot_id]);
    await t
      .http()
      .get('/v1/exports')
      .query(prefilled('get', '/v1/exports', 'query'))
      .set(bearer(apiKey))
      .expect(200);
    await t
      .http()
      .get('/v1/usage')
      .query(prefilled('get', '/v1/usage', 'query'))
      .set(bearer(apiKey))
      .expect(200);
    const narrative = prefilled('get', '/v1/snapshots/{id}/executive-narrative', 'query');
    await t.http().get(`/v1/snapshots/${scan.body.snapshot_id}/executive-narrative`).query(narrative).set(bearer(apiKey)).expect(200);
  });
});
