import { ApiProperty } from '@nestjs/swagger';
import { WebhookAttemptDto } from './webhook-attempt.dto';
import { WebhookDeliveryDto } from './webhook-delivery.dto';

export class WebhookDeliveryDetailDto extends WebhookDeliveryDto {
  @ApiProperty({ type: [WebhookAttemptDto], description: 'Oldest first' })
  attempts: WebhookAttemptDto[];
}
