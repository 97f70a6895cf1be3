import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { afterCommit } from '../../infra/metrics/after-commit';
import type { WebhookEventType } from './webhook-events';
import { WebhooksRepository } from './webhooks.repository';

/** Told the ids of deliveries a committed transaction recorded (WebhookOutboxService queues them). */
export type CommittedDeliveriesListener = (deliveryIds: string[]) => void;

/**
 * The outbox itself: one pending delivery per enabled endpoint subscribed to the event, inserted in the caller's
 * transaction. It needs neither the queue nor the clock, so code that runs in the operator CLI (BudgetService) can
 * record events too. After commit the listener of this process, where there is one, queues the deliveries at once;
 * rows recorded where none listens (the CLI) are picked up by the workers' sweep (WebhooksProcessor.reconcile).
 */
@Injectable()
export class WebhookOutboxWriter {
  private listener: CommittedDeliveriesListener | undefined;

  constructor(private readonly repository: WebhooksRepository) {}

  onCommitted(listener: CommittedDeliveriesListener): void {
    this.listener = listener;
  }

  async record(
    manager: EntityManager,
    accountId: string,
    type: WebhookEventType,
    data: Record<string, unknown>,
    occurredAt: Date = new Date(),
  ): Promise<void> {
    const endpoints = await this.repository.subscribedEndpoints(manager, accountId, type);
    if (endpoints.length === 0) return;
    const payload = { type, timestamp: occurredAt.toISOString(), data };
    const deliveries = await this.repository.insertDeliveries(
      manager,
      endpoints.map((endpoint) => ({ endpointId: endpoint.id, accountId, eventType: type, payload })),
    );
    const ids = deliveries.map((delivery) => delivery.id);
    afterCommit(manager, () => this.listener?.(ids));
  }
}
