import { ApiProperty } from '@nestjs/swagger';

export class BudgetDto {
  @ApiProperty({ enum: ['USD'] })
  currency: 'USD';
  @ApiProperty({ example: 10000, description: 'Money put into the pool, in cents' })
  pool_cents: number;
  @ApiProperty({ example: 312.5, description: 'Settled spend (may be fractional for reconciled provider actuals)' })
  spent_cents: number;
  @ApiProperty({ example: 50, description: 'Held for running scans' })
  reserved_cents: number;
  @ApiProperty({ example: 9637.5, description: 'pool - spent - reserved' })
  remaining_cents: number;
  @ApiProperty({ format: 'date-time' })
  updated_at: string;
}
