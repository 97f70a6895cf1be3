import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';

/** GET /v1/snapshots/{id}/executive-narrative: `language` is open. */
export class NarrativeQueryDto {
  @ApiPropertyOptional({
    default: 'en',
    description:
      'Any language code (case-insensitive). `en` is the original; `fr`, `de`, `es`, `it`, `zh`, `ja`, `pt` are served from a complete translation; `simple` is the Simplified English register. No such translation: 404 `translation_not_available`.',
  })
  @IsOptional()
  @IsString({ message: 'language must be a single string' })
  language?: string;
}
