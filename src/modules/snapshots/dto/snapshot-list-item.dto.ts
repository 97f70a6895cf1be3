import { ApiProperty } from '@nestjs/swagger';
import { SNAPSHOT_KINDS } from '../../../domain/snapshot-kinds';

export class SnapshotListItemDto {
  @ApiProperty({ format: 'uuid' })
  id: string;
  @ApiProperty({ example: 'Regulatory horizon: EU, UK · Payments · 12 months (2026-11-22)' })
  title: string;
  @ApiProperty({ format: 'uuid', description: 'The scan that produced the snapshot' })
  scan_id: string;
  @ApiProperty({ example: 'v4' })
  engine: string;
  @ApiProperty({ example: 12, description: 'Months' })
  horizon: number;
  @ApiProperty({ type: [String], example: ['EU', 'UK'] })
  jurisdictions: string[];
  @ApiProperty({ type: [String], example: ['Payments'] })
  areas: string[];
  @ApiProperty({ example: 14 })
  item_count: number;
  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'Reconciled actual (may be fractional) when available, else the whole-cent estimate',
  })
  cost_cents: number | null;
  @ApiProperty({ format: 'date-time' })
  created_at: string;
  @ApiProperty({ enum: SNAPSHOT_KINDS, description: 'A council run stores a composite and its two seats' })
  kind: string;
}
