import { ApiProperty } from '@nestjs/swagger';

export class SnapshotTrendDto {
  @ApiProperty()
  id: string;
  @ApiProperty()
  title: string;
  @ApiProperty()
  description: string;
  @ApiProperty({ type: [String] })
  item_ids: string[];
  @ApiProperty({ type: [String] })
  jurisdictions: string[];
  @ApiProperty({ type: [String] })
  areas: string[];
  @ApiProperty({ enum: ['rising', 'steady', 'fading'] })
  momentum: string;
}
