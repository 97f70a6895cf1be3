/** The events an endpoint can subscribe to (docs/decisions.md "Webhooks"). */
export const WEBHOOK_EVENTS = ['scan.completed', 'scan.failed', 'scan.cancelled', 'export.completed', 'export.failed', 'budget.low'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number];
