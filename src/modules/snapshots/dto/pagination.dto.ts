import { ApiProperty } from '@nestjs/swagger';

export class PaginationDto {
  @ApiProperty({ example: 50 })
  limit: number;
  @ApiProperty({ example: 0 })
  offset: number;
  @ApiProperty({ example: 132, description: 'Snapshots matching the filters' })
  total: number;
}
