import { ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { IsStorableText } from '../../../common/validation/storable-text';
import { WEBHOOK_EVENTS, type WebhookEventType } from '../webhook-events';

export class UpdateWebhookEndpointDto {
  @ApiPropertyOptional({ description: 'A new https URL (same checks as at creation)', maxLength: 2048 })
  @IsOptional()
  @IsString({ message: 'url must be a string' })
  @MaxLength(2048, { message: 'url must be at most 2048 characters' })
  url?: string;

  @ApiPropertyOptional({ enum: WEBHOOK_EVENTS, isArray: true })
  @IsOptional()
  @IsArray({ message: 'events must be an array of event names' })
  @ArrayMinSize(1, { message: 'events must name at least one event' })
  @ArrayMaxSize(WEBHOOK_EVENTS.length, { message: `events has at most ${WEBHOOK_EVENTS.length} entries` })
  @IsIn(WEBHOOK_EVENTS, { each: true, message: `events may only contain ${WEBHOOK_EVENTS.join(', ')}` })
  events?: WebhookEventType[];

  @ApiPropertyOptional({ maxLength: 200 })
  @IsOptional()
  @IsString({ message: 'description must be a string' })
  @MaxLength(200, { message: 'description must be at most 200 characters' })
  @IsStorableText()
  description?: string;

  @ApiPropertyOptional({
    description: 'false stops deliveries (new events are not recorded); true resumes them and clears disabled_reason',
  })
  @IsOptional()
  @IsBoolean({ message: 'enabled must be a boolean' })
  enabled?: boolean;
}
