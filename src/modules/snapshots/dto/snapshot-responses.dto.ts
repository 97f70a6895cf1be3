import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { DRIFT_FIELDS } from '../drift';
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

export class PaginationDto {
  @ApiProperty({ example: 50 })
  limit: number;
  @ApiProperty({ example: 0 })
  offset: number;
  @ApiProperty({ example: 132, description: 'Snapshots matching the filters' })
  total: number;
}

export class SnapshotListDto {
  @ApiProperty({ type: [SnapshotListItemDto], description: 'Newest first' })
  data: SnapshotListItemDto[];
  @ApiProperty({ type: PaginationDto })
  pagination: PaginationDto;
}

export class CitationDto {
  @ApiProperty({ example: 3, description: 'Prose refers to it as [[cite:3]] (markers are stripped on reads)' })
  id: number;
  @ApiProperty({ format: 'uri' })
  url: string;
  @ApiProperty()
  title: string;
  @ApiProperty()
  publisher: string;
  @ApiProperty({ type: String, format: 'date', nullable: true })
  published_at: string | null;
}

export class ItemVerificationDto {
  @ApiProperty({ enum: ['verified', 'unverified', 'disputed'] })
  status: string;
  @ApiProperty({ type: 'array', items: { type: 'object', additionalProperties: true } })
  passes: Record<string, unknown>[];
}

export class SnapshotItemDto {
  @ApiProperty({ description: 'Stable across snapshots for the same real-world instrument', example: 'eu-amlr' })
  id: string;
  @ApiProperty()
  title: string;
  @ApiProperty({ example: 'EU' })
  jurisdiction: string;
  @ApiProperty({ example: 'AML / KYC' })
  area: string;
  @ApiProperty({ example: 'European Commission' })
  regulator: string;
  @ApiProperty({ example: 'regulation', description: 'regulation, guidance, consultation, standard, …' })
  instrument_type: string;
  @ApiProperty({ enum: ['proposed', 'consultation', 'adopted', 'in_force', 'applies'] })
  stage: string;
  @ApiProperty({ format: 'date' })
  key_date: string;
  @ApiProperty({ enum: ['confirmed', 'expected', 'speculative'] })
  date_confidence: string;
  @ApiProperty({ enum: ['high', 'medium', 'low'] })
  impact: string;
  @ApiProperty()
  summary: string;
  @ApiProperty()
  implications: string;
  @ApiProperty({ type: [CitationDto] })
  citations: CitationDto[];
  @ApiProperty({ type: ItemVerificationDto })
  verification: ItemVerificationDto;
}

export class SnapshotTrendDto {
  @ApiProperty()
  id: string;
  @ApiProperty()
  title: string;
  @ApiProperty()
  description: string;
  @ApiProperty({ type: [String] })
  item_ids: string[];
  @ApiProperty({ type: [String] })
  jurisdictions: string[];
  @ApiProperty({ type: [String] })
  areas: string[];
  @ApiProperty({ enum: ['rising', 'steady', 'fading'] })
  momentum: string;
}

export class SnapshotItemsDto {
  @ApiProperty({ type: [SnapshotItemDto], nullable: true, description: 'null when the envelope has no items key' })
  data: SnapshotItemDto[] | null;
}

export class SnapshotTrendsDto {
  @ApiProperty({ type: [SnapshotTrendDto], nullable: true, description: 'null when the envelope has no trends key' })
  data: SnapshotTrendDto[] | null;
}

export class ExecutiveSummaryDto {
  @ApiProperty()
  bottom_line: string;
  @ApiProperty({ type: [String] })
  priorities: string[];
}

export class SnapshotExecutiveSummaryDto {
  @ApiProperty({ type: ExecutiveSummaryDto, nullable: true, description: 'null when the envelope has no executive_summary key' })
  data: ExecutiveSummaryDto | null;
}

export class ExecutiveNarrativeDto {
  @ApiProperty({ description: 'Prose; citation markers stripped' })
  executive_narrative: string;
  @ApiProperty({ example: 'en', description: 'The language served' })
  language: string;
}

export class DriftSummaryDto {
  @ApiProperty()
  added: number;
  @ApiProperty()
  removed: number;
  @ApiProperty()
  changed: number;
  @ApiProperty()
  unchanged: number;
}

const ANY_VALUE = {
  oneOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }, { type: 'object' }, { type: 'array', items: {} }, { type: 'null' }],
};

export class DriftFieldChangeDto {
  @ApiProperty({ enum: DRIFT_FIELDS })
  field: string;
  @ApiProperty({ ...ANY_VALUE, description: 'Value in the baseline (null when absent)' })
  before: unknown;
  @ApiProperty({ ...ANY_VALUE, description: 'Value in this snapshot (null when absent)' })
  after: unknown;
}

export class DriftChangedItemDto {
  @ApiProperty()
  item_id: string;
  @ApiProperty({ description: "The item's current title" })
  title: string;
  @ApiProperty({ type: [DriftFieldChangeDto] })
  fields: DriftFieldChangeDto[];
}

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

export class BriefingDto {
  @ApiProperty({ description: 'false for snapshots predating the sub-editor or whose pass failed; the other fields are then absent' })
  available: boolean;
  @ApiPropertyOptional()
  briefing_headline?: string;
  @ApiPropertyOptional()
  briefing_standfirst?: string;
  @ApiPropertyOptional({ type: [String], description: 'Short labels with jurisdiction tags, e.g. "[EU] AMLR applies: 10 Jul 2027"' })
  priorities?: string[];
  @ApiPropertyOptional()
  bottom_line_tight?: string;
  @ApiPropertyOptional()
  pull_quote?: string;
  @ApiPropertyOptional({ example: 'intensifying' })
  sentiment_label?: string;
  @ApiPropertyOptional()
  sentiment_rationale?: string;
}
