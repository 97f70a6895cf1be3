import { SCHEDULED_BACKOFF } from '../../infra/queues/retry-backoff';

/** A `webhooks` queue job: the delivery id only; its state and attempts live in PostgreSQL. */
export interface WebhookJobData {
  deliveryId: string;
}

export const webhookJobId = (deliveryId: string) => `webhook:${deliveryId}`;

/** Deterministic id (duplicate enqueues collapse); the processor names each retry's delay (exponential back-off). */
export const webhookJobOptions = (deliveryId: string, maxAttempts: number) => ({
  jobId: webhookJobId(deliveryId),
  attempts: maxAttempts,
  backoff: { type: SCHEDULED_BACKOFF },
});
