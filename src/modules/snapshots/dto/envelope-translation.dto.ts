import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { BriefingBlockDto } from './briefing-block.dto';
import { ExecutiveSummaryDto } from './executive-summary.dto';
import { TranslatedItemDto } from './translated-item.dto';
import { TranslatedTrendDto } from './translated-trend.dto';

/** `translations[<language>]`: the envelope's prose in another language; `?language=` projects only complete ones. */
export class EnvelopeTranslationDto {
  @ApiProperty({ example: 'fr' })
  language: string;
  @ApiProperty({ description: 'Only a complete translation is projected by `?language=`' })
  complete: boolean;
  @ApiProperty({ example: 'deepl', description: 'Provider key that produced it' })
  provider: string;
  @ApiProperty({ type: [TranslatedItemDto] })
  items: TranslatedItemDto[];
  @ApiProperty({ type: [TranslatedTrendDto] })
  trends: TranslatedTrendDto[];
  @ApiPropertyOptional({ type: ExecutiveSummaryDto })
  executive_summary?: ExecutiveSummaryDto;
  @ApiPropertyOptional()
  executive_narrative?: string;
  @ApiPropertyOptional({ type: BriefingBlockDto })
  _briefing?: BriefingBlockDto;
}
