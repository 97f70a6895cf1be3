import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { IsDateTimeParam } from '../../../common/validation/date-time-param';
import { IsStorableText } from '../../../common/validation/storable-text';
import { MAX_AREA_LENGTH, MAX_JURISDICTION_LENGTH } from '../../scans/validation/scan-config.validator';

export const DEFAULT_LIST_LIMIT = 50;

export const MAX_LIST_LIMIT = 100;

/** Query strings of digits become integers; anything else stays as sent, so @IsInt reports it (`1.5`, `abc`, ``). */
const toInteger = ({ value }: { value: unknown }) => (typeof value === 'string' && /^[+-]?\d+$/.test(value) ? Number(value) : value);

/** GET /v1/snapshots. Unknown parameters are ignored, except `starred` (422 `unknown_parameter`). */
export class ListSnapshotsQueryDto {
  @ApiPropertyOptional({ format: 'date-time', description: 'Only snapshots created at or after this instant (inclusive)' })
  @IsOptional()
  @IsDateTimeParam()
  from?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Only snapshots created before this instant (exclusive)' })
  @IsOptional()
  @IsDateTimeParam()
  to?: string;

  // No example: Swagger UI would send it as a filter.
  @ApiPropertyOptional({ description: 'Only snapshots whose config lists this jurisdiction (exact entry, case-insensitive), such as `EU`' })
  @IsOptional()
  @IsString({ message: 'jurisdiction must be a single string' })
  @MaxLength(MAX_JURISDICTION_LENGTH, {
    message: `jurisdiction must be at most ${MAX_JURISDICTION_LENGTH} characters, like the scan entries it matches`,
  })
  @IsStorableText()
  jurisdiction?: string;

  @ApiPropertyOptional({ description: 'Only snapshots whose config lists this area (exact entry, case-insensitive), such as `Payments`' })
  @IsOptional()
  @IsString({ message: 'area must be a single string' })
  @MaxLength(MAX_AREA_LENGTH, { message: `area must be at most ${MAX_AREA_LENGTH} characters, like the scan entries it matches` })
  @IsStorableText()
  area?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_LIST_LIMIT, default: DEFAULT_LIST_LIMIT, description: 'Page size' })
  @IsOptional()
  @Transform(toInteger)
  @IsInt({ message: `limit must be an integer from 1 to ${MAX_LIST_LIMIT}` })
  @Min(1, { message: `limit must be an integer from 1 to ${MAX_LIST_LIMIT}` })
  @Max(MAX_LIST_LIMIT, { message: `limit must be an integer from 1 to ${MAX_LIST_LIMIT}` })
  limit?: number;

  @ApiPropertyOptional({ type: 'integer', minimum: 0, default: 0, description: 'Snapshots to skip (newest first)' })
  @IsOptional()
  @Transform(toInteger)
  @IsInt({ message: 'offset must be a non-negative integer' })
  @Min(0, { message: 'offset must be a non-negative integer' })
  @Max(Number.MAX_SAFE_INTEGER, { message: 'offset must be a non-negative integer' })
  offset?: number;
}
