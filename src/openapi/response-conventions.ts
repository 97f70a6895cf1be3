import type { OpenAPIObject } from '@nestjs/swagger';

type Json = Record<string, any>;

const HEADERS = {
  RequestId: {
    description: 'Server-generated request id, `req_` + 24 base62 characters; quote it when reporting a problem',
    schema: { type: 'string', pattern: '^req_[0-9A-Za-z]{24}$' },
  },
  RateLimit: {
    description: 'Current window of the bucket: `limit=<n>, remaining=<n>, reset=<seconds>`',
    schema: { type: 'string', example: 'limit=60, remaining=59, reset=42' },
  },
  RateLimitPolicy: { description: 'Bucket policy: `<limit>;w=<window seconds>`', schema: { type: 'string', example: '60;w=60' } },
  RetryAfter: { description: 'Seconds to wait before retrying', schema: { type: 'integer', minimum: 0, example: 42 } },
  IdempotencyReplayed: {
    description: '`true` when this is the stored response of an earlier request with the same Idempotency-Key (absent otherwise)',
    schema: { type: 'string', enum: ['true'] },
  },
};

const PLAIN_TEXT = { 'text/plain': { schema: { type: 'string' } } };
const UNREADABLE_BODY =
  'A body the server could not read at all (unparseable JSON): plain text `Bad Request`, no problem document and no X-Request-Id.';

/** Sample values that make an example's `instance` a real path of its operation. */
const PATH_SAMPLES: Record<string, string> = { id: '5f0c7a1e-2b3d-4c5e-8f90-1a2b3c4d5e6f' };

/**
 * What every operation shares and no decorator can attach to one response: X-Request-Id everywhere, the RateLimit
 * pair on rate-limited successes and 429s, Retry-After on 429, Idempotency-Replayed on idempotent successes, and the
 * answers of the body parser, which runs before any route (a plain 400 for unparseable JSON, a plain 413 over 2 MB).
 * Problem examples get their operation's path as `instance`.
 */
export function withResponseConventions(document: OpenAPIObject): OpenAPIObject {
  document.components = {
    ...document.components,
    headers: { ...document.components?.headers, ...HEADERS },
    responses: {
      ...document.components?.responses,
      BodyTooLarge: {
        description:
          'The request body is over 2 MB: plain text `Payload Too Large`, refused before the API layer (no problem document, no X-Request-Id).',
        content: PLAIN_TEXT,
      },
    },
  };
  for (const [path, pathItem] of Object.entries(document.paths)) {
    for (const operation of Object.values(pathItem) as Json[]) {
      if (!operation || typeof operation !== 'object' || !('responses' in operation)) continue;
      const limited = Boolean(operation['x-rate-limit-bucket']);
      const idempotent = (operation.parameters ?? []).some((p: { name?: string }) => p.name === 'Idempotency-Key');
      const instance = path.replace(/\{(\w+)\}/g, (_match, name: string) => PATH_SAMPLES[name] ?? name);
      const responses = operation.responses as Record<string, Json>;
      for (const [status, response] of Object.entries(responses)) {
        const headers: Json = { 'X-Request-Id': { $ref: '#/components/headers/RequestId' } };
        const success = status.startsWith('2') || status === '304';
        if (limited && (success || status === '429')) {
          headers.RateLimit = { $ref: '#/components/headers/RateLimit' };
          headers['RateLimit-Policy'] = { $ref: '#/components/headers/RateLimitPolicy' };
        }
        if (status === '429') headers['Retry-After'] = { $ref: '#/components/headers/RetryAfter' };
        if (idempotent && status.startsWith('2')) headers['Idempotency-Replayed'] = { $ref: '#/components/headers/IdempotencyReplayed' };
        response.headers = { ...headers, ...response.headers };
        setProblemInstances(response, instance);
      }
      if (responses['400']) {
        const listed = String(responses['400'].description).startsWith('- ')
          ? responses['400'].description
          : `- ${responses['400'].description}`;
        responses['400'].description = `${listed}\n- ${UNREADABLE_BODY}`;
        responses['400'].content = { ...responses['400'].content, ...PLAIN_TEXT };
      }
      responses['413'] = { $ref: '#/components/responses/BodyTooLarge' };
      operation.responses = Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)));
    }
  }
  return document;
}

function setProblemInstances(response: Json, instance: string): void {
  const examples = response.content?.['application/problem+json']?.examples as Record<string, { value: Json }> | undefined;
  for (const example of Object.values(examples ?? {})) example.value.instance = instance;
}
