import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, IsUUID, Max, Min } from 'class-validator';

export class ListExportsQueryDto {
  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsUUID('all', { message: 'snapshot_id must be a UUID' })
  snapshot_id?: string;

  @ApiPropertyOptional({ description: 'Comma-separated subset of queued, processing, completed, failed, cancelled, undelivered' })
  @IsOptional()
  @IsString({ message: 'status must be a comma-separated list' })
  status?: string;

  @ApiPropertyOptional({ minimum: 1, maximum: 100, default: 50 })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'limit must be an integer' })
  @Min(1, { message: 'limit must be between 1 and 100' })
  @Max(100, { message: 'limit must be between 1 and 100' })
  limit?: number;
}

/** The values `status` may list. */
export const EXPORT_STATUS_FILTER = ['queued', 'processing', 'completed', 'failed', 'cancelled', 'undelivered'];
