import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

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
