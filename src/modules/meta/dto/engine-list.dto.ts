import { ApiProperty } from '@nestjs/swagger';
import { EngineDto } from './engine.dto';

export class EngineListDto {
  @ApiProperty({ type: [EngineDto] })
  data: EngineDto[];
  @ApiProperty({ type: [Number], example: [3, 6, 12, 18, 24, 36], description: 'Allowed scan horizons in months' })
  horizons: number[];
}
