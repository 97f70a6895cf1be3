import type { WebhookEventType } from '../webhook-events';

/**
 * The JSON bodies webhooks carry, as OpenAPI 3.1 schemas (the `webhooks` section of /openapi.json). They describe
 * what ScansService.announce, ExportsProcessor.finish and BudgetService.watchRemaining record; test/webhooks.e2e-spec.ts checks the fields.
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

/** What BudgetService.watchRemaining records when a ledger change takes the remaining below the threshold. */
const BUDGET_LOW_DATA = {
  type: 'object',
  required: [
    'account_id',
    'currency',
    'pool_cents',
    'spent_cents',
    'reserved_cents',
    'remaining_cents',
    'threshold_percent',
    'threshold_cents',
  ],
  properties: {
    account_id: { type: 'string', description: "The account's id at the identity provider (the session's `account_id` claim)" },
    currency: { type: 'string', enum: ['USD'] },
    pool_cents: { type: 'number', description: 'Money put into the pool so far' },
    spent_cents: { type: 'number', description: 'Charged so far' },
    reserved_cents: { type: 'number', description: 'Held by work still running' },
    remaining_cents: { type: 'number', description: 'pool - spent - reserved, just after the change that crossed the threshold' },
    threshold_percent: { type: 'integer', description: 'BUDGET_LOW_THRESHOLD_PERCENT of the deployment' },
    threshold_cents: { type: 'number', description: 'threshold_percent of pool_cents: the event fires once remaining falls below it' },
  },
};

export const WEBHOOK_DATA_SCHEMAS = { ScanWebhookData: SCAN_DATA, ExportWebhookData: EXPORT_DATA, BudgetLowWebhookData: BUDGET_LOW_DATA };

const DATA_SCHEMA_OF_FAMILY: Record<string, keyof typeof WEBHOOK_DATA_SCHEMAS> = {
  scan: 'ScanWebhookData',
  export: 'ExportWebhookData',
  budget: 'BudgetLowWebhookData',
};

export function webhookEventSchema(type: WebhookEventType) {
  const data = DATA_SCHEMA_OF_FAMILY[type.split('.')[0]];
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
