import { PROBLEM_CATALOG, type ProblemCode } from './problem-catalog';

export interface FieldError {
  path: string;
  code: string;
  message: string;
}

/**
 * A failure the client can act on; the problem filter turns it into an RFC 9457 document. Its HTTP status is the
 * one the problem catalogue gives its code, so a service names what went wrong and never an HTTP status.
 */
export class ApiError extends Error {
  readonly status: number;

  constructor(
    readonly code: ProblemCode,
    readonly detail: string,
    readonly errors: FieldError[] = [],
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
    this.name = 'ApiError';
    this.status = PROBLEM_CATALOG[code].status;
  }
}

export const invalidRequest = (detail: string) => new ApiError('invalid_request', detail);
export const notFound = (detail = 'Resource not found') => new ApiError('not_found', detail);
export const permissionDenied = (detail: string) => new ApiError('permission_denied', detail);
export const authenticationRequired = (detail = 'Authentication required') => new ApiError('authentication_required', detail);
export const authenticationInvalid = (detail = 'The credentials are malformed or unknown') =>
  new ApiError('authentication_invalid', detail);
export const validationFailed = (errors: FieldError[], detail = 'The request has invalid fields; see errors') =>
  new ApiError('validation_error', detail, errors);
export const transientError = (detail = 'A backing service is temporarily unavailable; retry with backoff') =>
  new ApiError('transient_error', detail);
