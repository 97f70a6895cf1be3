import type { WebhookEventType } from '../webhook-events';

/**
 * The JSON bodies webhooks carry, as OpenAPI 3.1 schemas (the `webhooks` section of /openapi.json). They describe
 * what ScansService.announce and ExportsProcessor.finish record; test/webhooks.e2e-spec.ts checks the fields.
 */
const SCAN_DATA = {
  type: 'object',
  required: ['scan_id', 'status', 'snapshot_id', 'cost_cents', 'error', 'completed_at'],
  properties: {
    scan_id: { type: 'string', format: 'uuid' },
    status: { type: 'string', enum: ['completed', 'failed', 'cancelled'] },
    snapshot_id: { type: ['string', 'null'], format: 'uuid', description: 'The snapshot of a completed scan; null otherwise' },
    cost_cents: { type: 'number', description: 'What the scan was charged (0 for a failed scan)' },
    error: { type: ['string', 'null'], description: 'Why a failed scan failed; null otherwise' },
    completed_at: { type: ['string', 'null'], format: 'date-time' },
  },
};

const EXPORT_DATA = {
  type: 'object',
  required: ['export_job_id', 'snapshot_id', 'provider', 'artifact_type', 'status', 'error'],
  properties: {
    export_job_id: { type: 'string', format: 'uuid' },
    snapshot_id: { type: 'string', format: 'uuid' },
    provider: { type: 'string', example: 'internal-pdf' },
    artifact_type: { type: 'string', example: 'pdf' },
    status: { type: 'string', enum: ['completed', 'failed'] },
    error: { type: ['string', 'null'], description: 'Why a failed export failed; null otherwise' },
  },
};

export const WEBHOOK_DATA_SCHEMAS = { ScanWebhookData: SCAN_DATA, ExportWebhookData: EXPORT_DATA };

export function webhookEventSchema(type: WebhookEventType) {
  const data = type.startsWith('scan.') ? 'ScanWebhookData' : 'ExportWebhookData';
  return {
    type: 'object',
    required: ['type', 'timestamp', 'data'],
    properties: {
      type: { type: 'string', enum: [type] },
      timestamp: { type: 'string', format: 'date-time', description: 'When the event happened (not when this attempt was sent)' },
      data: { $ref: `#/components/schemas/${data}` },
    },
  };
}
