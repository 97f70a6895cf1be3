import { ApiProperty } from '@nestjs/swagger';

export class SnapshotDto {
  @ApiProperty({ format: 'uuid' })
  id: string;
  @ApiProperty()
  title: string;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'The scan configuration used, defaults resolved' })
  config: Record<string, unknown>;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'The snapshot envelope (open: new keys may appear): items, trends, executive_summary, executive_narrative, _briefing, auditor, translations, _meta',
  })
  data: Record<string, unknown>;
  @ApiProperty({ type: Number, nullable: true, description: 'Reconciled actual (may be fractional) when available, else the whole-cent estimate' })
  cost_cents: number | null;
  @ApiProperty({ format: 'date-time' })
  created_at: string;
}
