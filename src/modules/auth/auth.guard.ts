import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { parse as parseCookies } from 'cookie';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { AccountsService } from '../accounts/accounts.service';
import { KeysService } from '../keys/keys.service';
import { authenticationInvalid, authenticationRequired, permissionDenied } from '../../common/errors/api-error';
import { AUTH_MODE, DASHBOARD_COOKIE, type AuthMode } from '../../common/auth/auth.decorator';
import { DashboardSessionService } from './dashboard-session.service';
import type { AuthenticatedRequest, Principal } from '../../common/auth/principal';

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Scheme, a 253-character host and a port fit well within this. */
const MAX_ORIGIN_LENGTH = 512;

/** Linear, where /\/+$/ retries from every slash of a run that is not at the end (quadratic). */
function withoutTrailingSlashes(value: string): string {
  let end = value.length;
  while (end > 0 && value.charCodeAt(end - 1) === 0x2f) end--;
  return value.slice(0, end);
}

/** Global guard: every route authenticates by bearer key unless marked otherwise with @Auth. */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly keys: KeysService,
    private readonly sessions: DashboardSessionService,
    private readonly accounts: AccountsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const mode = this.reflector.getAllAndOverride<AuthMode>(AUTH_MODE, [context.getHandler(), context.getClass()]) ?? 'bearer';
    if (mode === 'public') return true;
    const req = context.switchToHttp().getRequest<AuthenticatedRequest>();
    req.principal = await this.authenticate(req, mode);
    return true;
  }

  private async authenticate(req: AuthenticatedRequest, mode: Exclude<AuthMode, 'public'>): Promise<Principal> {
    const authorization = req.headers.authorization;
    const sessionToken = this.sessionCookie(req);

    if (mode === 'bearer' || (mode === 'bearer-or-dashboard' && authorization !== undefined)) {
      if (authorization === undefined) throw authenticationRequired('Send Authorization: Bearer <API_KEY>');
      return this.bearer(authorization);
    }
    if (sessionToken) return this.dashboard(req, sessionToken);
    if (mode === 'dashboard' && authorization !== undefined) {
      // Keys cannot manage keys: a valid key is authenticated but not allowed here.
      await this.bearer(authorization);
      throw permissionDenied('Key management needs a dashboard session; an API key cannot create, list or revoke keys');
    }
    throw authenticationRequired(
      mode === 'dashboard'
        ? 'Key management needs a dashboard session (cookie dashboard_session)'
        : 'Send Authorization: Bearer <API_KEY> or a dashboard session',
    );
  }

  private async bearer(authorization: string): Promise<Principal> {
    const match = /^Bearer +(\S+) *$/i.exec(authorization);
    if (!match) throw authenticationInvalid('The Authorization header must be "Bearer <API_KEY>"');
    const key = await this.keys.authenticate(match[1]);
    return { kind: 'api_key', accountId: key.accountId, apiKeyId: key.apiKeyId };
  }

  private async dashboard(req: AuthenticatedRequest, token: string): Promise<Principal> {
    this.checkOrigin(req);
    const identity = await this.sessions.verify(token);
    const { accountId, userId } = await this.accounts.ensureSessionUser(identity);
    return { kind: 'dashboard', accountId, userId };
  }

  /** CSRF guard for cookie sessions: a browser's cross-site POST carries an Origin we do not trust. */
  private checkOrigin(req: AuthenticatedRequest): void {
    const origin = req.headers.origin;
    if (!UNSAFE_METHODS.has(req.method) || origin === undefined) return;
    // A serialised origin (scheme, host, port) is far shorter; a longer header is refused unread.
    if (origin.length > MAX_ORIGIN_LENGTH) throw permissionDenied('The Origin header is too long to be an origin');
    const trusted = withoutTrailingSlashes(origin);
    // A page the API serves itself (Swagger UI at /docs) is same-origin, not cross-site: a browser sets Host to the
    // server it talks to, and another site cannot make it send our origin.
    if (trusted === `${req.protocol}://${req.headers.host ?? ''}`) return;
    if (!this.config.dashboard.origins.includes(trusted)) {
      throw permissionDenied(`Origin ${origin} is not allowed to use dashboard sessions`);
    }
  }

  private sessionCookie(req: AuthenticatedRequest): string | undefined {
    const header = req.headers.cookie;
    if (!header) return undefined;
    try {
      return parseCookies(header)[DASHBOARD_COOKIE] || undefined;
    } catch {
      return undefined;
    }
  }
}
