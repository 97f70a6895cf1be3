import { parse as parseCookies } from 'cookie';
import type { Request } from 'express';
import { DASHBOARD_COOKIE } from '../../common/auth/auth.decorator';
import { permissionDenied } from '../../common/errors/api-error';

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Scheme, a 253-character host and a port fit well within this. */
const MAX_ORIGIN_LENGTH = 512;

/** Linear, where /\/+$/ retries from every slash of a run that is not at the end (quadratic). */
function withoutTrailingSlashes(value: string): string {
  let end = value.length;
  while (end > 0 && value.charCodeAt(end - 1) === 0x2f) end--;
  return value.slice(0, end);
}

/** The dashboard session cookie of a request, if it has one. */
export function sessionCookieOf(req: Request): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  try {
    return parseCookies(header)[DASHBOARD_COOKIE] || undefined;
  } catch {
    return undefined;
  }
}

/**
 * CSRF guard for cookie sessions (../shared/spec/decisions.md section 3): a browser's cross-site POST carries an
 * Origin we do not trust. Requests without Origin (non-browser tools) pass.
 */
export function checkSessionOrigin(req: Request, trustedOrigins: readonly string[]): void {
  const origin = req.headers.origin;
  if (!UNSAFE_METHODS.has(req.method) || origin === undefined) return;
  // A serialised origin (scheme, host, port) is far shorter; a longer header is refused unread.
  if (origin.length > MAX_ORIGIN_LENGTH) throw permissionDenied('The Origin header is too long to be an origin');
  const trusted = withoutTrailingSlashes(origin);
  // A page the API serves itself (Swagger UI at /docs, the queue dashboard) is same-origin, not cross-site: a
  // browser sets Host to the server it talks to, and another site cannot make it send our origin.
  if (trusted === `${req.protocol}://${req.headers.host ?? ''}`) return;
  if (!trustedOrigins.includes(trusted)) throw permissionDenied(`Origin ${origin} is not allowed to use dashboard sessions`);
}
