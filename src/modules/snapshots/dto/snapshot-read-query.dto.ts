import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { SNAPSHOT_LANGUAGES, type SnapshotLanguage } from '../language-projection';

/** GET /v1/snapshots/{id}. */
export class SnapshotReadQueryDto {
  @ApiPropertyOptional({
    enum: SNAPSHOT_LANGUAGES,
    default: 'en',
    description:
      'Projects a complete translation (or, for `simple`, the Simplified English register) over the envelope when one exists; otherwise the original is returned untouched. `data._meta.language` names a projected language.',
  })
  @IsOptional()
  @IsIn(SNAPSHOT_LANGUAGES, { message: `language must be one of ${SNAPSHOT_LANGUAGES.join(', ')}` })
  language?: SnapshotLanguage;
}
