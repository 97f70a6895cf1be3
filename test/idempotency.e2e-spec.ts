import { Body, Controller, HttpCode, Module, Post, Res } from '@nestjs/common';
import type { Response } from 'express';
import { DataSource } from 'typeorm';
import { AppModule } from '../src/app.module';
import { Auth } from '../src/common/auth/auth.decorator';
import { ApiError } from '../src/common/errors/api-error';
import { IdempotencyPurger } from '../src/common/idempotency/idempotency.module';
import { Idempotent } from '../src/common/idempotency/idempotent.decorator';
import { bootTestApp, newAccount, type TestApp } from './support/test-app';

// The mechanism under test, on routes whose effects the test can count; the real scan and export
// routes carry the same @Idempotent() and are covered in their own suites.
let executions = 0;
let release: (() => void) | undefined;

@Auth('bearer')
@Controller('v1/test-idempotency')
class IdempotencyProbeController {
  @Post()
  @HttpCode(202)
  @Idempotent()
  async create(@Body() body: Record<string, unknown>, @Res({ passthrough: true }) res: Response) {
    executions++;
    if (body.wait) await new Promise<void>((resolve) => (release = resolve));
    if (body.fail) throw new ApiError('conflict', 'asked to fail');
    res.setHeader('Location', `/v1/things/${executions}`);
    return { execution: executions, echo: body };
  }

  @Post('plain')
  create2(@Body() body: Record<string, unknown>) {
    executions++;
    return { execution: executions, echo: body };
  }
}

@Module({ imports: [AppModule], controllers: [IdempotencyProbeController] })
class ProbeRootModule {}

describe('idempotency', () => {
  let t: TestApp;
  let auth: string;

  beforeAll(async () => {
    t = await bootTestApp(ProbeRootModule);
    auth = `Bearer ${(await newAccount(t)).apiKey}`;
  });
  afterAll(() => t.close());
  beforeEach(() => {
    executions = 0;
  });

  const post = (key: string | undefined, body: object, path = '/v1/test-idempotency') => {
    const req = t.http().post(path).set('Authorization', auth);
    if (key !== undefined) req.set('Idempotency-Key', key);
    return req.send(body);
  };

  it('runs normally without the header', async () => {
    await post(undefined, { a: 1 }).expect(202);
    await post(undefined, { a: 1 }).expect(202);
    expect(executions).toBe(2);
  });

  it('replays the original response for the same key and body, whatever the top-level key order', async () => {
    const first = await post('k-replay', { a: 1, b: 2 }).expect(202);
    expect(first.headers['idempotency-replayed']).toBeUndefined();
    const second = await t
      .http()
      .post('/v1/test-idempotency')
      .set('Authorization', auth)
      .set('Idempotency-Key', 'k-replay')
      .set('Content-Type', 'application/json')
      .send('{"b":2,"a":1}')
      .expect(202);
    expect(second.headers['idempotency-replayed']).toBe('true');
    expect(second.body).toEqual(first.body);
    expect(second.headers.location).toBe(first.headers.location);
    expect(second.headers['x-request-id']).toMatch(/^req_/);
    expect(second.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
    expect(executions).toBe(1);
  });

  it('answers another body under the same key with 409 idempotency_key_in_use', async () => {
    await post('k-body', { a: 1 }).expect(202);
    const conflict = await post('k-body', { a: 2 }).expect(409);
    expect(conflict.body.code).toBe('idempotency_key_in_use');
    expect(executions).toBe(1);
  });

  it('answers 409 idempotency_in_progress while the original still runs, then replays it', async () => {
    const original = post('k-slow', { wait: true });
    const pending = original.then((r) => r);
    while (!release) await new Promise((r) => setTimeout(r, 10));
    const during = await post('k-slow', { wait: true }).expect(409);
    expect(during.body.code).toBe('idempotency_in_progress');
    release();
    release = undefined;
    expect((await pending).status).toBe(202);
    const after = await post('k-slow', { wait: true }).expect(202);
    expect(after.headers['idempotency-replayed']).toBe('true');
    expect(executions).toBe(1);
  });

  it('does not cache failures: a retry after a non-2xx answer executes again', async () => {
    await post('k-fail', { fail: true }).expect(409);
    await post('k-fail', { fail: true }).expect(409);
    expect(executions).toBe(2);
  });

  it.each([
    ['an empty key', ''],
    ['a 256-character key', 'x'.repeat(256)],
    ['a key with non-ASCII', 'clé'],
  ])('rejects %s with 422 invalid_idempotency_key', async (_label, key) => {
    const response = await t
      .http()
      .post('/v1/test-idempotency')
      .set('Authorization', auth)
      .set('Idempotency-Key', Buffer.from(key, 'latin1').toString('latin1'))
      .send({ a: 1 });
    expect(response.status).toBe(422);
    expect(response.body.code).toBe('invalid_idempotency_key');
    expect(executions).toBe(0);
  });

  it('accepts a 255-character printable key', async () => {
    await post('~'.repeat(255), { a: 1 }).expect(202);
  });

  it('scopes keys per API key and per endpoint', async () => {
    const other = `Bearer ${(await newAccount(t)).apiKey}`;
    await post('k-scope', { a: 1 }).expect(202);
    await t.http().post('/v1/test-idempotency').set('Authorization', other).set('Idempotency-Key', 'k-scope').send({ a: 1 }).expect(202);
    expect(executions).toBe(2);
  });

  it('ignores the header on routes without idempotency', async () => {
    await post('k-plain', { a: 1 }, '/v1/test-idempotency/plain').expect(201);
    await post('k-plain', { a: 1 }, '/v1/test-idempotency/plain').expect(201);
    expect(executions).toBe(2);
  });

  it('executes exactly once for 50 concurrent identical requests', async () => {
    const responses = await Promise.all(Array.from({ length: 50 }, () => post('k-race', { n: 42 })));
    expect(executions).toBe(1);
    const statuses = responses.map((r) => r.status);
    expect(statuses.every((s) => s === 202 || s === 409)).toBe(true);
    for (const r of responses.filter((r) => r.status === 409)) expect(r.body.code).toBe('idempotency_in_progress');
    const winners = responses.filter((r) => r.status === 202);
    expect(new Set(winners.map((r) => r.body.execution))).toEqual(new Set([1]));
  });

  it('purges expired records, after which the key runs again', async () => {
    await post('k-expire', { a: 1 }).expect(202);
    await t.app
      .get(DataSource)
      .query("UPDATE idempotency_records SET expires_at = now() - interval '1 second' WHERE idempotency_key = 'k-expire'");
    expect(await t.app.get(IdempotencyPurger).purge()).toBeGreaterThanOrEqual(1);
    await post('k-expire', { a: 1 }).expect(202);
    expect(executions).toBe(2);
  });
});
