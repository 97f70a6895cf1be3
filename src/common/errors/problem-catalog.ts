/** Titles and short explanations of every problem code; also served as human-readable pages at /problems/<slug>. */
export const PROBLEM_CATALOG = {
  invalid_request: { status: 400, title: 'Invalid request', description: 'The request is malformed: fix it before retrying.' },
  authentication_required: { status: 401, title: 'Authentication required', description: 'Send `Authorization: Bearer <API_KEY>` (or a dashboard session for key management).' },
  authentication_invalid: { status: 401, title: 'Invalid credentials', description: 'The bearer token or session is malformed, expired or unknown.' },
  key_revoked: { status: 401, title: 'API key revoked', description: 'This API key was revoked. Create a new key in the dashboard.' },
  budget_exhausted: { status: 402, title: 'Budget exhausted', description: "The account's prepaid budget pool cannot cover the scan's expected cost." },
  permission_denied: { status: 403, title: 'Permission denied', description: 'You are authenticated but not allowed to do this.' },
  not_found: { status: 404, title: 'Not found', description: 'The resource does not exist or belongs to another account.' },
  translation_not_available: { status: 404, title: 'Translation not available', description: 'The snapshot has no translation for the requested language.' },
  conflict: { status: 409, title: 'Conflict', description: 'The request conflicts with the current state of the resource.' },
  invalid_state: { status: 409, title: 'Invalid state', description: 'The scan is already finished and cannot be cancelled.' },
  not_ready: { status: 409, title: 'Not ready', description: 'The export has not completed yet; poll its status.' },
  idempotency_key_in_use: { status: 409, title: 'Idempotency key in use', description: 'This Idempotency-Key was used with a different request body.' },
  idempotency_in_progress: { status: 409, title: 'Idempotent request in progress', description: 'The original request with this Idempotency-Key is still running.' },
  gone: { status: 410, title: 'Gone', description: 'The export completed but its bytes are no longer retained.' },
  range_not_satisfiable: { status: 416, title: 'Range not satisfiable', description: 'The requested byte range lies outside the resource.' },
  validation_error: { status: 422, title: 'Validation error', description: 'Some fields are invalid; `errors[]` lists each with its path and code.' },
  unknown_parameter: { status: 422, title: 'Unknown parameter', description: 'A removed or unknown query parameter was sent.' },
  key_limit_exceeded: { status: 422, title: 'Key limit exceeded', description: 'The account already has 10 active API keys; revoke one first.' },
  webhook_endpoint_limit_exceeded: { status: 422, title: 'Webhook endpoint limit exceeded', description: 'The account has as many webhook endpoints as the deployment allows (20 by default); delete one first.' },
  invalid_idempotency_key: { status: 422, title: 'Invalid idempotency key', description: 'Idempotency-Key must be 1 to 255 printable ASCII characters.' },
  unsupported_locale: { status: 422, title: 'Unsupported locale', description: 'targetLanguage must be one of en, fr, de, es, it, zh, ja, simple.' },
  engine_deprecated: { status: 422, title: 'Engine deprecated', description: 'The engine is retired; use one listed by GET /v1/meta/engines.' },
  council_model_fixed: { status: 422, title: 'Council model fixed', description: 'The council engine runs fixed models; omit `model` or send `large`.' },
  rate_limit_exceeded: { status: 429, title: 'Rate limit exceeded', description: 'A rate-limit bucket is exhausted; wait for Retry-After seconds.' },
  internal_error: { status: 500, title: 'Internal server error', description: 'An unexpected error occurred; retry with backoff and quote the request id.' },
  transient_error: { status: 503, title: 'Service temporarily unavailable', description: 'A backing service is temporarily unavailable; retry with backoff.' },
  engine_unavailable: { status: 503, title: 'Engine unavailable', description: 'The requested engine is not loaded in this deployment.' },
} as const satisfies Record<string, { status: number; title: string; description: string }>;

export type ProblemCode = keyof typeof PROBLEM_CATALOG;

export const isProblemCode = (code: string): code is ProblemCode => Object.hasOwn(PROBLEM_CATALOG, code);

export const problemSlug = (code: string) => code.replace(/_/g, '-');

export function problemTitle(code: string, status: number): string {
  return (isProblemCode(code) ? PROBLEM_CATALOG[code].title : undefined) ?? (status >= 500 ? 'Internal server error' : 'Request failed');
}
