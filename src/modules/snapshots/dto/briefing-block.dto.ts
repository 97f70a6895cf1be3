import { ApiProperty } from '@nestjs/swagger';

/** The sub-editor's block, `_briefing` in the envelope. */
export class BriefingBlockDto {
  @ApiProperty({ example: 'AMLR heads 18 regulatory instruments due for EU and UK over 12 months' })
  briefing_headline: string;
  @ApiProperty({ description: 'One or two sentences under the headline' })
  briefing_standfirst: string;
  @ApiProperty({
    type: [String],
    description: 'Short labels with jurisdiction tags',
    example: ['[EU] AMLR, 10 Jul 2027: general application of the single rulebook'],
  })
  priorities: string[];
  @ApiProperty({ description: 'The bottom line in one sentence' })
  bottom_line_tight: string;
  @ApiProperty()
  pull_quote: string;
  @ApiProperty({ example: 'intensifying' })
  sentiment_label: string;
  @ApiProperty()
  sentiment_rationale: string;
}
