import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiBearerAuth, ApiCookieAuth, ApiSecurity } from '@nestjs/swagger';
import { ApiProblems } from '../openapi/api-problems.decorator';

export type AuthMode = 'bearer' | 'dashboard' | 'bearer-or-dashboard' | 'public';
export const AUTH_MODE = 'auth:mode';
export const DASHBOARD_COOKIE = 'dashboard_session';

/** One decorator sets how a route authenticates and writes the matching OpenAPI security and 401/403 responses. */
export function Auth(mode: AuthMode) {
  const metadata = SetMetadata(AUTH_MODE, mode);
  switch (mode) {
    case 'public':
      return applyDecorators(metadata, ApiSecurity({}));
    case 'bearer':
      return applyDecorators(metadata, ApiBearerAuth('bearer'), ApiProblems('authentication_required', 'authentication_invalid', 'key_revoked'));
    case 'dashboard':
      return applyDecorators(metadata, ApiCookieAuth('dashboard'), ApiProblems('authentication_required', 'authentication_invalid', 'permission_denied'));
    case 'bearer-or-dashboard':
      return applyDecorators(
        metadata,
        ApiBearerAuth('bearer'),
        ApiCookieAuth('dashboard'),
        ApiProblems('authentication_required', 'authentication_invalid', 'key_revoked', 'permission_denied'),
      );
  }
}
