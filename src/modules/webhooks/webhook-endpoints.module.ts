import { Module } from '@nestjs/common';
import { WebhookOutboxWriter } from './webhook-outbox-writer';
import { WebhooksRepository } from './webhooks.repository';
import { WebhooksService } from './webhooks.service';

/**
 * Endpoint registration, the delivery record and the outbox writer, without the queue: what the API, the workers
 * and the operator CLI share (BudgetService records `budget.low` through the writer in all three).
 */
@Module({
  providers: [WebhooksRepository, WebhooksService, WebhookOutboxWriter],
  exports: [WebhooksRepository, WebhooksService, WebhookOutboxWriter],
})
export class WebhookEndpointsModule {}
