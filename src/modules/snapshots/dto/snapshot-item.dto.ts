import { ApiProperty } from '@nestjs/swagger';
import { CitationDto } from './citation.dto';
import { ItemVerificationDto } from './item-verification.dto';

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
