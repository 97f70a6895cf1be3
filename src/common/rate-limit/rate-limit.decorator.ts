import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';
import { ApiProblems } from '../openapi/api-problems.decorator';
import type { RateLimitBucket } from './rate-limit.buckets';

export const RATE_LIMIT_BUCKET = 'rate-limit:bucket';

/** Counts the route against a per-key (or, for key management, per-user) bucket; also documents 429 and the headers. */
export function RateLimit(bucket: RateLimitBucket) {
  return applyDecorators(
    SetMetadata(RATE_LIMIT_BUCKET, bucket),
    ApiExtension('x-rate-limit-bucket', bucket),
    ApiProblems('rate_limit_exceeded'),
  );
}
