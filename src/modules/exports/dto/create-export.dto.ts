import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class CreateExportDto {
  @ApiProperty({ format: 'uuid', description: 'A snapshot of your account' })
  snapshot_id: string;

  @ApiProperty({ example: 'internal-pptx', description: 'See GET /v1/meta/export-types' })
  provider: string;

  @ApiProperty({ example: 'slide-deck', description: 'Must form a registered pair with provider' })
  artifact_type: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string' },
    example: { theme: 'light', targetLanguage: 'fr' },
    description: "String values validated against the type's options_schema",
  })
  options?: Record<string, string>;
}
