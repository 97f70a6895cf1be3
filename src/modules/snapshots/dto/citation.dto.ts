import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

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
  @ApiPropertyOptional({
    enum: ['official', 'secondary'],
    description: '`official`: the regulator, legislature or official journal; `secondary`: a law-firm or industry briefing (labelled as such in every export)',
  })
  kind?: string;
  @ApiPropertyOptional({ example: 'pt', description: 'Language of the document when it is not English (BCP 47)' })
  language?: string;
}
