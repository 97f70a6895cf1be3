import { Module } from '@nestjs/common';
import { WebhookDeliveriesController } from './webhook-deliveries.controller';
import { WebhookEndpointsController } from './webhook-endpoints.controller';
import { WebhookEndpointsModule } from './webhook-endpoints.module';
import { WebhookOutboxService } from './webhook-outbox.service';
import { WebhooksProcessor } from './webhooks.processor';

/** Signed webhooks: the endpoints API, the outbox other features record events into, and the delivery worker. */
@Module({
  imports: [WebhookEndpointsModule],
  controllers: [WebhookEndpointsController, WebhookDeliveriesController],
  providers: [WebhookOutboxService, WebhooksProcessor],
  exports: [WebhookOutboxService],
})
export class WebhooksModule {}
