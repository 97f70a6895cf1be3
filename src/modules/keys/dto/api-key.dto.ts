import { ApiProperty } from '@nestjs/swagger';

export class ApiKeyDto {
  @ApiProperty({ format: 'uuid', example: '1b4e28ba-2fa1-41d2-883f-0016d3cca427' })
  id: string;

  @ApiProperty({ example: 'CI pipeline' })
  name: string;

  @ApiProperty({ description: 'Masked key prefix; the raw key is never shown again', example: 'rgs_live_AbCd…' })
  prefix: string;

  @ApiProperty({ format: 'date-time' })
  created_at: string;

  @ApiProperty({ format: 'date-time', nullable: true, type: String, description: 'Null until the key is first used; updated at most once a minute' })
  last_used_at: string | null;

  @ApiProperty({ format: 'date-time', nullable: true, type: String, description: 'Null while the key is active' })
  revoked_at: string | null;
}
