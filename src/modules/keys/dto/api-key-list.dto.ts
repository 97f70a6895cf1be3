import { ApiProperty } from '@nestjs/swagger';
import { ApiKeyDto } from './api-key.dto';

export class ApiKeyListDto {
  @ApiProperty({ type: [ApiKeyDto] })
  data: ApiKeyDto[];
}
