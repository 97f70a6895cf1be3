import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, IsUUID, Max, Min } from 'class-validator';

export class CreateExportDto {
  @ApiProperty({ format: 'uuid', description: 'A snapshot of your account' })
  snapshot_id: string;

  @ApiProperty({ example: 'internal-pptx', description: 'See GET /v1/meta/export-types' })
  provider: string;

  @ApiProperty({ example: 'slide-deck', description: 'Must form a registered pair with provider' })
  artifact_type: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string' },
    example: { theme: 'light', targetLanguage: 'fr' },
    description: "String values validated against the type's options_schema",
  })
  options?: Record<string, string>;
}

export class ExportJobDto {
  @ApiProperty({ format: 'uuid' })
  id: string;
  @ApiProperty({ enum: ['queued', 'processing', 'completed', 'failed', 'cancelled', 'undelivered'] })
  status: string;
  @ApiProperty({ example: 'slide-deck' })
  artifact_type: string;
  @ApiProperty({ example: 'internal-pptx' })
  provider: string;
  @ApiProperty({ format: 'uuid' })
  snapshot_id: string;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' }, description: 'The options used, defaults filled' })
  options: Record<string, string>;
  @ApiProperty({ format: 'date-time' })
  created_at: string;
  @ApiProperty({ format: 'date-time', type: String, nullable: true })
  completed_at: string | null;
  @ApiProperty({ example: 0, description: 'US cents; internal types cost 0' })
  cost_cents: number;
  @ApiProperty({ type: String, nullable: true })
  error: string | null;
  @ApiProperty({ type: String, nullable: true, example: 'application/pdf' })
  result_mime: string | null;
  @ApiProperty({ type: String, nullable: true, example: 'regulatory-horizon-eu-uk-2026-11-22.pdf' })
  result_filename: string | null;
  @ApiProperty({ type: Number, nullable: true })
  result_size_bytes: number | null;
  @ApiProperty({ type: String, nullable: true, description: 'Set only when completed', example: '/v1/exports/…/download' })
  download_url: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'The language actually produced' })
  effective_locale: string | null;
  @ApiProperty({ type: String, nullable: true, enum: ['requested', 'fallback_missing_translation', 'fallback_english_only', 'default'] })
  locale_provenance: string | null;
}

export class ExportCreatedDto {
  @ApiProperty({ format: 'uuid' })
  export_job_id: string;
  @ApiProperty({ enum: ['queued'] })
  status: 'queued';
  @ApiProperty({ example: '/v1/exports/…' })
  status_url: string;
  @ApiProperty({ type: String, nullable: true, description: 'null until the job completes' })
  download_url: string | null;
}

export class ExportListDto {
  @ApiProperty({ type: [ExportJobDto] })
  data: ExportJobDto[];
}

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

export const EXPORT_STATUS_FILTER = ['queued', 'processing', 'completed', 'failed', 'cancelled', 'undelivered'];
