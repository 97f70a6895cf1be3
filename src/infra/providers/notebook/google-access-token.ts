/**
 * Google OAuth 2.0 access tokens for a service account, by the JWT bearer grant (RFC 7523) that Google documents for
 * server-to-server calls: an RS256 JWT signed with the key's `private_key` (header `kid` = `private_key_id`; claims
 * `iss` = `client_email`, `aud` = `token_uri`, `scope`, `iat`, `exp` = iat + 1 h) is posted form-encoded to the key's
 * `token_uri` as `grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer&assertion=<jwt>`; the answer is
 * `{access_token, expires_in, token_type: "Bearer"}`.
 *
 * Tokens are cached per key (process-wide) until a minute before they expire; `invalidate` drops one Google has
 * refused (401) so the next call mints a fresh one. Concurrent callers for the same key share one grant.
 */
import { createHash } from 'node:crypto';
import { importPKCS8, SignJWT } from 'jose';
import { errorDetail, httpError, networkError, redact, timedSignal } from '../http/provider-http';
import { ProviderFailure } from '../provider-errors';

export const GOOGLE_CLOUD_PLATFORM_SCOPE = 'https://www.googleapis.com/auth/cloud-platform';
export const GOOGLE_DEFAULT_TOKEN_URI = 'https://oauth2.googleapis.com/token';
/** A token is not used in its last minute, so a slow call does not carry it past its expiry. */
export const TOKEN_EXPIRY_MARGIN_MS = 60_000;
const ASSERTION_LIFETIME_S = 3600;
const TOKEN_TIMEOUT_MS = 30_000;

/** The fields of a Google service-account key JSON that the grant needs. */
export interface ServiceAccountKey {
  client_email: string;
  private_key: string;
  private_key_id?: string;
  token_uri: string;
}

/** Reads a service-account key given as a JSON object or as its JSON text; a ProviderFailure names what is wrong. */
export function parseServiceAccountKey(provider: string, value: unknown): ServiceAccountKey {
  let key: unknown = value;
  if (typeof value === 'string') {
    try {
      key = JSON.parse(value) as unknown;
    } catch {
      throw new ProviderFailure(`${provider}: serviceAccountKey is not valid JSON`, provider, null);
    }
  }
  const record = key && typeof key === 'object' && !Array.isArray(key) ? (key as Record<string, unknown>) : undefined;
  const text = (name: string) =>
    typeof record?.[name] === 'string' && (record[name] as string).length > 0 ? (record[name] as string) : undefined;
  const clientEmail = text('client_email');
  const privateKey = text('private_key');
  if (!clientEmail || !privateKey) {
    throw new ProviderFailure(
      `${provider}: serviceAccountKey needs client_email and private_key (a Google service-account key JSON)`,
      provider,
      null,
    );
  }
  const tokenUri = text('token_uri') ?? GOOGLE_DEFAULT_TOKEN_URI;
  try {
    const parsed = new URL(tokenUri);
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new Error('scheme');
  } catch {
    throw new ProviderFailure(`${provider}: serviceAccountKey.token_uri is not an http(s) URL`, provider, null);
  }
  return { client_email: clientEmail, private_key: privateKey, private_key_id: text('private_key_id'), token_uri: tokenUri };
}

interface CachedToken {
  token: string;
  expiresAt: number;
}

export class GoogleAccessTokens {
  private readonly cache = new Map<string, CachedToken>();
  private readonly pending = new Map<string, Promise<CachedToken>>();

  constructor(
    private readonly provider: string,
    private readonly now: () => number = Date.now,
  ) {}

  /** A valid access token for the key: the cached one while it has more than a minute left, else a new grant. */
  async token(key: ServiceAccountKey, signal?: AbortSignal): Promise<string> {
    const id = cacheKey(key);
    const cached = this.cache.get(id);
    if (cached && this.now() < cached.expiresAt - TOKEN_EXPIRY_MARGIN_MS) return cached.token;
    let grant = this.pending.get(id);
    if (!grant) {
      grant = this.mint(key, signal).finally(() => this.pending.delete(id));
      this.pending.set(id, grant);
    }
    const minted = await grant;
    this.cache.set(id, minted);
    return minted.token;
  }

  /** Forgets `token` (refused by Google) so the next `token` call mints a new one. */
  invalidate(key: ServiceAccountKey, token: string): void {
    const id = cacheKey(key);
    if (this.cache.get(id)?.token === token) this.cache.delete(id);
  }

  private async mint(key: ServiceAccountKey, signal?: AbortSignal): Promise<CachedToken> {
    const provider = this.provider;
    const issuedAt = Math.floor(this.now() / 1000);
    let signingKey: Awaited<ReturnType<typeof importPKCS8>>;
    try {
      signingKey = await importPKCS8(key.private_key, 'RS256');
    } catch {
      throw new ProviderFailure(`${provider}: serviceAccountKey.private_key is not a PKCS#8 RSA private key`, provider, null);
    }
    const assertion = await new SignJWT({ scope: GOOGLE_CLOUD_PLATFORM_SCOPE })
      .setProtectedHeader({ alg: 'RS256', typ: 'JWT', ...(key.private_key_id ? { kid: key.private_key_id } : {}) })
      .setIssuer(key.client_email)
      .setAudience(key.token_uri)
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + ASSERTION_LIFETIME_S)
      .sign(signingKey);

    const timed = timedSignal(TOKEN_TIMEOUT_MS, signal);
    let response: Response;
    let text: string;
    try {
      response = await fetch(key.token_uri, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion }).toString(),
        signal: timed.signal,
      });
      text = await response.text();
    } catch (error) {
      throw networkError(`${provider} token endpoint`, error, timed, [assertion]);
    }
    if (!response.ok) {
      // 400 invalid_grant is Google's answer to a wrong, disabled or deleted key: permanent, and named as such.
      if (response.status === 400 || response.status === 401) {
        const detail = redact(errorDetail(text), [assertion]);
        throw new ProviderFailure(
          `${provider}: Google's token endpoint refused the service-account key for ${key.client_email} (HTTP ${response.status}${detail ? `: ${detail}` : ''})`,
          provider,
          response.status,
        );
      }
      throw httpError({
        provider: `${provider} token endpoint`,
        status: response.status,
        body: text,
        headers: response.headers,
        secrets: [assertion],
      });
    }
    let body: Record<string, unknown> | undefined;
    try {
      body = JSON.parse(text) as Record<string, unknown>;
    } catch {
      body = undefined;
    }
    const token = body?.access_token;
    const expiresIn = body?.expires_in;
    if (typeof token !== 'string' || token.length === 0) {
      throw new ProviderFailure(`${provider}: Google's token endpoint answered without an access_token`, provider, response.status);
    }
    const lifetimeS = typeof expiresIn === 'number' && Number.isFinite(expiresIn) && expiresIn > 0 ? expiresIn : ASSERTION_LIFETIME_S;
    return { token, expiresAt: this.now() + lifetimeS * 1000 };
  }
}

/** One cache entry per key: a rotated key (same account, new private key) gets its own token. */
function cacheKey(key: ServiceAccountKey): string {
  return createHash('sha256').update(`${key.client_email}\n${key.token_uri}\n${key.private_key}`).digest('hex');
}
