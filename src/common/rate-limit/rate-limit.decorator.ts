import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';
import { ApiProblems } from '../openapi/api-problems.decorator';
import { BUCKET_WINDOW_SECONDS, type RateLimitBucket } from './rate-limit.buckets';

export const RATE_LIMIT_BUCKET = 'rate-limit:bucket';

const WINDOWS: Record<number, string> = { 60: 'minute', 3600: 'hour' };

/** Counts the route against a per-key (or, for key management, per-user) bucket; also documents 429 and the headers. */
export function RateLimit(bucket: RateLimitBucket) {
  const window = WINDOWS[BUCKET_WINDOW_SECONDS[bucket]] ?? `${BUCKET_WINDOW_SECONDS[bucket]} s`;
  const counted = bucket === 'keys' ? 'counted per dashboard user' : 'counted per API key, or per user for a dashboard session';
  return applyDecorators(
    SetMetadata(RATE_LIMIT_BUCKET, bucket),
    ApiExtension('x-rate-limit-bucket', bucket),
    ApiProblems({
      code: 'rate_limit_exceeded',
      summary: `The \`${bucket}\` bucket (${counted}) is used up for the current ${window}; its limit is in RateLimit-Policy. Retry after Retry-After seconds.`,
      detail: `Rate limit exceeded for the ${bucket} bucket; retry after 42 s`,
    }),
  );
}
