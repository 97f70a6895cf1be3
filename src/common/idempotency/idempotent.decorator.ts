import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import { ApiProblems } from '../openapi/api-problems.decorator';

export const IDEMPOTENT = 'idempotency:enabled';

/** Honours the Idempotency-Key header on this route (spec "Idempotency rules") and documents it. */
export function Idempotent() {
  return applyDecorators(
    SetMetadata(IDEMPOTENT, true),
    ApiHeader({
      name: 'Idempotency-Key',
      required: false,
      description: '1 to 255 printable ASCII characters. Retries with the same key and body replay the first successful response (with `Idempotency-Replayed: true`) for 24 hours.',
      schema: { type: 'string', minLength: 1, maxLength: 255, example: 'a1b2c3d4-retry-safe' },
    }),
    ApiProblems('idempotency_key_in_use', 'idempotency_in_progress', 'invalid_idempotency_key'),
  );
}
