import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { EstimateFingerprintDto } from './estimate-fingerprint.dto';

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
