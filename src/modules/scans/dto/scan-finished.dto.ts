import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { SnapshotDto } from './snapshot.dto';

export class ScanFinishedDto {
  @ApiProperty({ format: 'uuid' })
  scan_id: string;
  @ApiProperty({ enum: ['completed', 'failed', 'cancelled'] })
  status: string;
  @ApiProperty({ format: 'uuid', type: String, nullable: true })
  snapshot_id: string | null;
  @ApiPropertyOptional({ type: SnapshotDto, description: 'When completed; prose keeps its [[cite:N]] markers' })
  snapshot?: SnapshotDto;
  @ApiPropertyOptional({ type: String, nullable: true, description: 'When failed or cancelled' })
  error?: string | null;
}
