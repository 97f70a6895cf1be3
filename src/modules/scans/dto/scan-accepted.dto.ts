import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class ScanAcceptedDto {
  @ApiProperty({ format: 'uuid' })
  scan_id: string;
  @ApiProperty({ enum: ['running'] })
  status: 'running';
  @ApiProperty({ example: '/v1/scans/5f0c7a1e-…' })
  status_url: string;
  @ApiProperty({ example: '/v1/scans/5f0c7a1e-…/stream' })
  stream_url: string;
  @ApiPropertyOptional({ description: 'Present when a sync request exceeded the sync wait' })
  message?: string;
}
