import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Inject, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { REQUEST_ID_HEADER, requestIdOf } from '../http/request-id';
import { ApiError, type FieldError } from './api-error';
import { problemSlug, problemTitle, type ProblemCode } from './problem-catalog';
import { isTransientInfraError } from './transient';

export interface ProblemDocument {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance: string;
  code: string;
  request_id: string;
  errors: FieldError[];
  /** RFC 9457 extension member, present only when `errors` was cut to MAX_PROBLEM_ERRORS: how many there were. */
  errors_total?: number;
}

/** A problem lists at most this many field errors; `errors_total` and the detail say how many were found. */
export const MAX_PROBLEM_ERRORS = 50;
/** Texts that can quote client input (paths name the client's keys) are cut to these lengths. */
const MAX_DETAIL_LENGTH = 2000;
const MAX_PATH_LENGTH = 256;
const MAX_MESSAGE_LENGTH = 1000;

const CODE_BY_STATUS: Record<number, ProblemCode> = {
  400: 'invalid_request',
  401: 'authentication_required',
  403: 'permission_denied',
  404: 'not_found',
  409: 'conflict',
  410: 'gone',
  416: 'range_not_satisfiable',
  422: 'validation_error',
  429: 'rate_limit_exceeded',
  503: 'transient_error',
};

/** The one place where any thrown error becomes an RFC 9457 problem document. */
@Catch()
export class ProblemFilter implements ExceptionFilter {
  private readonly logger = new Logger('ProblemFilter');

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const req = http.getRequest<Request>();
    const res = http.getResponse<Response>();
    const requestId = requestIdOf(req);
    const error = this.toApiError(exception, req, requestId);

    if (res.headersSent) {
      // A streamed response (SSE, download) failed midway: the status line is gone, so end it.
      res.end();
      return;
    }
    const listed = error.errors.slice(0, MAX_PROBLEM_ERRORS);
    const unlisted = error.errors.length - listed.length;
    const body: ProblemDocument = {
      type: `${this.config.baseUrl}/problems/${problemSlug(error.code)}`,
      title: problemTitle(error.code, error.status),
      status: error.status,
      detail:
        clip(error.detail, MAX_DETAIL_LENGTH) +
        (unlisted > 0 ? ` (errors lists the first ${MAX_PROBLEM_ERRORS} … and ${unlisted} more)` : ''),
      instance: req.originalUrl?.split('?')[0] ?? req.url,
      code: error.code,
      request_id: requestId,
      errors: listed.map((entry) => ({
        path: clip(entry.path, MAX_PATH_LENGTH),
        code: entry.code,
        message: clip(entry.message, MAX_MESSAGE_LENGTH),
      })),
    };
    if (unlisted > 0) body.errors_total = error.errors.length;
    res.setHeader(REQUEST_ID_HEADER, requestId);
    for (const [name, value] of Object.entries(error.headers)) res.setHeader(name, value);
    if (error.status === 401) res.setHeader('WWW-Authenticate', 'Bearer');
    res.status(error.status).type('application/problem+json').send(JSON.stringify(body));
  }

  private toApiError(exception: unknown, req: Request, requestId: string): ApiError {
    if (exception instanceof ApiError) return exception;
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      if (status === 404) return new ApiError('not_found', `No route matches ${req.method} ${req.path}`);
      if (status === 405) return new ApiError('not_found', `No route matches ${req.method} ${req.path}`);
      if (status === 413) return new ApiError('invalid_request', 'Request body too large');
      const code = CODE_BY_STATUS[status];
      if (code && status < 500) return new ApiError(code, exception.message);
    }
    if (isTransientInfraError(exception)) {
      this.logger.warn({ requestId, err: describe(exception) }, 'backing service unavailable');
      return new ApiError('transient_error', 'A backing service is temporarily unavailable; retry with backoff');
    }
    this.logger.error({ requestId, err: describe(exception) }, 'unexpected error');
    return new ApiError('internal_error', 'Internal server error');
  }
}

/** At most `max` UTF-16 units, never ending in half a surrogate pair, marked with an ellipsis when cut. */
function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const end = /[\ud800-\udbff]/.test(text[max - 2] ?? '') ? max - 2 : max - 1;
  return `${text.slice(0, end)}…`;
}

function describe(exception: unknown): Record<string, unknown> {
  if (exception instanceof Error) return { name: exception.name, message: exception.message, stack: exception.stack };
  return { value: String(exception) };
}
