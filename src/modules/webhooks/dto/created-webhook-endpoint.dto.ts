import { ApiProperty } from '@nestjs/swagger';
import { WebhookEndpointDto } from './webhook-endpoint.dto';

export class CreatedWebhookEndpointDto extends WebhookEndpointDto {
  @ApiProperty({ description: 'The signing secret, shown exactly once', example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' })
  secret: string;
}
