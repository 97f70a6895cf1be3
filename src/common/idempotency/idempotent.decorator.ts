import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import { ApiProblems } from '../openapi/api-problems.decorator';

export const IDEMPOTENT = 'idempotency:enabled';

/**
 * Honours the Idempotency-Key header on this route (spec "Idempotency rules") and documents it. The header has no
 * example on purpose: Swagger UI would send it with every request, so a second try-out would replay the first
 * response or answer 409.
 */
export function Idempotent() {
  return applyDecorators(
    SetMetadata(IDEMPOTENT, true),
    ApiHeader({
      name: 'Idempotency-Key',
      required: false,
      description:
        'Optional. A key you generate for one logical request, for example a fresh UUID, and reuse only to retry that request: 1 to 255 printable ASCII characters. ' +
        'A retry with the same key and the same body within 24 hours replays the first successful (2xx) response with `Idempotency-Replayed: true`; ' +
        'the same key with another body is 409 `idempotency_key_in_use`. Scoped per API key and endpoint. Leave it empty to run the request normally.',
      schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7E]{1,255}$' },
    }),
    ApiProblems(
      {
        code: 'idempotency_key_in_use',
        summary: 'The Idempotency-Key was already used with a different body on this endpoint; use a new key for a new request.',
        detail: 'This Idempotency-Key was already used with a different request body',
      },
      {
        code: 'idempotency_in_progress',
        summary: 'The first request with this Idempotency-Key is still running; retry the same request later.',
        detail: 'The original request with this Idempotency-Key is still running; retry later',
      },
      {
        code: 'invalid_idempotency_key',
        summary: 'The Idempotency-Key header is empty, longer than 255 characters or not printable ASCII.',
        detail: 'Idempotency-Key must be 1 to 255 printable ASCII characters',
      },
    ),
  );
}
