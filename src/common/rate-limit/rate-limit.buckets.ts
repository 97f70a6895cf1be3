import type { AppConfig } from '../../config/app-config';

export const RATE_LIMIT_BUCKETS = ['reads', 'mutations', 'scans', 'exports', 'keys'] as const;
export type RateLimitBucket = (typeof RATE_LIMIT_BUCKETS)[number];

/** Window of each bucket (spec "Limits"); limits come from configuration (RATE_LIMIT_*). */
export const BUCKET_WINDOW_SECONDS: Record<RateLimitBucket, number> = {
  reads: 60,
  mutations: 60,
  scans: 3600,
  exports: 3600,
  keys: 60,
};

export function bucketLimit(config: AppConfig, bucket: RateLimitBucket): number {
  return config.rateLimits[bucket];
}
