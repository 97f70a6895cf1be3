import { ApiProperty } from '@nestjs/swagger';
import { SnapshotItemDto } from './snapshot-item.dto';

export class SnapshotItemsDto {
  @ApiProperty({ type: [SnapshotItemDto], nullable: true, description: 'null when the envelope has no items key' })
  data: SnapshotItemDto[] | null;
}
