import { ApiProperty } from '@nestjs/swagger';
import { SnapshotTrendDto } from './snapshot-trend.dto';

export class SnapshotTrendsDto {
  @ApiProperty({ type: [SnapshotTrendDto], nullable: true, description: 'null when the envelope has no trends key' })
  data: SnapshotTrendDto[] | null;
}
