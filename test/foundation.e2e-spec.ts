import { bootTestApp, newAccount, type TestApp } from './support/test-app';

const REQUEST_ID = /^req_[0-9A-Za-z]{24}$/;

function expectProblem(
  response: { status: number; headers: Record<string, string>; body: Record<string, unknown> },
  status: number,
  code: string,
) {
  expect(response.status).toBe(status);
  expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(response.headers['x-request-id']).toMatch(REQUEST_ID);
  expect(response.body).toEqual({
    type: `http://api.test/problems/${code.replace(/_/g, '-')}`,
    title: expect.any(String),
    status,
    detail: expect.any(String),
    instance: expect.any(String),
    code,
    request_id: response.headers['x-request-id'],
    errors: expect.any(Array),
  });
}

describe('request pipeline', () => {
  let t: TestApp;
  let apiKey: string;

  beforeAll(async () => {
    t = await bootTestApp();
    ({ apiKey } = await newAccount(t));
  });
  afterAll(() => t.close());

  it('puts a fresh server-generated X-Request-Id on successes and errors alike', async () => {
    const ok = await t.http().get('/health/live').set('X-Request-Id', 'req_clientchosen').expect(200);
    expect(ok.headers['x-request-id']).toMatch(REQUEST_ID);
    expect(ok.headers['x-request-id']).not.toBe('req_clientchosen');
    const again = await t.http().get('/health/live');
    expect(again.headers['x-request-id']).not.toBe(ok.headers['x-request-id']);
    const docs = await t.http().get('/openapi.json').expect(200);
    expect(docs.headers['x-request-id']).toMatch(REQUEST_ID);
  });

  it('answers unknown routes with a 404 not_found problem document', async () => {
    const response = await t.http().get('/v1/does-not-exist').set('Authorization', `Bearer ${apiKey}`);
    expectProblem(response, 404, 'not_found');
    expect(response.body.instance).toBe('/v1/does-not-exist');
    expect(response.body.errors).toEqual([]);
    expectProblem(await t.http().delete('/nothing/here?x=1'), 404, 'not_found');
  });

  it('rejects unparseable JSON with a plain 400 and no request id', async () => {
    const response = await t.http().post('/v1/keys').set('Content-Type', 'application/json').send('{"name": ');
    expect(response.status).toBe(400);
    expect(response.headers['content-type']).toMatch(/^text\/plain/);
    expect(response.headers['x-request-id']).toBeUndefined();
    expect(response.text).not.toMatch(/SyntaxError|at .*\.js/);
  });

  it('rejects a body over 2 MB with a plain 413 and no request id', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024 + 10) });
    const response = await t.http().post('/v1/keys').set('Content-Type', 'application/json').send(big);
    expect(response.status).toBe(413);
    expect(response.headers['x-request-id']).toBeUndefined();
    expect(response.headers['content-type']).not.toMatch(/problem/);
  });

  it('accepts a body just under 2 MB into the API layer', async () => {
    const body = JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024 - 100) });
    const response = await t.http().post('/v1/keys').set('Content-Type', 'application/json').send(body);
    expectProblem(response, 401, 'authentication_required');
  });

  it('rejects a body sent with a non-JSON content type as invalid_request', async () => {
    const response = await t.http().post('/v1/keys').set('Content-Type', 'text/plain').send('name=x');
    expectProblem(response, 400, 'invalid_request');
    const form = await t.http().post('/v1/keys').type('form').send({ name: 'x' });
    expectProblem(form, 400, 'invalid_request');
  });

  it('serves liveness and readiness outside /v1 without authentication', async () => {
    await t.http().get('/health/live').expect(200, { status: 'ok' });
    const ready = await t.http().get('/health/ready').expect(200);
    expect(ready.body).toEqual({ status: 'ok', checks: { postgres: 'up', redis: 'up' } });
  });

  it('serves a human-readable page behind every problem type', async () => {
    const page = await t.http().get('/problems/rate-limit-exceeded').expect(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.text).toContain('rate_limit_exceeded');
    expectProblem(await t.http().get('/problems/no-such-problem'), 404, 'not_found');
  });

  it('serves the OpenAPI 3.1 document as JSON and YAML and Swagger UI at /docs', async () => {
    const json = await t.http().get('/openapi.json').expect(200);
    expect(json.body.openapi).toBe('3.1.0');
    expect(json.body.paths['/v1/keys']).toBeDefined();
    const yaml = await t.http().get('/openapi.yaml').expect(200);
    expect(yaml.text).toContain('openapi: 3.1.0');
    const ui = await t.http().get('/docs').redirects(1).expect(200);
    expect(ui.text).toContain('swagger-ui');
  });
});
