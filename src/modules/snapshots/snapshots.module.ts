import { Module } from '@nestjs/common';
import { SnapshotsRepository } from './snapshots.repository';
import { SnapshotsService } from './snapshots.service';

@Module({
  providers: [SnapshotsRepository, SnapshotsService],
  exports: [SnapshotsService],
})
export class SnapshotsModule {}
