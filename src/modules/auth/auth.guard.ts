import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { AccountsService } from '../accounts/accounts.service';
import { KeysService } from '../keys/keys.service';
import { authenticationInvalid, authenticationRequired, permissionDenied } from '../../common/errors/api-error';
import { AUTH_MODE, type AuthMode } from '../../common/auth/auth.decorator';
import { DashboardSessionService } from './dashboard-session.service';
import { checkSessionOrigin, sessionCookieOf } from './session-request';
import type { AuthenticatedRequest, Principal } from '../../common/auth/principal';

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
    const sessionToken = sessionCookieOf(req);

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
    checkSessionOrigin(req, this.config.dashboard.origins);
    const identity = await this.sessions.verify(token);
    const { accountId, userId } = await this.accounts.ensureSessionUser(identity);
    return { kind: 'dashboard', accountId, userId };
  }
}
