import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiBearerAuth, ApiCookieAuth, ApiSecurity } from '@nestjs/swagger';
import { ApiProblems, BACKING_SERVICE_DOWN, type ProblemExample } from '../openapi/api-problems.decorator';

export type AuthMode = 'bearer' | 'dashboard' | 'bearer-or-dashboard' | 'public';
export const AUTH_MODE = 'auth:mode';
export const DASHBOARD_COOKIE = 'dashboard_session';

const BEARER_PROBLEMS: ProblemExample[] = [
  {
    code: 'authentication_required',
    summary: 'No `Authorization: Bearer <API_KEY>` header.',
    detail: 'Send Authorization: Bearer <API_KEY>',
  },
  {
    code: 'authentication_invalid',
    summary: 'The bearer token is not a well-formed API key, or no key has it.',
    detail: 'The bearer token is not a well-formed API key',
  },
  {
    code: 'key_revoked',
    summary: 'The API key was revoked; create a new one with a dashboard session.',
    detail: 'This API key was revoked; create a new one in the dashboard',
  },
];
const DASHBOARD_PROBLEMS: ProblemExample[] = [
  {
    code: 'authentication_required',
    summary: 'No `dashboard_session` cookie.',
    detail: 'Key management needs a dashboard session (cookie dashboard_session)',
  },
  {
    code: 'authentication_invalid',
    summary: 'The dashboard session is malformed, expired or not signed by the identity provider.',
    detail: 'The dashboard session is invalid or expired',
  },
  {
    code: 'permission_denied',
    summary:
      'An API key was sent instead of a dashboard session (keys cannot manage keys), or a POST came from an `Origin` outside DASHBOARD_ORIGINS.',
    detail: 'Key management needs a dashboard session; an API key cannot create, list or revoke keys',
  },
];
const EITHER_PROBLEMS: ProblemExample[] = [
  {
    code: 'authentication_required',
    summary: 'Neither `Authorization: Bearer <API_KEY>` nor a `dashboard_session` cookie.',
    detail: 'Send Authorization: Bearer <API_KEY> or a dashboard session',
  },
  {
    code: 'authentication_invalid',
    summary: 'The API key or the dashboard session is malformed, unknown or expired.',
    detail: 'The API key is not recognised',
  },
  BEARER_PROBLEMS[2]!,
];

/** One decorator sets how a route authenticates and writes the matching OpenAPI security and 401/403 responses. */
export function Auth(mode: AuthMode) {
  const metadata = SetMetadata(AUTH_MODE, mode);
  switch (mode) {
    case 'public':
      return applyDecorators(metadata, ApiSecurity({}));
    case 'bearer':
      return applyDecorators(metadata, ApiBearerAuth('bearer'), ApiProblems(...BEARER_PROBLEMS, BACKING_SERVICE_DOWN));
    case 'dashboard':
      return applyDecorators(metadata, ApiCookieAuth('dashboard'), ApiProblems(...DASHBOARD_PROBLEMS, BACKING_SERVICE_DOWN));
    case 'bearer-or-dashboard':
      return applyDecorators(
        metadata,
        ApiBearerAuth('bearer'),
        ApiCookieAuth('dashboard'),
        ApiProblems(...EITHER_PROBLEMS, BACKING_SERVICE_DOWN),
      );
  }
}
