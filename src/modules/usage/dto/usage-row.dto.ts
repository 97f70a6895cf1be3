import { ApiProperty } from '@nestjs/swagger';
import { UsageTotalsDto } from './usage-totals.dto';

export class UsageRowDto extends UsageTotalsDto {
  @ApiProperty({ description: 'Day (YYYY-MM-DD), week start (YYYY-MM-DD, Monday), month (YYYY-MM), API key id (null for dashboard use) or endpoint', example: '2026-11-22', type: String, nullable: true })
  group: string | null;
}
