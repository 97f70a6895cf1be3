import { SignJWT } from 'jose';
import { removeBuild, startApiProcess } from './support/api-process';
import { uniqueName } from './setup/test-infra';
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

  it('accepts sessions with any or no iss and aud while DASHBOARD_ISSUER and DASHBOARD_AUDIENCE are unset', async () => {
    await listKeys(sessionCookie(await sessionToken())).expect(200);
    const claims = { iss: 'https://any-issuer.example.test/', aud: 'anyone' };
    await listKeys(sessionCookie(await sessionToken({ claims }))).expect(200);
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

  it('lets pages of the API itself (Swagger UI at /docs) POST with a session: same origin is not cross-site', async () => {
    const cookie = sessionCookie(await sessionToken());
    const host = 'api.example.test:8443';
    await t.http().post('/v1/keys').set('Host', host).set('Cookie', cookie).set('Origin', `http://${host}`).send({ name: 'from docs' }).expect(201);
    // The same host under another scheme or port is another origin.
    await t.http().post('/v1/keys').set('Host', host).set('Cookie', cookie).set('Origin', 'http://api.example.test:9443').send({ name: 'x' }).expect(403);
    await t.http().post('/v1/keys').set('Host', host).set('Cookie', cookie).set('Origin', `https://${host}`).send({ name: 'x' }).expect(403);
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

const ISSUER = 'https://idp.example.test/';
const AUDIENCE = 'regulatory-scan-service';

// With DASHBOARD_JWT_SECRET (HS256), the issuer and audience are checked when configured and optional otherwise.
describe.each([
  ['DASHBOARD_ISSUER', { DASHBOARD_ISSUER: ISSUER }],
  ['DASHBOARD_AUDIENCE', { DASHBOARD_AUDIENCE: AUDIENCE }],
  ['DASHBOARD_ISSUER and DASHBOARD_AUDIENCE', { DASHBOARD_ISSUER: ISSUER, DASHBOARD_AUDIENCE: AUDIENCE }],
])('HS256 dashboard sessions with %s set', (_label, env: Record<string, string>) => {
  let t: TestApp;

  beforeAll(async () => {
    Object.assign(process.env, env);
    t = await bootTestApp();
  });
  afterAll(async () => {
    await t.close();
    Object.assign(process.env, { DASHBOARD_ISSUER: '', DASHBOARD_AUDIENCE: '' });
  });

  /** A session signed with the deployment's secret; a claim given as null is left out. */
  const session = (claims: { iss?: string | null; aud?: string | null } = {}) => {
    const jwt = new SignJWT({ account_id: uniqueName('acct') })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('user-1')
      .setExpirationTime('10m');
    if (claims.iss !== null) jwt.setIssuer(claims.iss ?? ISSUER);
    if (claims.aud !== null) jwt.setAudience(claims.aud ?? AUDIENCE);
    return jwt.sign(new TextEncoder().encode(process.env.DASHBOARD_JWT_SECRET!));
  };
  const checked = { iss: 'DASHBOARD_ISSUER' in env, aud: 'DASHBOARD_AUDIENCE' in env };

  it('accepts a session carrying the expected claims', async () => {
    await t
      .http()
      .get('/v1/keys')
      .set('Cookie', sessionCookie(await session()))
      .expect(200);
  });

  it.each([
    ['without iss', { iss: null }, checked.iss],
    ['from another issuer', { iss: 'https://evil.example.test/' }, checked.iss],
    ['without aud', { aud: null }, checked.aud],
    ['for another audience', { aud: 'someone-else' }, checked.aud],
  ])('answers a session %s with 401 authentication_invalid only when that claim is configured', async (_label, claims, refused) => {
    const response = await t
      .http()
      .get('/v1/keys')
      .set('Cookie', sessionCookie(await session(claims)));
    if (refused) {
      expect(response.status).toBe(401);
      expect(response.body.code).toBe('authentication_invalid');
    } else {
      expect(response.status).toBe(200);
    }
  });
});

describe('start-up with NODE_ENV=production', () => {
  afterAll(() => removeBuild());

  /** The process's outcome: "started" (then stopped), or the reason it exited, with its stderr. */
  const start = (env: Record<string, string>) =>
    startApiProcess({ NODE_ENV: 'production', ...env }).then(
      async (started) => {
        await started.stop();
        return 'started';
      },
      (error: Error) => error.message,
    );

  it('refuses to start without DASHBOARD_JWT_SECRET or DASHBOARD_JWKS_URL, in one line naming the variable', async () => {
    expect(await start({ DASHBOARD_JWT_SECRET: '', DASHBOARD_JWKS_URL: '' })).toMatch(
      /^API process exited: Invalid configuration: DASHBOARD_JWT_SECRET: required when NODE_ENV=production[^\n]*\n$/,
    );
  }, 60_000);

  it('starts with DASHBOARD_JWT_SECRET set', async () => {
    expect(await start({})).toBe('started');
  }, 60_000);
});
