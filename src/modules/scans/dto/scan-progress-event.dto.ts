import { ApiProperty } from '@nestjs/swagger';
import { ScanProgressDto } from './scan-progress.dto';

/** SSE event sent on subscribe and at each phase advance. */
export class ScanProgressEventDto extends ScanProgressDto {
  @ApiProperty({ enum: ['progress'] })
  type: 'progress';
}
