import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

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
