import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { withResponseConventions } from './response-conventions';
import { withWebhooks } from './webhooks-section';

const DESCRIPTION = `AI-driven regulatory horizon scans over jurisdictions x regulatory areas x a forward horizon in months.
Each scan produces a dated, cited **snapshot**; snapshots feed **exports** (PDF, CSV, slides, audio, ...).

The usual workflow follows the tags: read the vocabularies (**Discovery**), run a scan (**Scans**), read its snapshot
(**Snapshots**), export it (**Exports**), watch the spend (**Usage**). **Keys** and **Webhooks** are managed with a dashboard session.

* Authenticate with \`Authorization: Bearer <API_KEY>\` (click **Authorize**). Keys are created with a dashboard session (\`POST /v1/keys\`).
* Every error is an RFC 9457 problem document (\`application/problem+json\`); branch on its \`code\`. Each operation lists, per status, an example of every code it can answer.
* Every response carries \`X-Request-Id\`, except a body the server cannot read at all (plain-text 400/413).
* Read the vocabularies at runtime from \`/v1/meta/*\` instead of hard-coding them.`;

/** Tags in workflow order; Swagger UI shows them in this order. */
export const TAGS: ReadonlyArray<{ name: string; description: string }> = [
  {
    name: 'Discovery',
    description: 'The live vocabularies: engines and horizons, models, jurisdictions, areas, export types and their options.',
  },
  {
    name: 'Scans',
    description:
      'Estimate and run scans, follow their progress (status or server-sent events) and cancel them. A completed scan produces a snapshot.',
  },
  {
    name: 'Snapshots',
    description:
      'Read snapshots (the cited envelope) and their parts: items, trends, summaries, briefing and drift against the previous run.',
  },
  {
    name: 'Exports',
    description: 'Turn a snapshot into an artefact (PDF, CSV, slides, images, audio, video): create, poll, download. Always asynchronous.',
  },
  {
    name: 'Usage',
    description: 'Requests, scans, exports and cost over a period, and the prepaid budget pool that scans and exports draw on.',
  },
  {
    name: 'Keys',
    description: 'Create, list and revoke API keys. Needs a dashboard session (cookie `dashboard_session`); an API key cannot manage keys.',
  },
  {
    name: 'Webhooks',
    description:
      'Endpoints that receive signed events (scans and exports that finish) and the record of each delivery and attempt. Needs a dashboard session. The `webhooks` section documents the payloads.',
  },
  { name: 'Health', description: 'Liveness and readiness probes for orchestrators. No authentication.' },
];

/** Builds the OpenAPI 3.1 document from the controllers' decorators. */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const builder = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle('Regulatory Scan and Snapshot Service API')
    .setDescription(DESCRIPTION)
    .setVersion('1.0.0')
    .setLicense('Proprietary', 'https://example.com/terms')
    .addServer('/', 'This deployment')
    .addBearerAuth(
      {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'Opaque API key: <PREFIX>_live_ + 32 base62 characters (rgs_live_… by default)',
        description: 'An API key, `Authorization: Bearer rgs_live_<32 base62 characters>`. Not a JWT: the server looks its hash up.',
      },
      'bearer',
    )
    .addCookieAuth(
      'dashboard_session',
      {
        type: 'apiKey',
        in: 'cookie',
        description: 'Dashboard session: a JWT issued by the identity provider, sent as the cookie `dashboard_session`',
      },
      'dashboard',
    );
  for (const tag of TAGS) builder.addTag(tag.name, tag.description);
  const document = SwaggerModule.createDocument(app, builder.build(), {
    operationIdFactory: (_controllerKey, methodKey) => methodKey,
  });
  return withWebhooks(toOpenApi31(withResponseConventions(sortPaths(document))));
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
