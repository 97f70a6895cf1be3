/** Fixed windows aligned to the epoch: every process computes the same window for the same instant. */
export function windowIndex(nowMs: number, windowSeconds: number): number {
  return Math.floor(nowMs / (windowSeconds * 1000));
}

/** Whole seconds until the current window ends (at least 1, so clients never busy-loop on 0). */
export function secondsUntilReset(nowMs: number, windowSeconds: number): number {
  const windowMs = windowSeconds * 1000;
  const endMs = (windowIndex(nowMs, windowSeconds) + 1) * windowMs;
  return Math.max(1, Math.ceil((endMs - nowMs) / 1000));
}

export interface RateLimitDecision {
  bucket: string;
  limit: number;
  remaining: number;
  resetSeconds: number;
  windowSeconds: number;
  allowed: boolean;
}

export function decide(bucket: string, count: number, limit: number, nowMs: number, windowSeconds: number): RateLimitDecision {
  return {
    bucket,
    limit,
    remaining: Math.max(0, limit - count),
    resetSeconds: secondsUntilReset(nowMs, windowSeconds),
    windowSeconds,
    allowed: count <= limit,
  };
}

/** IETF RateLimit headers as the spec writes them. */
export function rateLimitHeaders(decision: RateLimitDecision): Record<string, string> {
  return {
    'RateLimit-Policy': `${decision.limit};w=${decision.windowSeconds}`,
    RateLimit: `limit=${decision.limit}, remaining=${decision.remaining}, reset=${decision.resetSeconds}`,
  };
}
