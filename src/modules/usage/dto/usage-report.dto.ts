import { ApiProperty } from '@nestjs/swagger';
import { USAGE_GROUPS } from './usage-query.dto';

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

export class UsageRowDto extends UsageTotalsDto {
  @ApiProperty({ description: 'Day (YYYY-MM-DD), week start (YYYY-MM-DD, Monday), month (YYYY-MM), API key id (null for dashboard use) or endpoint', example: '2026-11-22', type: String, nullable: true })
  group: string | null;
}

export class UsageReportDto {
  @ApiProperty({ format: 'date-time' })
  from: string;
  @ApiProperty({ format: 'date-time' })
  to: string;
  @ApiProperty({ enum: USAGE_GROUPS })
  group_by: string;
  @ApiProperty({ type: [UsageRowDto] })
  data: UsageRowDto[];
  @ApiProperty({ type: UsageTotalsDto })
  totals: UsageTotalsDto;
}

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
