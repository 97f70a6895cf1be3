import { ApiProperty } from '@nestjs/swagger';

/** Terminal SSE event: the scan was cancelled with POST /v1/scans/{id}/cancel. */
export class ScanCancelledEventDto {
  @ApiProperty({ enum: ['cancelled'] })
  type: 'cancelled';
}
