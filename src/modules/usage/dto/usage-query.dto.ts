import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { IsDateTimeParam } from '../../../common/validation/date-time-param';

export const USAGE_GROUPS = ['day', 'week', 'month', 'api_key', 'endpoint'] as const;
export type UsageGroup = (typeof USAGE_GROUPS)[number];

export class UsageQueryDto {
  @ApiPropertyOptional({ format: 'date-time', description: 'Start of the range (inclusive); default 30 days before `to`' })
  @IsOptional()
  @IsDateTimeParam()
  from?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'End of the range (exclusive); default now' })
  @IsOptional()
  @IsDateTimeParam()
  to?: string;

  @ApiPropertyOptional({ enum: USAGE_GROUPS, default: 'day' })
  @IsOptional()
  @IsIn(USAGE_GROUPS, { message: `group_by must be one of ${USAGE_GROUPS.join(', ')}` })
  group_by?: UsageGroup;
}
