import type { components } from './schema';

export type ProblemDocument = components['schemas']['ProblemDocumentDto'];
export type FieldError = components['schemas']['FieldErrorDto'];

/** Statuses the API asks clients to retry (../shared/spec/api-v1.md, "Retry guidance"). */
const RETRYABLE = new Set([429, 500, 503]);

/**
 * A non-2xx answer from the API, carrying its problem document (RFC 9457). Answers rejected before the API layer
 * (a plain 400 or 413, or a proxy's page) have no document: their fields are filled from the HTTP status.
 */
export class RegScanProblem extends Error {
  override readonly name = 'RegScanProblem';
  readonly type: string;
  readonly title: string;
  readonly status: number;
  readonly code: ProblemDocument['code'] | undefined;
  readonly detail: string | undefined;
  readonly instance: string | undefined;
  readonly requestId: string | undefined;
  readonly errors: FieldError[];
  /** From Retry-After, when the answer had one. */
  readonly retryAfterMs: number | undefined;

  constructor(
    readonly problem: Partial<ProblemDocument> & Pick<ProblemDocument, 'type' | 'title' | 'status'>,
    retryAfterMs?: number,
  ) {
    super(`${problem.status} ${problem.code ?? problem.title}${problem.detail ? `: ${problem.detail}` : ''}`);
    this.type = problem.type;
    this.title = problem.title;
    this.status = problem.status;
    this.code = problem.code;
    this.detail = problem.detail;
    this.instance = problem.instance;
    this.requestId = problem.request_id;
    this.errors = problem.errors ?? [];
    this.retryAfterMs = retryAfterMs;
  }

  /** Whether the spec says to try again later (429, 500, 503). */
  get retryable(): boolean {
    return RETRYABLE.has(this.status);
  }

  /** Builds the error from what openapi-fetch returned as `error` (the parsed body) and the response. */
  static from(body: unknown, response: Response): RegScanProblem {
    const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'));
    if (isProblemDocument(body)) return new RegScanProblem(body, retryAfterMs);
    return new RegScanProblem(
      {
        type: 'about:blank',
        title: response.statusText || `HTTP ${response.status}`,
        status: response.status,
        detail: typeof body === 'string' && body ? body.slice(0, 500) : undefined,
        request_id: response.headers.get('x-request-id') ?? undefined,
        errors: [],
      },
      retryAfterMs,
    );
  }
}

function isProblemDocument(body: unknown): body is ProblemDocument {
  if (typeof body !== 'object' || body === null) return false;
  const candidate = body as Record<string, unknown>;
  return typeof candidate.type === 'string' && typeof candidate.title === 'string' && typeof candidate.status === 'number';
}

/** Retry-After as delta-seconds or an HTTP date (RFC 9110 §10.2.3), in milliseconds. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
