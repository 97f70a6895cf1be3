import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { SnapshotItemDto } from './snapshot-item.dto';
import { DriftSummaryDto } from './drift-summary.dto';
import { DriftChangedItemDto } from './drift-changed-item.dto';
import { REMOVAL_REASONS, type RemovalReason } from '../drift';

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
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string', enum: [...REMOVAL_REASONS] },
    description:
      'Why each removed item (by id) is gone: dropped_by_cap (still matches, the item cap kept others), outside_scope (in the calendar but outside this scan\'s scope or window), left_calendar (no longer in the calendar), not_found_again (a web-sourced item this run did not find)',
    example: { 'eu-psd3': 'dropped_by_cap' },
  })
  removed_reasons?: Record<string, RemovalReason>;
}
