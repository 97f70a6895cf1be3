import { ApiProperty } from '@nestjs/swagger';
import { AreaDto } from './area.dto';

export class AreaListDto {
  @ApiProperty({ type: [AreaDto] })
  data: AreaDto[];
}
