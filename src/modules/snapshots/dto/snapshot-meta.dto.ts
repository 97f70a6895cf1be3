import { ApiPropertyOptional } from '@nestjs/swagger';
import { ApiOpenSchema } from '../../../common/openapi/api-open-schema.decorator';

/** `_meta`: how the snapshot was made. Open: engines add their own keys (an LLM run adds model ids and `llm`). */
@ApiOpenSchema('How the snapshot was made; engines add keys of their own (open)')
export class SnapshotMetaDto {
  @ApiPropertyOptional({ enum: ['offline', 'llm'], description: '`offline`: written from the curated regulatory calendar, without an LLM' })
  engine_mode?: string;
  @ApiPropertyOptional({ example: 'v4' })
  engine?: string;
  @ApiPropertyOptional({ format: 'date', description: 'The day the scan ran; the horizon starts here' })
  scan_date?: string;
  @ApiPropertyOptional({ format: 'date', description: 'Last day of the horizon, inclusive' })
  window_end?: string;
  @ApiPropertyOptional({ type: 'integer', example: 12 })
  horizon_months?: number;
  @ApiPropertyOptional({ example: '2026-11-24', description: 'Version of the regulatory calendar read' })
  calendar_version?: string;
  @ApiPropertyOptional({ type: 'integer', description: 'Items kept' })
  selected_count?: number;
  @ApiPropertyOptional({ type: 'integer', description: 'Items matching the scope before the item cap' })
  matched_count?: number;
  @ApiPropertyOptional({ description: 'true when the item cap left matching items out' })
  capped?: boolean;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: '`{max_items, order}`: how the kept items were chosen' })
  selection?: Record<string, unknown>;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description:
      'Offline engine: counts over every matching instrument, not only the kept items: `{count, shown, by_impact, by_date_confidence, ' +
      'by_jurisdiction: [{id, matched, shown}], by_area: [{id, matched, shown}], by_year: [{year, matched}], ' +
      'by_quarter: [{quarter, milestones, by_jurisdiction}], undated_in_quarter}`. Every requested jurisdiction and area is listed, with 0 when nothing matched.',
  })
  matched_summary?: Record<string, unknown>;
  @ApiPropertyOptional({ type: [String], description: 'Requested jurisdictions resolved to calendar ids' })
  matched_jurisdictions?: string[];
  @ApiPropertyOptional({ type: [String], description: 'Requested jurisdictions that matched nothing' })
  unmatched_jurisdictions?: string[];
  @ApiPropertyOptional({ type: [String] })
  matched_areas?: string[];
  @ApiPropertyOptional({ type: [String] })
  unmatched_areas?: string[];
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: '`{requested, produced, skipped?, provider}`: which translationLanguages were produced, and why others were skipped',
  })
  translation?: Record<string, unknown>;
  @ApiPropertyOptional({
    example: 'fr',
    description: 'Set by `?language=` when a translation (or `simple`) was projected over the envelope',
  })
  language?: string;
  @ApiPropertyOptional({
    enum: ['impact', 'timeline', 'seat-a', 'seat-b'],
    description:
      'A council seat snapshot: its seat (`seat-a`/`seat-b` on LLM vendors; `impact`/`timeline` for the offline calendar council)',
  })
  council_seat?: string;
}
