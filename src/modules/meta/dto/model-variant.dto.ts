import { ApiProperty } from '@nestjs/swagger';

export class ModelVariantDto {
  @ApiProperty()
  id: string;
  @ApiProperty()
  label: string;
  @ApiProperty()
  model_id: string;
}
