import { ApiProperty } from '@nestjs/swagger';

export class ExecutiveNarrativeDto {
  @ApiProperty({ description: 'Prose; citation markers stripped' })
  executive_narrative: string;
  @ApiProperty({ example: 'en', description: 'The language served' })
  language: string;
}
