import { ApiProperty } from '@nestjs/swagger';

export class UsageTotalsDto {
  @ApiProperty({ example: 42 })
  requests: number;
  @ApiProperty({ example: 3, description: 'Scans created' })
  scans: number;
  @ApiProperty({ example: 2, description: 'Exports created' })
  exports: number;
  @ApiProperty({ example: 187.5, description: 'Money charged to the pool, in US cents' })
  cost_cents: number;
}
