import { SignJWT } from 'jose';
import { bootTestApp, newAccount, sessionCookie, sessionToken, type TestApp } from './support/test-app';

describe('bearer authentication', () => {
  let t: TestApp;
  let account: Awaited<ReturnType<typeof newAccount>>;

  beforeAll(async () => {
    t = await bootTestApp();
    account = await newAccount(t);
  });
  afterAll(() => t.close());

  const engines = () => t.http().get('/v1/meta/engines');

  it('accepts a valid key', async () => {
    const response = await engines().set('Authorization', `Bearer ${account.apiKey}`).expect(200);
    expect(response.headers['x-request-id']).toMatch(/^req_/);
  });

  it('answers a missing token with authentication_required', async () => {
    const response = await engines().expect(401);
    expect(response.body.code).toBe('authentication_required');
    expect(response.headers['www-authenticate']).toBe('Bearer');
  });

  it.each([
    ['a non-bearer scheme', (key: string) => `Basic ${key}`],
    ['a bearer with no token', () => 'Bearer '],
    ['a token with the wrong prefix', (key: string) => `Bearer abc${key.slice(3)}`],
    ['a token one character short', (key: string) => `Bearer ${key.slice(0, -1)}`],
    ['a token with a non-base62 character', (key: string) => `Bearer ${key.slice(0, -1)}!`],
    ['an unknown but well-formed key', (key: string) => `Bearer ${key.slice(0, -4)}ZZZZ`],
  ])('answers %s with authentication_invalid', async (_label, header) => {
    const response = await engines().set('Authorization', header(account.apiKey)).expect(401);
    expect(response.body.code).toBe('authentication_invalid');
  });

  it('rejects a revoked key with key_revoked at once', async () => {
    const other = await newAccount(t);
    await engines().set('Authorization', `Bearer ${other.apiKey}`).expect(200);
    await t.http().post(`/v1/keys/${other.keyId}/revoke`).set('Cookie', other.cookie).expect(200);
    const response = await engines().set('Authorization', `Bearer ${other.apiKey}`).expect(401);
    expect(response.body.code).toBe('key_revoked');
  });

  it('does not accept a dashboard session on bearer-only routes', async () => {
    const response = await engines().set('Cookie', account.cookie).expect(401);
    expect(response.body.code).toBe('authentication_required');
  });
});

describe('dashboard sessions', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await bootTestApp();
  });
  afterAll(() => t.close());

  const listKeys = (cookie: string) => t.http().get('/v1/keys').set('Cookie', cookie);

  it('provisions the account and user on first sight of a verified session', async () => {
    const cookie = sessionCookie(await sessionToken({ claims: { email: 'ada@example.com', name: 'Ada' } }));
    const response = await listKeys(cookie).expect(200);
    expect(response.body).toEqual({ data: [] });
  });

  it.each([
    ['a token signed with another secret', () => sessionToken({ secret: 'another-secret-that-is-long-enough-000000' })],
    ['an expired token', () => sessionToken({ expiresIn: Math.floor(Date.now() / 1000) - 60 })],
    ['a token without account_id', () => sessionToken({ claims: { account_id: undefined } })],
    ['garbage', async () => 'not-a-jwt'],
    [
      'an unsigned (alg none) token',
      async () => {
        const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
        const payload = Buffer.from(JSON.stringify({ sub: 'u', account_id: 'a', exp: Math.floor(Date.now() / 1000) + 600 })).toString(
          'base64url',
        );
        return `${header}.${payload}.`;
      },
    ],
    [
      'a token without exp',
      () =>
        new SignJWT({ account_id: 'acct-no-exp' })
          .setProtectedHeader({ alg: 'HS256' })
          .setSubject('u')
          .sign(new TextEncoder().encode(process.env.DASHBOARD_JWT_SECRET!)),
    ],
    ['an HS512 token', () => sessionToken({ algorithm: 'HS512' })],
  ])('rejects %s with authentication_invalid', async (_label, makeToken) => {
    const response = await listKeys(sessionCookie(await makeToken())).expect(401);
    expect(response.body.code).toBe('authentication_invalid');
  });

  it('lets non-browser tools (no Origin) and trusted origins POST, and refuses other origins (CSRF)', async () => {
    const cookie = sessionCookie(await sessionToken());
    await t.http().post('/v1/keys').set('Cookie', cookie).send({ name: 'no origin' }).expect(201);
    await t
      .http()
      .post('/v1/keys')
      .set('Cookie', cookie)
      .set('Origin', 'https://dashboard.example.com')
      .send({ name: 'trusted' })
      .expect(201);
    const response = await t
      .http()
      .post('/v1/keys')
      .set('Cookie', cookie)
      .set('Origin', 'https://evil.example.net')
      .send({ name: 'csrf' })
      .expect(403);
    expect(response.body.code).toBe('permission_denied');
    const keys = await listKeys(cookie).set('Origin', 'https://evil.example.net').expect(200);
    expect(keys.body.data.map((key: { name: string }) => key.name).sort()).toEqual(['no origin', 'trusted']);
  });

  it('answers key management with an API key and no session with permission_denied, and with neither with authentication_required', async () => {
    const account = await newAccount(t);
    const withKey = await t.http().get('/v1/keys').set('Authorization', `Bearer ${account.apiKey}`).expect(403);
    expect(withKey.body.code).toBe('permission_denied');
    const withNothing = await t.http().get('/v1/keys').expect(401);
    expect(withNothing.body.code).toBe('authentication_required');
    const withBadKey = await t.http().get('/v1/keys').set('Authorization', 'Bearer nope').expect(401);
    expect(withBadKey.body.code).toBe('authentication_invalid');
  });
});
