import { InjectQueue } from '@nestjs/bull';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Queue } from 'bull';
import type { EntityManager } from 'typeorm';
import { Clock } from '../../common/clock';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { afterCommit } from '../../infra/metrics/after-commit';
import { WEBHOOKS_QUEUE } from '../../infra/queues/queue-names';
import type { WebhookEventType } from './webhook-events';
import { webhookJobOptions, type WebhookJobData } from './webhooks.jobs';
import { WebhooksRepository } from './webhooks.repository';

/**
 * Records events as deliveries in the transaction of the state change they report (an outbox), and queues them once
 * it commits: a rolled-back change sends nothing, and a crash between commit and queueing is repaired by the
 * reconciler in WebhooksProcessor.
 */
@Injectable()
export class WebhookOutboxService {
  private readonly logger = new Logger('WebhookOutbox');

  constructor(
    private readonly repository: WebhooksRepository,
    @InjectQueue(WEBHOOKS_QUEUE) private readonly queue: Queue<WebhookJobData>,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async record(manager: EntityManager, accountId: string, type: WebhookEventType, data: Record<string, unknown>): Promise<void> {
    const endpoints = await this.repository.subscribedEndpoints(manager, accountId, type);
    if (endpoints.length === 0) return;
    const payload = { type, timestamp: new Date(this.clock.now()).toISOString(), data };
    const deliveries = await this.repository.insertDeliveries(
      manager,
      endpoints.map((endpoint) => ({ endpointId: endpoint.id, accountId, eventType: type, payload })),
    );
    afterCommit(manager, () => {
      this.enqueue(deliveries.map((delivery) => delivery.id)).catch((error: unknown) =>
        this.logger.warn({ err: String(error) }, 'could not queue webhook deliveries; the reconciler will'),
      );
    });
  }

  async enqueue(deliveryIds: string[]): Promise<void> {
    for (const id of deliveryIds) await this.queue.add({ deliveryId: id }, webhookJobOptions(id, this.config.webhooks.maxAttempts));
  }
}
