import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ApiOpenSchema } from '../../../common/openapi/api-open-schema.decorator';
import { CitationDto } from './citation.dto';
import { ItemMilestoneDto } from './item-milestone.dto';
import { ItemVerificationDto } from './item-verification.dto';

@ApiOpenSchema('A regulatory item. Open: optional fields are added within v1 (as milestone, key_date_precision, timeline and areas were).')
export class SnapshotItemDto {
  @ApiProperty({ description: 'Stable across snapshots for the same real-world instrument', example: 'eu-amlr' })
  id: string;
  @ApiProperty({ example: 'Anti-Money Laundering Regulation (AMLR)' })
  title: string;
  @ApiProperty({ example: 'EU' })
  jurisdiction: string;
  @ApiProperty({ example: 'AML / KYC', description: 'The requested area most central to the instrument: the one it is filed under' })
  area: string;
  @ApiPropertyOptional({
    type: [String],
    example: ['AML / KYC', 'Digital Assets / Crypto'],
    description: 'Every area the instrument carries, its main area first; `area` is one of them (offline engine)',
  })
  areas?: string[];
  @ApiProperty({ example: 'European Commission' })
  regulator: string;
  @ApiProperty({ example: 'regulation', description: 'regulation, guidance, consultation, standard, …' })
  instrument_type: string;
  @ApiProperty({ enum: ['proposed', 'consultation', 'adopted', 'in_force', 'applies'] })
  stage: string;
  @ApiProperty({
    format: 'date',
    example: '2027-07-10',
    description: 'The next key date inside the horizon; for a period (see key_date_precision) its last day',
  })
  key_date: string;
  @ApiPropertyOptional({
    enum: ['day', 'month', 'quarter', 'half', 'year'],
    description: 'How exact key_date is; absent means `day`. A `half` date of 2026-12-31 means "H2 2026".',
  })
  key_date_precision?: string;
  @ApiPropertyOptional({ example: 'General application of the single AML/CFT rulebook', description: 'What happens on the key date' })
  milestone?: string;
  @ApiPropertyOptional({
    type: [ItemMilestoneDto],
    description:
      "The instrument's milestones inside the horizon and those that slipped or are unconfirmed, ascending, each citing the document that states its date (offline engine)",
  })
  timeline?: ItemMilestoneDto[];
  @ApiProperty({ enum: ['confirmed', 'expected', 'speculative'] })
  date_confidence: string;
  @ApiProperty({ enum: ['high', 'medium', 'low'] })
  impact: string;
  @ApiProperty({ description: 'Prose; reads from storage strip its [[cite:N]] markers' })
  summary: string;
  @ApiProperty({ description: 'What it means for a firm; prose like summary' })
  implications: string;
  @ApiProperty({ type: [CitationDto], description: 'Sources, referred to from prose as [[cite:N]]' })
  citations: CitationDto[];
  @ApiProperty({ type: ItemVerificationDto })
  verification: ItemVerificationDto;
}
