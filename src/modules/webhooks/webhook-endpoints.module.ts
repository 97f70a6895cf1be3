import { Module } from '@nestjs/common';
import { WebhooksRepository } from './webhooks.repository';
import { WebhooksService } from './webhooks.service';

/** Endpoint registration and the delivery record without the queue: what the API and the operator CLI share. */
@Module({
  providers: [WebhooksRepository, WebhooksService],
  exports: [WebhooksRepository, WebhooksService],
})
export class WebhookEndpointsModule {}
