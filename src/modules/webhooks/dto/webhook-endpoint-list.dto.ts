import { ApiProperty } from '@nestjs/swagger';
import { WebhookEndpointDto } from './webhook-endpoint.dto';

export class WebhookEndpointListDto {
  @ApiProperty({ type: [WebhookEndpointDto] })
  data: WebhookEndpointDto[];
}
