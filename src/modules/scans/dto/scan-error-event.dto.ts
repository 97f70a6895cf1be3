import { ApiProperty } from '@nestjs/swagger';

/** Terminal SSE event: the scan failed. */
export class ScanErrorEventDto {
  @ApiProperty({ enum: ['error'] })
  type: 'error';
  @ApiProperty({
    example: 'model "anthropic-large" belongs to provider anthropic, which is not configured on this deployment (set ANTHROPIC_API_KEY)',
    description: 'Why the scan failed (also the scan status `error`)',
  })
  error: string;
}
