import { ApiProperty } from '@nestjs/swagger';

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
