export interface FieldError {
  path: string;
  code: string;
  message: string;
}

/** A failure the client can act on; the problem filter turns it into an RFC 9457 document. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
    readonly errors: FieldError[] = [],
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
    this.name = 'ApiError';
  }
}

export const invalidRequest = (detail: string) => new ApiError(400, 'invalid_request', detail);
export const notFound = (detail = 'Resource not found') => new ApiError(404, 'not_found', detail);
export const permissionDenied = (detail: string) => new ApiError(403, 'permission_denied', detail);
export const authenticationRequired = (detail = 'Authentication required') => new ApiError(401, 'authentication_required', detail);
export const authenticationInvalid = (detail = 'The credentials are malformed or unknown') =>
  new ApiError(401, 'authentication_invalid', detail);
export const validationFailed = (errors: FieldError[], detail = 'The request has invalid fields; see errors') =>
  new ApiError(422, 'validation_error', detail, errors);
export const transientError = (detail = 'A backing service is temporarily unavailable; retry with backoff') =>
  new ApiError(503, 'transient_error', detail);
