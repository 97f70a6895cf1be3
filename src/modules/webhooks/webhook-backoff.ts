const MAX_DELAY_MS = 24 * 3600 * 1000;

/** Delay before the next delivery attempt: the base after the first failure, doubling after each one, at most a day. */
export function webhookRetryDelayMs(attemptsMade: number, baseMs: number): number {
  return Math.min(MAX_DELAY_MS, baseMs * 2 ** Math.max(0, attemptsMade - 1));
}
