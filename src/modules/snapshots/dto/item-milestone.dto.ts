import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

class PreviousDateDto {
  @ApiProperty({ format: 'date', example: '2027-01-10' })
  date: string;
  @ApiProperty({ enum: ['day', 'month', 'quarter', 'half', 'year'] })
  precision: string;
}

export class ItemMilestoneDto {
  @ApiProperty({ format: 'date', example: '2027-07-10', description: 'For a period (see precision) its last day' })
  date: string;
  @ApiProperty({ enum: ['day', 'month', 'quarter', 'half', 'year'], description: 'What the date stands for: the day, or the period' })
  precision: string;
  @ApiProperty({ example: 'General application of the single AML/CFT rulebook' })
  event: string;
  @ApiProperty({ enum: ['confirmed', 'expected', 'speculative'] })
  confidence: string;
  @ApiProperty({
    enum: ['upcoming', 'slipped', 'unconfirmed'],
    description:
      '`upcoming`: inside the horizon; `slipped`: the date passed without the event and no new date is announced; `unconfirmed`: the date passed and the calendar records no outcome yet',
  })
  status: string;
  @ApiProperty({ type: Number, nullable: true, example: 3, description: "Id (in the item's citations) of the document that states this date" })
  citation_id: number | null;
  @ApiPropertyOptional({ type: [PreviousDateDto], description: 'Earlier dates this milestone carried before it moved, oldest first' })
  previous_dates?: PreviousDateDto[];
}
