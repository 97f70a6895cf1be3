import { ApiProperty } from '@nestjs/swagger';
import { SnapshotListItemDto } from './snapshot-list-item.dto';
import { PaginationDto } from './pagination.dto';

export class SnapshotListDto {
  @ApiProperty({ type: [SnapshotListItemDto], description: 'Newest first' })
  data: SnapshotListItemDto[];
  @ApiProperty({ type: PaginationDto })
  pagination: PaginationDto;
}
