import http from 'node:http';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import { bootTestApp, type TestApp } from './support/test-app';
import { uniqueName } from './setup/test-infra';

// Dashboard sessions verified against an identity provider's JWKS (../shared/spec/decisions.md section 3), served on loopback.
describe('dashboard sessions through OIDC (JWKS)', () => {
  let t: TestApp;
  let jwks: http.Server;
  let privateKey: CryptoKey;
  const saved = { ...process.env };
  const ISSUER = 'https://idp.example.test/';
  const AUDIENCE = 'regulatory-scan-service';

  beforeAll(async () => {
    const pair = await generateKeyPair('RS256', { extractable: true });
    privateKey = pair.privateKey as CryptoKey;
    const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
    jwks = http.createServer((_req, res) =>
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ keys: [jwk] })),
    );
    await new Promise<void>((resolve) => jwks.listen(0, '127.0.0.1', resolve));
    Object.assign(process.env, {
      DASHBOARD_JWT_SECRET: '',
      DASHBOARD_JWKS_URL: `http://127.0.0.1:${(jwks.address() as { port: number }).port}/jwks.json`,
      DASHBOARD_ISSUER: ISSUER,
      DASHBOARD_AUDIENCE: AUDIENCE,
    });
    t = await bootTestApp();
  });
  afterAll(async () => {
    await t.close();
    await new Promise((resolve) => jwks.close(resolve));
    Object.assign(process.env, {
      DASHBOARD_JWT_SECRET: saved.DASHBOARD_JWT_SECRET,
      DASHBOARD_JWKS_URL: '',
      DASHBOARD_ISSUER: '',
      DASHBOARD_AUDIENCE: '',
    });
  });

  const token = (claims: { iss?: string; aud?: string; kid?: string } = {}) =>
    new SignJWT({ account_id: uniqueName('oidc') })
      .setProtectedHeader({ alg: 'RS256', kid: claims.kid ?? 'k1' })
      .setSubject('user-1')
      .setIssuer(claims.iss ?? ISSUER)
      .setAudience(claims.aud ?? AUDIENCE)
      .setExpirationTime('10m')
      .sign(privateKey);

  it('accepts a session signed by the identity provider', async () => {
    await t
      .http()
      .get('/v1/keys')
      .set('Cookie', `dashboard_session=${await token()}`)
      .expect(200, { data: [] });
  });

  it.each([
    ['another issuer', { iss: 'https://evil.example.test/' }],
    ['another audience', { aud: 'someone-else' }],
  ])('rejects a session from %s', async (_label, claims) => {
    const response = await t
      .http()
      .get('/v1/keys')
      .set('Cookie', `dashboard_session=${await token(claims)}`)
      .expect(401);
    expect(response.body.code).toBe('authentication_invalid');
  });

  it('rejects an HS256 session when only the JWKS is trusted', async () => {
    const forged = await new SignJWT({ account_id: 'a' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('u')
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setExpirationTime('10m')
      .sign(new TextEncoder().encode('test-secret-0123456789-abcdefghijklmnop'));
    expect((await t.http().get('/v1/keys').set('Cookie', `dashboard_session=${forged}`).expect(401)).body.code).toBe(
      'authentication_invalid',
    );
  });
});
