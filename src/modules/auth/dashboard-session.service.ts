import { Inject, Injectable } from '@nestjs/common';
import { createRemoteJWKSet, errors as joseErrors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { authenticationInvalid } from '../../common/errors/api-error';
import type { SessionIdentity } from '../accounts/accounts.service';
import { resolveDashboardSecret } from './dashboard-secret';

/** A verified session; `operatorClaim` is its `operator` claim when that is exactly `true`. */
export interface VerifiedSession extends SessionIdentity {
  operatorClaim: boolean;
}

/** Verifies dashboard session JWTs from the external identity provider (../shared/spec/decisions.md section 3). */
@Injectable()
export class DashboardSessionService {
  private readonly jwks?: JWTVerifyGetKey;
  private readonly secret?: Uint8Array;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    if (config.dashboard.jwksUrl) this.jwks = createRemoteJWKSet(new URL(config.dashboard.jwksUrl));
    const secret = resolveDashboardSecret(config);
    if (secret) this.secret = new TextEncoder().encode(secret);
  }

  async verify(token: string): Promise<VerifiedSession> {
    let payload: JWTPayload;
    try {
      payload = await this.verifySignature(token);
    } catch (error) {
      if (error instanceof joseErrors.JWTExpired) throw authenticationInvalid('The dashboard session has expired');
      throw authenticationInvalid('The dashboard session is not valid');
    }
    const accountId = payload.account_id;
    if (typeof payload.sub !== 'string' || !payload.sub || typeof accountId !== 'string' || !accountId || typeof payload.exp !== 'number') {
      throw authenticationInvalid('The dashboard session lacks a required claim (sub, account_id, exp)');
    }
    if (payload.sub.length > 200 || accountId.length > 200) throw authenticationInvalid('The dashboard session has an oversized claim');
    return {
      accountExternalId: accountId,
      subject: payload.sub,
      email: typeof payload.email === 'string' ? payload.email.slice(0, 320) : undefined,
      name: typeof payload.name === 'string' ? payload.name.slice(0, 200) : undefined,
      operatorClaim: payload.operator === true,
    };
  }

  private async verifySignature(token: string): Promise<JWTPayload> {
    // Unset (possible with the HS256 secret only), jose skips the check; set, a session lacking the claim fails.
    const { issuer, audience } = this.config.dashboard;
    if (this.jwks) {
      return (await jwtVerify(token, this.jwks, { algorithms: ['RS256', 'ES256'], issuer, audience, requiredClaims: ['exp'] })).payload;
    }
    if (this.secret) {
      return (await jwtVerify(token, this.secret, { algorithms: ['HS256'], issuer, audience, requiredClaims: ['exp'] })).payload;
    }
    throw new Error('dashboard sessions are not configured');
  }
}
