import { DataSource } from 'typeorm';
import { uniqueName } from './setup/test-infra';
import { holdNextKeyLookup } from './support/held-key-lookup';
import { bootTestApp, newAccount, sessionCookie, sessionToken, type TestApp } from './support/test-app';

/** A promise the test settles by hand, to hold one side of a race at a chosen point. */
describe('API keys', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await bootTestApp();
  });
  afterAll(() => t.close());

  const freshSession = async () => sessionCookie(await sessionToken());

  it('returns the raw key once at creation and only a masked prefix afterwards', async () => {
    const cookie = await freshSession();
    const created = await t.http().post('/v1/keys').set('Cookie', cookie).send({ name: 'CI pipeline' }).expect(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'CI pipeline',
      prefix: `${created.body.key.slice(0, 13)}…`,
      key: expect.stringMatching(/^rgs_live_[0-9A-Za-z]{32}$/),
      created_at: expect.any(String),
      last_used_at: null,
      revoked_at: null,
    });
    const listed = await t.http().get('/v1/keys').set('Cookie', cookie).expect(200);
    expect(listed.body.data).toHaveLength(1);
    expect(listed.body.data[0]).toEqual({ ...created.body, key: undefined });
    expect(JSON.stringify(listed.body)).not.toContain(created.body.key);
  });

  it('records last_used_at once the key is used', async () => {
    const account = await newAccount(t);
    await t.http().get('/v1/meta/areas').set('Authorization', `Bearer ${account.apiKey}`).expect(200);
    const deadline = Date.now() + 5000;
    let lastUsed: string | null = null;
    while (!lastUsed && Date.now() < deadline) {
      const listed = await t.http().get('/v1/keys').set('Cookie', account.cookie).expect(200);
      lastUsed = listed.body.data[0].last_used_at;
      if (!lastUsed) await new Promise((r) => setTimeout(r, 50));
    }
    expect(Date.parse(lastUsed!)).toBeGreaterThan(Date.now() - 60_000);
  });

  it.each([
    [{}, 'name', 'required'],
    [{ name: null }, 'name', 'required'],
    [{ name: 42 }, 'name', 'invalid'],
    [{ name: '' }, 'name', 'invalid'],
    [{ name: 'x'.repeat(201) }, 'name', 'too_long'],
    [{ name: 'ok', extra: true }, 'extra', 'unknown'],
  ])('rejects body %j with 422 validation_error at %s (%s)', async (body, path, code) => {
    const response = await t
      .http()
      .post('/v1/keys')
      .set('Cookie', await freshSession())
      .send(body)
      .expect(422);
    expect(response.body.code).toBe('validation_error');
    expect(response.body.errors).toEqual([{ path, code, message: expect.any(String) }]);
  });

  it('rejects a JSON body that is not an object', async () => {
    const response = await t
      .http()
      .post('/v1/keys')
      .set('Cookie', await freshSession())
      .send([{ name: 'x' }])
      .expect(422);
    expect(response.body.errors[0]).toMatchObject({ path: '', code: 'invalid' });
  });

  it('revokes a key: 200 with revoked_at, idempotent, and 404 for unknown, malformed or foreign ids', async () => {
    const owner = await newAccount(t);
    const stranger = await newAccount(t);
    const revoked = await t.http().post(`/v1/keys/${owner.keyId}/revoke`).set('Cookie', owner.cookie).expect(200);
    expect(revoked.body).toEqual({ id: owner.keyId, revoked_at: expect.any(String) });
    const again = await t.http().post(`/v1/keys/${owner.keyId}/revoke`).set('Cookie', owner.cookie).expect(200);
    expect(again.body.revoked_at).toBe(revoked.body.revoked_at);

    expect((await t.http().post(`/v1/keys/${stranger.keyId}/revoke`).set('Cookie', owner.cookie).expect(404)).body.code).toBe('not_found');
    expect(
      (await t.http().post('/v1/keys/00000000-0000-4000-8000-000000000000/revoke').set('Cookie', owner.cookie).expect(404)).body.code,
    ).toBe('not_found');
    expect((await t.http().post('/v1/keys/not-a-uuid/revoke').set('Cookie', owner.cookie).expect(404)).body.code).toBe('not_found');
    await t.http().get('/v1/meta/engines').set('Authorization', `Bearer ${stranger.apiKey}`).expect(200);
  });

  it('refuses a revoked key at once even when a lookup read it just before the revocation', async () => {
    const account = await newAccount(t);
    const headers = { Authorization: `Bearer ${account.apiKey}` };
    // The first lookup reads the row (not yet revoked) and is held until the revocation has been answered.
    const held = holdNextKeyLookup(t);
    try {
      const racing = t
        .http()
        .get('/v1/meta/areas')
        .set(headers)
        .then((response) => response.status);
      await held.read;
      await t.http().post(`/v1/keys/${account.keyId}/revoke`).set('Cookie', account.cookie).expect(200);
      held.release();
      // That request was authenticated before the revocation; the next ones must not reuse its answer.
      expect(await racing).toBe(200);
    } finally {
      held.release();
      held.restore();
    }
    for (let i = 0; i < 3; i++) {
      const response = await t.http().get('/v1/meta/areas').set(headers).expect(401);
      expect(response.body.code).toBe('key_revoked');
    }
  });

  it('never shows another account its keys', async () => {
    const a = await newAccount(t);
    const b = await newAccount(t);
    const listed = await t.http().get('/v1/keys').set('Cookie', b.cookie).expect(200);
    expect(listed.body.data.map((key: { id: string }) => key.id)).toEqual([b.keyId]);
    expect(listed.body.data.map((key: { id: string }) => key.id)).not.toContain(a.keyId);
  });

  it('allows at most 10 active keys, race-free: 20 concurrent creates give 10 keys and 10 key_limit_exceeded', async () => {
    // Twenty users of one account, so the per-user key-management rate limit stays out of the way.
    const accountId = uniqueName('acct');
    const cookies = await Promise.all(Array.from({ length: 20 }, async () => sessionCookie(await sessionToken({ accountId }))));
    const responses = await Promise.all(
      cookies.map((cookie, i) =>
        t
          .http()
          .post('/v1/keys')
          .set('Cookie', cookie)
          .send({ name: `k${i}` }),
      ),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(10);
    expect(statuses.filter((s) => s === 422)).toHaveLength(10);
    for (const r of responses.filter((r) => r.status === 422)) expect(r.body.code).toBe('key_limit_exceeded');
    const cookie = cookies[0];
    const listed = await t.http().get('/v1/keys').set('Cookie', cookie).expect(200);
    expect(listed.body.data.filter((key: { revoked_at: string | null }) => key.revoked_at === null)).toHaveLength(10);

    // Revoking one frees a slot.
    await t.http().post(`/v1/keys/${listed.body.data[0].id}/revoke`).set('Cookie', cookie).expect(200);
    await t.http().post('/v1/keys').set('Cookie', cookies[1]).send({ name: 'replacement' }).expect(201);
    const tooMany = await t.http().post('/v1/keys').set('Cookie', cookies[2]).send({ name: 'one too many' }).expect(422);
    expect(tooMany.body.code).toBe('key_limit_exceeded');
  });

  it('stores only the SHA-256 of the key', async () => {
    const account = await newAccount(t);
    const dataSource = t.app.get(DataSource);
    const [row] = await dataSource.query('SELECT * FROM api_keys WHERE id = $1', [account.keyId]);
    expect(JSON.stringify(row)).not.toContain(account.apiKey);
    const { createHash } = await import('node:crypto');
    expect(row.key_hash).toBe(createHash('sha256').update(account.apiKey).digest('hex'));
  });
});
