import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsDefined, IsIn, IsOptional, IsString, MaxLength, Validate } from 'class-validator';
import { IsStorableText } from '../../../common/validation/storable-text';
import { WEBHOOK_EVENTS, type WebhookEventType } from '../webhook-events';
import { WebhookSecretFormat } from './webhook-secret-format';

export class CreateWebhookEndpointDto {
  @ApiProperty({
    description: 'Where events are POSTed: an https URL on a public address (checked again at each delivery)',
    example: 'https://hooks.example.com/regulatory-scan',
    maxLength: 2048,
  })
  @IsDefined({ message: 'url is required' })
  @IsString({ message: 'url must be a string' })
  @MaxLength(2048, { message: 'url must be at most 2048 characters' })
  url: string;

  @ApiProperty({
    description: 'The events to receive',
    enum: WEBHOOK_EVENTS,
    isArray: true,
    example: ['scan.completed', 'export.completed'],
  })
  @IsDefined({ message: 'events is required' })
  @IsArray({ message: 'events must be an array of event names' })
  @ArrayMinSize(1, { message: 'events must name at least one event' })
  @ArrayMaxSize(WEBHOOK_EVENTS.length, { message: `events has at most ${WEBHOOK_EVENTS.length} entries` })
  @IsIn(WEBHOOK_EVENTS, { each: true, message: `events may only contain ${WEBHOOK_EVENTS.join(', ')}` })
  events: WebhookEventType[];

  @ApiPropertyOptional({
    description: 'A Standard Webhooks secret (`whsec_` and the base64 of 24 to 64 bytes); generated when omitted',
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    maxLength: 100,
  })
  @IsOptional()
  @IsString({ message: 'secret must be a string' })
  @Validate(WebhookSecretFormat)
  secret?: string;

  @ApiPropertyOptional({ description: 'A label to recognise the endpoint by', example: 'Compliance Slack bridge', maxLength: 200 })
  @IsOptional()
  @IsString({ message: 'description must be a string' })
  @MaxLength(200, { message: 'description must be at most 200 characters' })
  @IsStorableText()
  description?: string;
}
