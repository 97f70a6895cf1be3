import { ApiProperty } from '@nestjs/swagger';

/** `auditor` in the envelope; its private failure diagnostics are never returned. */
export class AuditorSidecarDto {
  @ApiProperty({ description: 'Whether the auditor pass ran' })
  ran: boolean;
  @ApiProperty({ type: [String], example: ['realist', 'auditor'], description: 'The passes that ran' })
  passes: string[];
  @ApiProperty({ type: 'integer', example: 10, description: 'Items every pass verified' })
  verified_count: number;
  @ApiProperty({ type: [String], description: 'Items a pass disputed or could not verify' })
  flagged_item_ids: string[];
}
