import { ApiProperty, PartialType } from '@nestjs/swagger';
import { BriefingBlockDto } from './briefing-block.dto';

/** GET /v1/snapshots/{id}/briefing: the block's fields when `available`, none otherwise. */
export class BriefingDto extends PartialType(BriefingBlockDto) {
  @ApiProperty({ description: 'false for snapshots predating the sub-editor or whose pass failed; the other fields are then absent' })
  available: boolean;
}
