/**
 * Bull backoff for jobs whose failures are mostly "not now": a store outage, a provider hiccup, a worker leaving.
 * Doubles from 2 s up to 30 s, so a job keeps its place through an outage of several minutes (with its attempts)
 * without hammering a service that is coming back.
 */
export const RECOVERABLE_BACKOFF = 'recoverable';

export function recoverableBackoff(attemptsMade: number): number {
  return Math.min(30_000, 1000 * 2 ** Math.max(1, attemptsMade));
}

/** With the backoff above: about eight minutes of retries before a job is given up. */
export const RECOVERABLE_JOB_ATTEMPTS = 20;

/** Bull backoff for jobs that decide their own next attempt: the delay carried by the RetryLaterError they threw. */
export const SCHEDULED_BACKOFF = 'scheduled';

export class RetryLaterError extends Error {
  constructor(
    message: string,
    readonly retryInMs: number,
  ) {
    super(message);
    this.name = 'RetryLaterError';
  }
}

export function scheduledBackoff(attemptsMade: number, error?: unknown): number {
  return error instanceof RetryLaterError ? error.retryInMs : recoverableBackoff(attemptsMade);
}
