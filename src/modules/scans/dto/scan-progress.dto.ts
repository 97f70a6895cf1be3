import { ApiProperty } from '@nestjs/swagger';

export class ScanProgressDto {
  @ApiProperty({
    example: 'analyse',
    description:
      '`queued`, then the engine phases (plan, search, read, analyse, verify, merge, sub-edit, write, translate, finalise), then `complete` or `failed`',
  })
  phase: string;
  @ApiProperty({ type: 'integer', example: 55, minimum: 0, maximum: 100 })
  percent: number;
  @ApiProperty({ example: 'Analysed 12 item(s) into 4 trend(s)' })
  message: string;
}
