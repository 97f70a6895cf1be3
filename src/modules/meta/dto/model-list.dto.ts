import { ApiProperty } from '@nestjs/swagger';
import { ModelProviderDto } from './model-provider.dto';

export class ModelListDto {
  @ApiProperty({ type: [ModelProviderDto] })
  data: ModelProviderDto[];
}
