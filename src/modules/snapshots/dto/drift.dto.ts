import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { SnapshotItemDto } from './snapshot-item.dto';
import { DriftSummaryDto } from './drift-summary.dto';
import { DriftChangedItemDto } from './drift-changed-item.dto';

export class DriftDto {
  @ApiProperty({
    description: 'false when there is no prior comparable snapshot (normal on a first run); the other fields are then absent',
  })
  available: boolean;
  @ApiPropertyOptional({ format: 'uuid' })
  baseline_snapshot_id?: string;
  @ApiPropertyOptional({ format: 'date-time' })
  baseline_created_at?: string;
  @ApiPropertyOptional({ type: DriftSummaryDto })
  summary?: DriftSummaryDto;
  @ApiPropertyOptional({ type: [SnapshotItemDto], description: 'Items this snapshot has and the baseline lacks' })
  added?: SnapshotItemDto[];
  @ApiPropertyOptional({ type: [SnapshotItemDto], description: 'Baseline items this snapshot lacks' })
  removed?: SnapshotItemDto[];
  @ApiPropertyOptional({ type: [DriftChangedItemDto] })
  changed?: DriftChangedItemDto[];
}
