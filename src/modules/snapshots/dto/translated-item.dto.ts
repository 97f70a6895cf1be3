import { ApiProperty } from '@nestjs/swagger';

/** An item's prose in a translation, matched to the item by id. */
export class TranslatedItemDto {
  @ApiProperty({ example: 'eu-amlr' })
  id: string;
  @ApiProperty()
  title: string;
  @ApiProperty()
  summary: string;
  @ApiProperty()
  implications: string;
}
