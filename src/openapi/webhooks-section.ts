import type { OpenAPIObject } from '@nestjs/swagger';
import { WEBHOOK_DATA_SCHEMAS, webhookEventSchema } from '../modules/webhooks/dto/webhook-payload.schemas';
import { WEBHOOK_EVENTS } from '../modules/webhooks/webhook-events';

/** What each event reports beyond its payload schema. */
const EVENT_NOTES: Partial<Record<(typeof WEBHOOK_EVENTS)[number], string>> = {
  'budget.low':
    ' Recorded once when a ledger change (a scan or export hold, its settlement, an operator `budget:set` or `budget:add`) takes the remaining pool below `BUDGET_LOW_THRESHOLD_PERCENT` of the pool; not again while it stays below, and again after it has been back at or above the threshold.',
};

const SIGNATURE_HEADERS = [
  {
    name: 'webhook-id',
    in: 'header',
    required: true,
    description: 'The delivery id: the same on every retry of one event, so a repeated id is a retry or a replay',
    schema: { type: 'string', format: 'uuid' },
  },
  {
    name: 'webhook-timestamp',
    in: 'header',
    required: true,
    description: 'Unix seconds when this attempt was signed; refuse ones far from your clock (Standard Webhooks: 5 minutes)',
    schema: { type: 'string', pattern: '^[0-9]+$' },
  },
  {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    description:
      '`v1,` and the base64 HMAC-SHA256, keyed with the base64-decoded part of the endpoint secret after `whsec_`, of `{webhook-id}.{webhook-timestamp}.{raw body}`. During the grace period after a secret rotation it carries two signatures separated by a space (new secret first, then the previous one); accept the request when any of them verifies.',
    schema: { type: 'string', pattern: '^v1,' },
  },
];

/**
 * Adds the OpenAPI 3.1 `webhooks` section (@nestjs/swagger does not emit one): one signed POST per event, with the
 * payload schema; any 2xx acknowledges it, anything else is retried with back-off.
 */
export function withWebhooks(document: OpenAPIObject): OpenAPIObject {
  const schemas: Record<string, unknown> = { ...document.components?.schemas, ...WEBHOOK_DATA_SCHEMAS };
  const webhooks: Record<string, unknown> = {};
  for (const event of WEBHOOK_EVENTS) {
    const name = `${event.replace(/(^|\.)(\w)/g, (_m, _dot: string, letter: string) => letter.toUpperCase())}WebhookEvent`;
    schemas[name] = webhookEventSchema(event);
    webhooks[event] = {
      post: {
        operationId: `${event.replace('.', '_')}_webhook`,
        summary: `The ${event} event`,
        description: `Sent to each enabled endpoint subscribed to \`${event}\`, signed as Standard Webhooks describes. Verify the signature on the raw body before parsing it.${EVENT_NOTES[event] ?? ''}`,
        tags: ['Webhooks'],
        security: [],
        parameters: SIGNATURE_HEADERS,
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: `#/components/schemas/${name}` } } } },
        responses: {
          '200': { description: 'Any 2xx acknowledges the event; it is not sent again' },
          '400': { description: 'Any other answer (or none within 10 s) is retried with exponential back-off' },
        },
      },
    };
  }
  const sorted = Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b)));
  return { ...document, webhooks, components: { ...document.components, schemas: sorted } } as OpenAPIObject;
}
