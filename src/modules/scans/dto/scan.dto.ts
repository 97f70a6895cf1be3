import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class ScanProgressDto {
  @ApiProperty({ example: 'analyse' })
  phase: string;
  @ApiProperty({ example: 55, minimum: 0, maximum: 100 })
  percent: number;
  @ApiProperty({ example: 'Analysed 12 item(s) into 4 trend(s)' })
  message: string;
}

export class ScanStatusDto {
  @ApiProperty({ format: 'uuid' })
  id: string;
  @ApiProperty({ enum: ['running', 'completed', 'failed', 'cancelled'] })
  status: string;
  @ApiProperty({ type: ScanProgressDto })
  progress: ScanProgressDto;
  @ApiProperty({ format: 'uuid', type: String, nullable: true, description: 'Set once status is completed' })
  snapshot_id: string | null;
  @ApiProperty({ format: 'date-time' })
  created_at: string;
  @ApiProperty({ format: 'date-time', type: String, nullable: true })
  completed_at: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Failure message when failed' })
  error: string | null;
  @ApiProperty({ type: Number, nullable: true, description: 'Actual cost once known, else the pre-scan estimate, else null (US cents)' })
  cost_cents: number | null;
}

export class ScanCancelledDto {
  @ApiProperty({ format: 'uuid' })
  id: string;
  @ApiProperty({ enum: ['cancelled'] })
  status: 'cancelled';
}

export class ScanAcceptedDto {
  @ApiProperty({ format: 'uuid' })
  scan_id: string;
  @ApiProperty({ enum: ['running'] })
  status: 'running';
  @ApiProperty({ example: '/v1/scans/5f0c7a1e-…' })
  status_url: string;
  @ApiProperty({ example: '/v1/scans/5f0c7a1e-…/stream' })
  stream_url: string;
  @ApiPropertyOptional({ description: 'Present when a sync request exceeded the sync wait' })
  message?: string;
}

export class SnapshotDto {
  @ApiProperty({ format: 'uuid' })
  id: string;
  @ApiProperty()
  title: string;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'The scan configuration used, defaults resolved' })
  config: Record<string, unknown>;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'The snapshot envelope (open: new keys may appear): items, trends, executive_summary, executive_narrative, _briefing, auditor, translations, _meta',
  })
  data: Record<string, unknown>;
  @ApiProperty({ type: Number, nullable: true, description: 'Reconciled actual (may be fractional) when available, else the whole-cent estimate' })
  cost_cents: number | null;
  @ApiProperty({ format: 'date-time' })
  created_at: string;
}

export class ScanFinishedDto {
  @ApiProperty({ format: 'uuid' })
  scan_id: string;
  @ApiProperty({ enum: ['completed', 'failed', 'cancelled'] })
  status: string;
  @ApiProperty({ format: 'uuid', type: String, nullable: true })
  snapshot_id: string | null;
  @ApiPropertyOptional({ type: SnapshotDto, description: 'When completed; prose keeps its [[cite:N]] markers' })
  snapshot?: SnapshotDto;
  @ApiPropertyOptional({ type: String, nullable: true, description: 'When failed or cancelled' })
  error?: string | null;
}

export class EstimateFingerprintDto {
  @ApiProperty() scan_mode: string;
  @ApiProperty() engine_version: string;
  @ApiProperty() jurisdiction_bucket: string;
  @ApiProperty() area_bucket: string;
  @ApiProperty() enabled_exports_count: number;
  @ApiProperty() provider_mix_hash: string;
  @ApiProperty() date_range_bucket: string;
}

export class ScanEstimateDto {
  @ApiProperty({ type: Number, nullable: true, description: 'US cents; null on a cold start' })
  low_cents: number | null;
  @ApiProperty({ type: Number, nullable: true })
  expected_cents: number | null;
  @ApiProperty({ type: Number, nullable: true })
  high_cents: number | null;
  @ApiProperty({ enum: ['high', 'medium', 'low', 'cold_start'] })
  confidence: string;
  @ApiProperty({ type: Number, nullable: true, enum: [1, 2, 3], description: '1 exact-match window, 2 one dimension relaxed, 3 global similarity-weighted mean' })
  tier: number | null;
  @ApiProperty({ description: 'Historical runs behind the estimate' })
  sample_size: number;
  @ApiPropertyOptional({ type: EstimateFingerprintDto, description: 'Absent on a cold start' })
  fingerprint?: EstimateFingerprintDto;
  @ApiProperty({ example: 'est-2026.11' })
  estimator_version: string;
  @ApiProperty({ example: 'v4', description: 'The engine assumed' })
  engine: string;
}
