import { ApiProperty } from '@nestjs/swagger';

export class DriftSummaryDto {
  @ApiProperty()
  added: number;
  @ApiProperty()
  removed: number;
  @ApiProperty()
  changed: number;
  @ApiProperty()
  unchanged: number;
}
