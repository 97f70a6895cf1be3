import { ApiProperty } from '@nestjs/swagger';

export class ScanProgressDto {
  @ApiProperty({ example: 'analyse' })
  phase: string;
  @ApiProperty({ example: 55, minimum: 0, maximum: 100 })
  percent: number;
  @ApiProperty({ example: 'Analysed 12 item(s) into 4 trend(s)' })
  message: string;
}
