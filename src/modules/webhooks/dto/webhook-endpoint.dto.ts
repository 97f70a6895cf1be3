import { ApiProperty } from '@nestjs/swagger';
import { WEBHOOK_EVENTS, type WebhookEventType } from '../webhook-events';
import type { WebhookEndpoint } from '../entities/webhook-endpoint.entity';

export class WebhookEndpointDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ example: 'https://hooks.example.com/regulatory-scan' })
  url: string;

  @ApiProperty({ enum: WEBHOOK_EVENTS, isArray: true })
  events: WebhookEventType[];

  @ApiProperty({ type: String, nullable: true, example: 'Compliance Slack bridge' })
  description: string | null;

  @ApiProperty({ description: 'False when the account disabled the endpoint or its deliveries kept failing' })
  enabled: boolean;

  @ApiProperty({ type: String, nullable: true, description: 'Why the endpoint is disabled; null while enabled' })
  disabled_reason: string | null;

  @ApiProperty({
    format: 'date-time',
    type: String,
    nullable: true,
    description: 'When the secret replaced by the last rotation stops (or stopped) signing alongside the new one; null if none',
  })
  previous_secret_expires_at: string | null;

  @ApiProperty({ format: 'date-time' })
  created_at: string;

  @ApiProperty({ format: 'date-time' })
  updated_at: string;
}

export function mapWebhookEndpoint(endpoint: WebhookEndpoint): WebhookEndpointDto {
  return {
    id: endpoint.id,
    url: endpoint.url,
    events: endpoint.events as WebhookEventType[],
    description: endpoint.description,
    enabled: endpoint.disabledAt === null,
    disabled_reason: endpoint.disabledReason,
    previous_secret_expires_at: endpoint.previousSecretExpiresAt?.toISOString() ?? null,
    created_at: endpoint.createdAt.toISOString(),
    updated_at: endpoint.updatedAt.toISOString(),
  };
}
