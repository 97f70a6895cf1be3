import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { SNAPSHOT_ID_PLACEHOLDER } from './export-openapi.examples';

export class CreateExportDto {
  @ApiProperty({
    // No `format: uuid`: the placeholder example (see SNAPSHOT_ID_PLACEHOLDER) would not validate against it.
    example: SNAPSHOT_ID_PLACEHOLDER,
    description:
      'The UUID of one of your snapshots: `snapshot_id` from POST /v1/scans, or an id from GET /v1/snapshots; replace the example. Not a UUID: 422; a snapshot of another account, or none: 404 `not_found`.',
  })
  snapshot_id: string;

  @ApiProperty({ example: 'internal-pdf', description: 'A provider from GET /v1/meta/export-types' })
  provider: string;

  @ApiProperty({ example: 'pdf', description: 'Must form a registered pair with provider (GET /v1/meta/export-types)' })
  artifact_type: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string' },
    example: { list: 'all_matched' },
    description:
      "String values validated against the type's options_schema (internal-pdf takes `list`; internal-pptx `theme`, `targetLanguage`, …); unknown names and values outside an enum are 422",
  })
  options?: Record<string, string>;
}
