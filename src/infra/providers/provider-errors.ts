import { EngineFailure } from '../../domain/failures';

/** Retryable provider failure carrying the HTTP status (null for network errors and timeouts). */
export class ProviderTransientError extends Error {
  constructor(
    message: string,
    readonly provider: string | null = null,
    readonly status: number | null = null,
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
    this.name = 'ProviderTransientError';
  }
}

/** Permanent provider failure (bad key, bad request, unknown model, malformed response). */
export class ProviderFailure extends EngineFailure {
  constructor(
    message: string,
    readonly provider: string,
    readonly status: number | null,
  ) {
    super(message);
    this.name = 'ProviderFailure';
  }
}

/** A job the provider finished (and charged for) whose result cannot be retrieved. */
export class ResultUnavailableError extends Error {
  constructor(
    message: string,
    readonly provider: string,
    /** The provider's id of the finished job, for the operator. */
    readonly jobId: string,
  ) {
    super(message);
    this.name = 'ResultUnavailableError';
  }
}
