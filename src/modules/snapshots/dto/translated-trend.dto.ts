import { ApiProperty } from '@nestjs/swagger';

/** A trend's prose in a translation, matched to the trend by id. */
export class TranslatedTrendDto {
  @ApiProperty()
  id: string;
  @ApiProperty()
  title: string;
  @ApiProperty()
  description: string;
}
