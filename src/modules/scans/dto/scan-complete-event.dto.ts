import { ApiProperty } from '@nestjs/swagger';
import { SnapshotEnvelopeDto } from '../../snapshots/dto/snapshot-envelope.dto';

/** Terminal SSE event: the scan completed. */
export class ScanCompleteEventDto {
  @ApiProperty({ enum: ['complete'] })
  type: 'complete';
  @ApiProperty({
    type: SnapshotEnvelopeDto,
    description:
      'The snapshot envelope: live events keep [[cite:N]] markers; one replayed from storage is the projection GET /v1/snapshots/{id} returns',
  })
  data: SnapshotEnvelopeDto;
  @ApiProperty({ format: 'uuid', description: 'Read it with GET /v1/snapshots/{snapshotId}' })
  snapshotId: string;
}
