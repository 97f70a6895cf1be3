import { ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';

export class EngineDto {
  @ApiProperty({ example: 'v4' })
  id: string;
  @ApiProperty({ example: 'v4 (default)' })
  label: string;
  @ApiProperty()
  description: string;
}

export class EngineListDto {
  @ApiProperty({ type: [EngineDto] })
  data: EngineDto[];
  @ApiProperty({ type: [Number], example: [3, 6, 12, 18, 24, 36], description: 'Allowed scan horizons in months' })
  horizons: number[];
}

export class ModelVariantDto {
  @ApiProperty()
  id: string;
  @ApiProperty()
  label: string;
  @ApiProperty()
  model_id: string;
}

export class ModelDto {
  @ApiProperty({ example: 'anthropic-large' })
  id: string;
  @ApiProperty()
  label: string;
  @ApiProperty({ enum: ['analyst', 'seeker', 'auditor', 'writer', 'translator', 'search'] })
  role: string;
  @ApiProperty({ enum: ['large', 'large48', 'medium', 'small'], nullable: true, type: String })
  tier: string | null;
  @ApiProperty({ description: "The vendor's model id" })
  model_id: string;
  @ApiPropertyOptional({ type: ModelVariantDto })
  pro_variant?: ModelVariantDto;
}

export class ModelProviderDto {
  @ApiProperty({ enum: ['anthropic', 'openai', 'gemini', 'deepl', 'cohere', 'perplexity', 'offline'] })
  provider: string;
  @ApiProperty()
  label: string;
  @ApiProperty({ description: 'False when the deployment has no credentials for it; its models then fail at scan time' })
  configured: boolean;
  @ApiProperty({ type: [ModelDto] })
  models: ModelDto[];
}

export class ModelListDto {
  @ApiProperty({ type: [ModelProviderDto] })
  data: ModelProviderDto[];
}

export class JurisdictionDto {
  @ApiProperty({ example: 'EU' })
  id: string;
  @ApiProperty({ example: 'European Union' })
  label: string;
  @ApiProperty({ type: [String], example: ['European Commission', 'EBA', 'ESMA'] })
  regulators: string[];
}

export class JurisdictionListDto {
  @ApiProperty({ type: [JurisdictionDto] })
  data: JurisdictionDto[];
}

export class AreaDto {
  @ApiProperty({ example: 'AML / KYC' })
  id: string;
  @ApiProperty({ example: 'AML / KYC' })
  label: string;
}

export class AreaListDto {
  @ApiProperty({ type: [AreaDto] })
  data: AreaDto[];
}

export class OptionSchemaDto {
  @ApiProperty({ enum: ['string'] })
  type: string;
  @ApiPropertyOptional({ type: [String] })
  enum?: string[];
  @ApiPropertyOptional()
  default?: string;
  @ApiPropertyOptional()
  description?: string;
  @ApiPropertyOptional()
  maxLength?: number;
}

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

export class ExportTypeListDto {
  @ApiProperty({ type: [ExportTypeDto] })
  data: ExportTypeDto[];
}
