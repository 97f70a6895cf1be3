import { ApiProperty } from '@nestjs/swagger';
import { ScanProgressDto } from './scan-progress.dto';

export class ScanStatusDto {
  @ApiProperty({ format: 'uuid' })
  id: string;
  @ApiProperty({ enum: ['running', 'completed', 'failed', 'cancelled'] })
  status: string;
  @ApiProperty({ type: ScanProgressDto })
  progress: ScanProgressDto;
  @ApiProperty({ format: 'uuid', type: String, nullable: true, description: 'Set once status is completed' })
  snapshot_id: string | null;
  @ApiProperty({ format: 'date-time' })
  created_at: string;
  @ApiProperty({ format: 'date-time', type: String, nullable: true })
  completed_at: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Failure message when failed' })
  error: string | null;
  @ApiProperty({ type: Number, nullable: true, description: 'Actual cost once known, else the pre-scan estimate, else null (US cents)' })
  cost_cents: number | null;
}
