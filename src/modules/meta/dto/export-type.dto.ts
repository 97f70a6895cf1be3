import { ApiProperty, getSchemaPath } from '@nestjs/swagger';
import { OptionSchemaDto } from './option-schema.dto';

export class ExportTypeDto {
  @ApiProperty({ example: 'internal-pptx:slide-deck' })
  key: string;
  @ApiProperty()
  label: string;
  @ApiProperty({ example: 'internal-pptx' })
  provider: string;
  @ApiProperty({ example: 'slide-deck' })
  artifact_type: string;
  @ApiProperty({ example: 'slides' })
  group: string;
  @ApiProperty()
  provider_label: string;
  @ApiProperty({ enum: ['notebook', 'voicePodcast'], nullable: true, type: String })
  requires_provider: string | null;
  @ApiProperty()
  has_options: boolean;
  @ApiProperty({
    type: 'object',
    additionalProperties: { $ref: getSchemaPath(OptionSchemaDto) },
    description: 'Option name -> {type, enum?, default?, description?, maxLength?}; all option values are strings',
  })
  options_schema: Record<string, OptionSchemaDto>;
}
