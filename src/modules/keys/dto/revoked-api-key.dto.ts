import { ApiProperty } from '@nestjs/swagger';

export class RevokedApiKeyDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ format: 'date-time' })
  revoked_at: string;
}
