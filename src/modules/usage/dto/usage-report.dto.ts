import { ApiProperty } from '@nestjs/swagger';
import { USAGE_GROUPS } from './usage-query.dto';
import { UsageTotalsDto } from './usage-totals.dto';
import { UsageRowDto } from './usage-row.dto';

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
