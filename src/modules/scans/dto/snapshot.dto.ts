import { ApiProperty } from '@nestjs/swagger';
import { SnapshotEnvelopeDto } from '../../snapshots/dto/snapshot-envelope.dto';
import { ResolvedScanConfigDto } from './resolved-scan-config.dto';

export class SnapshotDto {
  @ApiProperty({ format: 'uuid' })
  id: string;
  @ApiProperty({ example: 'Regulatory horizon: EU, UK · AML / KYC, Payments · 12 months (2026-11-24)' })
  title: string;
  @ApiProperty({ type: ResolvedScanConfigDto, description: 'The scan configuration used, defaults resolved' })
  config: ResolvedScanConfigDto;
  @ApiProperty({ type: SnapshotEnvelopeDto, description: 'The snapshot envelope (open: new keys may appear)' })
  data: SnapshotEnvelopeDto;
  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'Reconciled actual (may be fractional) when available, else the whole-cent estimate',
  })
  cost_cents: number | null;
  @ApiProperty({ format: 'date-time' })
  created_at: string;
}
