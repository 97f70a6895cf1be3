import { ApiProperty } from '@nestjs/swagger';
import type { WebhookDelivery } from '../entities/webhook-delivery.entity';
import { WEBHOOK_EVENTS } from '../webhook-events';

export class WebhookDeliveryDto {
  @ApiProperty({ format: 'uuid', description: 'Also the `webhook-id` header of every attempt: a repeated id is a retry or a replay' })
  id: string;

  @ApiProperty({ format: 'uuid' })
  endpoint_id: string;

  @ApiProperty({ enum: WEBHOOK_EVENTS })
  event_type: string;

  @ApiProperty({ enum: ['pending', 'delivered', 'failed'] })
  status: string;

  @ApiProperty({ description: 'Attempts made so far' })
  attempt_count: number;

  @ApiProperty({ type: 'object', additionalProperties: true, description: 'The JSON body sent: `{type, timestamp, data}`' })
  payload: Record<string, unknown>;

  @ApiProperty({ format: 'date-time', type: String, nullable: true, description: 'When the next attempt is due; null once final' })
  next_attempt_at: string | null;

  @ApiProperty({ format: 'date-time' })
  created_at: string;

  @ApiProperty({ format: 'date-time', type: String, nullable: true })
  delivered_at: string | null;
}

export function mapWebhookDelivery(delivery: WebhookDelivery): WebhookDeliveryDto {
  return {
    id: delivery.id,
    endpoint_id: delivery.endpointId,
    event_type: delivery.eventType,
    status: delivery.status,
    attempt_count: delivery.attemptCount,
    payload: delivery.payload,
    next_attempt_at: delivery.nextAttemptAt?.toISOString() ?? null,
    created_at: delivery.createdAt.toISOString(),
    delivered_at: delivery.deliveredAt?.toISOString() ?? null,
  };
}
