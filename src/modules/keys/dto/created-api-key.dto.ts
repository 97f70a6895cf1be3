import { ApiProperty } from '@nestjs/swagger';
import { ApiKeyDto } from './api-key.dto';

export class CreatedApiKeyDto extends ApiKeyDto {
  @ApiProperty({ description: 'The raw key, shown exactly once', example: 'rgs_live_AbCdEfGhIjKlMnOpQrStUvWxYz012345' })
  key: string;
}
