import { ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { ApiOpenSchema } from '../../../common/openapi/api-open-schema.decorator';
import { AuditorSidecarDto } from './auditor-sidecar.dto';
import { BriefingBlockDto } from './briefing-block.dto';
import { EnvelopeTranslationDto } from './envelope-translation.dto';
import { ExecutiveSummaryDto } from './executive-summary.dto';
import { SnapshotItemDto } from './snapshot-item.dto';
import { SnapshotMetaDto } from './snapshot-meta.dto';
import { SnapshotTrendDto } from './snapshot-trend.dto';

/**
 * `data` of a snapshot (src/engine/envelope.types.ts). Open: keys may be added within v1, and readers keep the ones
 * they do not know. Every key is optional, as the sub-resource reads answer `null` for a missing one.
 */
@ApiOpenSchema('The snapshot envelope. Open: new keys may appear within v1; keep the ones you do not know.')
export class SnapshotEnvelopeDto {
  @ApiPropertyOptional({ type: [SnapshotItemDto], description: 'Regulatory items, most important first' })
  items?: SnapshotItemDto[];
  @ApiPropertyOptional({ type: [SnapshotTrendDto], description: 'Cross-item trends' })
  trends?: SnapshotTrendDto[];
  @ApiPropertyOptional({ type: ExecutiveSummaryDto })
  executive_summary?: ExecutiveSummaryDto;
  @ApiPropertyOptional({
    description: 'Prose; [[cite:N]] markers are kept in the sync 200 and live `complete` events, stripped on reads from storage',
  })
  executive_narrative?: string;
  @ApiPropertyOptional({
    type: BriefingBlockDto,
    description: "The sub-editor's block; absent on snapshots predating it or whose pass failed",
  })
  _briefing?: BriefingBlockDto;
  @ApiPropertyOptional({ type: AuditorSidecarDto })
  auditor?: AuditorSidecarDto;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { $ref: getSchemaPath(EnvelopeTranslationDto) },
    description:
      'Language code -> translated prose, for the requested translationLanguages a translation provider produced (empty without one)',
  })
  translations?: Record<string, EnvelopeTranslationDto>;
  @ApiPropertyOptional({ type: SnapshotMetaDto })
  _meta?: SnapshotMetaDto;
}
