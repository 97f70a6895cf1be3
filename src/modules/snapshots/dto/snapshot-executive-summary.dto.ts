import { ApiProperty } from '@nestjs/swagger';
import { ExecutiveSummaryDto } from './executive-summary.dto';

export class SnapshotExecutiveSummaryDto {
  @ApiProperty({ type: ExecutiveSummaryDto, nullable: true, description: 'null when the envelope has no executive_summary key' })
  data: ExecutiveSummaryDto | null;
}
