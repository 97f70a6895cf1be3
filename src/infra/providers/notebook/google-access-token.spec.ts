import { generateKeyPair, exportPKCS8 } from 'jose';
import { startFakeNotebookLm, type FakeNotebookLm } from '../../../../test/fakes/fake-notebooklm';
import { ProviderFailure } from '../provider-errors';
import { GOOGLE_DEFAULT_TOKEN_URI, GoogleAccessTokens, parseServiceAccountKey, TOKEN_EXPIRY_MARGIN_MS } from './google-access-token';

describe('Google service-account access tokens (JWT bearer grant)', () => {
  let google: FakeNotebookLm;
  let now: number;
  const clock = () => now;
  beforeEach(async () => {
    google = await startFakeNotebookLm();
    now = Date.UTC(2026, 10, 24, 9, 0, 0);
  });
  afterEach(async () => {
    await google.close();
  });

  it('signs an RS256 assertion for the key and posts it form-encoded to the key’s token_uri', async () => {
    const tokens = new GoogleAccessTokens('notebook', clock);
    const key = parseServiceAccountKey('notebook', google.serviceAccountKey);
    expect(await tokens.token(key)).toBe('ya29.fake-1');
    const [grant] = google.requests;
    expect(grant!.method).toBe('POST');
    expect(grant!.path).toBe('/token');
    expect(new URLSearchParams(grant!.rawBody).get('grant_type')).toBe('urn:ietf:params:oauth:grant-type:jwt-bearer');
    // The fake verified the signature with the key's public half; the claims it decoded:
    const claims = google.grants[0]!.claims;
    expect(claims).toMatchObject({
      iss: google.serviceAccountKey.client_email,
      aud: google.tokenUri,
      scope: 'https://www.googleapis.com/auth/cloud-platform',
      iat: now / 1000,
      exp: now / 1000 + 3600,
    });
  });

  it('reuses the token until a minute before it expires, then mints another', async () => {
    const tokens = new GoogleAccessTokens('notebook', clock);
    const key = parseServiceAccountKey('notebook', JSON.stringify(google.serviceAccountKey));
    const first = await tokens.token(key);
    now += 3599_000 - TOKEN_EXPIRY_MARGIN_MS - 1_000;
    expect(await tokens.token(key)).toBe(first);
    expect(google.grants).toHaveLength(1);
    now += 2_000;
    const second = await tokens.token(key);
    expect(second).not.toBe(first);
    expect(google.grants).toHaveLength(2);
  });

  it('shares one grant between concurrent callers, and mints anew after invalidate', async () => {
    const tokens = new GoogleAccessTokens('notebook', clock);
    const key = parseServiceAccountKey('notebook', google.serviceAccountKey);
    const [a, b] = await Promise.all([tokens.token(key), tokens.token(key)]);
    expect(a).toBe(b);
    expect(google.grants).toHaveLength(1);
    tokens.invalidate(key, a);
    expect(await tokens.token(key)).not.toBe(a);
    expect(google.grants).toHaveLength(2);
  });

  it('names a key Google refuses (invalid_grant) as a permanent failure', async () => {
    const { privateKey } = await generateKeyPair('RS256', { extractable: true });
    const stranger = { ...google.serviceAccountKey, private_key: await exportPKCS8(privateKey) };
    const tokens = new GoogleAccessTokens('notebook', clock);
    const refused = tokens.token(parseServiceAccountKey('notebook', stranger));
    await expect(refused).rejects.toBeInstanceOf(ProviderFailure);
    await expect(refused).rejects.toThrow(/refused the service-account key for notebook-exports@.*invalid_grant|Invalid JWT Signature/);
  });

  it('validates the key JSON', () => {
    expect(() => parseServiceAccountKey('notebook', '{not json')).toThrow(/not valid JSON/);
    expect(() => parseServiceAccountKey('notebook', { client_email: 'a@b' })).toThrow(/client_email and private_key/);
    expect(() => parseServiceAccountKey('notebook', { ...google.serviceAccountKey, token_uri: 'ftp://x' })).toThrow(/token_uri/);
    const { token_uri: _omitted, ...withoutUri } = google.serviceAccountKey;
    expect(parseServiceAccountKey('notebook', withoutUri).token_uri).toBe(GOOGLE_DEFAULT_TOKEN_URI);
  });

  it('refuses a private key that is not PKCS#8 before calling Google', async () => {
    const tokens = new GoogleAccessTokens('notebook', clock);
    const broken = parseServiceAccountKey('notebook', { ...google.serviceAccountKey, private_key: 'not a key' });
    await expect(tokens.token(broken)).rejects.toThrow(/not a PKCS#8 RSA private key/);
    expect(google.requests).toHaveLength(0);
  });
});
