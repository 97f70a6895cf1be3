import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ModelVariantDto } from './model-variant.dto';

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
