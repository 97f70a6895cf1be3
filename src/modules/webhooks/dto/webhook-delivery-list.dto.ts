import { ApiProperty } from '@nestjs/swagger';
import { WebhookDeliveryDto } from './webhook-delivery.dto';

export class WebhookDeliveryListDto {
  @ApiProperty({ type: [WebhookDeliveryDto], description: 'Newest first, at most 100' })
  data: WebhookDeliveryDto[];
}
