import { ApiProperty } from '@nestjs/swagger';
import { DriftFieldChangeDto } from './drift-field-change.dto';

export class DriftChangedItemDto {
  @ApiProperty()
  item_id: string;
  @ApiProperty({ description: "The item's current title" })
  title: string;
  @ApiProperty({ type: [DriftFieldChangeDto] })
  fields: DriftFieldChangeDto[];
}
