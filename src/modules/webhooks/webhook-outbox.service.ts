import { InjectQueue } from '@nestjs/bull';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Queue } from 'bull';
import type { EntityManager } from 'typeorm';
import { Clock } from '../../common/clock';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { WEBHOOKS_QUEUE } from '../../infra/queues/queue-names';
import type { WebhookEventType } from './webhook-events';
import { WebhookOutboxWriter } from './webhook-outbox-writer';
import { webhookJobOptions, type WebhookJobData } from './webhooks.jobs';

/**
 * Records events as deliveries in the transaction of the state change they report (an outbox, WebhookOutboxWriter),
 * and queues them once it commits: a rolled-back change sends nothing, and a crash between commit and queueing is
 * repaired by the reconciler in WebhooksProcessor. It also queues what other code of this process (BudgetService)
 * records through the writer.
 */
@Injectable()
export class WebhookOutboxService {
  private readonly logger = new Logger('WebhookOutbox');

  constructor(
    private readonly writer: WebhookOutboxWriter,
    @InjectQueue(WEBHOOKS_QUEUE) private readonly queue: Queue<WebhookJobData>,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    writer.onCommitted((ids) => {
      this.enqueue(ids).catch((error: unknown) =>
        this.logger.warn({ err: String(error) }, 'could not queue webhook deliveries; the reconciler will'),
      );
    });
  }

  record(manager: EntityManager, accountId: string, type: WebhookEventType, data: Record<string, unknown>): Promise<void> {
    return this.writer.record(manager, accountId, type, data, new Date(this.clock.now()));
  }

  async enqueue(deliveryIds: string[]): Promise<void> {
    for (const id of deliveryIds) await this.queue.add({ deliveryId: id }, webhookJobOptions(id, this.config.webhooks.maxAttempts));
  }
}
