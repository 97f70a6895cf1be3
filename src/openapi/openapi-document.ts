import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';

const DESCRIPTION = `AI-driven regulatory horizon scans over jurisdictions x regulatory areas x a forward horizon in months.
Each scan produces a dated, cited **snapshot**; snapshots feed **exports** (PDF, CSV, slides, audio, ...).

* Authenticate with \`Authorization: Bearer <API_KEY>\` (click **Authorize**). Keys are created with a dashboard session (\`/v1/keys\`).
* Every error is an RFC 9457 problem document (\`application/problem+json\`); branch on its \`code\`.
* Every response carries \`X-Request-Id\`.
* Read the vocabularies at runtime from \`/v1/meta/*\` instead of hard-coding them.`;

/** Builds the OpenAPI 3.1 document from the controllers' decorators. */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle('Regulatory Scan and Snapshot Service API')
    .setDescription(DESCRIPTION)
    .setVersion('1.0.0')
    .setLicense('Proprietary', 'https://example.com/terms')
    .addServer('/', 'This deployment')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'API key: `rgs_live_<32 chars>`' }, 'bearer')
    .addCookieAuth('dashboard_session', { type: 'apiKey', in: 'cookie', description: 'Dashboard session JWT from the identity provider' }, 'dashboard')
    .build();
  const document = SwaggerModule.createDocument(app, config, {
    operationIdFactory: (_controllerKey, methodKey) => methodKey,
  });
  return toOpenApi31(withResponseHeaders(sortPaths(document)));
}

/**
 * Response headers the decorators cannot attach to one response: X-Request-Id everywhere, the RateLimit pair on
 * rate-limited successes, Retry-After on 429.
 */
function withResponseHeaders(document: OpenAPIObject): OpenAPIObject {
  document.components = {
    ...document.components,
    headers: {
      ...document.components?.headers,
      RequestId: { description: 'Server-generated request id, `req_` + 24 base62 characters; quote it when reporting a problem', schema: { type: 'string', pattern: '^req_[0-9A-Za-z]{24}$' } },
      RateLimit: { description: 'Current window of the bucket: `limit=<n>, remaining=<n>, reset=<seconds>`', schema: { type: 'string', example: 'limit=60, remaining=59, reset=42' } },
      RateLimitPolicy: { description: 'Bucket policy: `<limit>;w=<window seconds>`', schema: { type: 'string', example: '60;w=60' } },
      RetryAfter: { description: 'Seconds until the bucket has room again', schema: { type: 'integer', example: 42 } },
      IdempotencyReplayed: { description: '`true` when this is the stored response of an earlier request with the same Idempotency-Key', schema: { type: 'string', enum: ['true'] } },
    },
  };
  for (const pathItem of Object.values(document.paths)) {
    for (const operation of Object.values(pathItem) as Array<Record<string, any>>) {
      if (!operation || typeof operation !== 'object' || !('responses' in operation)) continue;
      const limited = Boolean(operation['x-rate-limit-bucket']);
      const idempotent = (operation.parameters ?? []).some((p: { name?: string }) => p.name === 'Idempotency-Key');
      for (const [status, response] of Object.entries(operation.responses ?? {}) as Array<[string, { headers?: Record<string, unknown>; description?: string }]>) {
        const headers: Record<string, unknown> = { 'X-Request-Id': { $ref: '#/components/headers/RequestId' } };
        const success = status.startsWith('2');
        if (limited && (success || status === '429')) {
          headers.RateLimit = { $ref: '#/components/headers/RateLimit' };
          headers['RateLimit-Policy'] = { $ref: '#/components/headers/RateLimitPolicy' };
        }
        if (status === '429') headers['Retry-After'] = { $ref: '#/components/headers/RetryAfter' };
        if (idempotent && success) headers['Idempotency-Replayed'] = { $ref: '#/components/headers/IdempotencyReplayed' };
        response.headers = { ...headers, ...response.headers };
        if (!response.description) response.description = 'Success';
      }
    }
  }
  return document;
}

function sortPaths(document: OpenAPIObject): OpenAPIObject {
  const paths = Object.fromEntries(Object.entries(document.paths).sort(([a], [b]) => a.localeCompare(b)));
  const schemas = document.components?.schemas
    ? Object.fromEntries(Object.entries(document.components.schemas).sort(([a], [b]) => a.localeCompare(b)))
    : undefined;
  return { ...document, paths, components: { ...document.components, ...(schemas ? { schemas } : {}) } };
}

/** @nestjs/swagger emits 3.0 schema idioms; 3.1 uses JSON Schema's type arrays instead of `nullable`. */
export function toOpenApi31<T>(node: T): T {
  if (Array.isArray(node)) return node.map((item) => toOpenApi31(item)) as T;
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
    // `example`/`examples` hold literal payloads, not schemas: copy them untouched.
    out[key] = key === 'example' || key === 'examples' ? value : toOpenApi31(value);
  }
  if (out.nullable === true) {
    delete out.nullable;
    if (typeof out.type === 'string') {
      out.type = [out.type, 'null'];
      if (Array.isArray(out.enum)) out.enum = [...out.enum, null];
    } else if (out.$ref || out.allOf || out.oneOf) {
      const { description, ...schema } = out;
      return { ...(description ? { description } : {}), anyOf: [schema, { type: 'null' }] } as T;
    }
  } else if (out.nullable === false) {
    delete out.nullable;
  }
  return out as T;
}
