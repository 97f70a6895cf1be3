import { Module } from '@nestjs/common';
import { RejectRemovedParametersGuard } from './reject-removed-parameters.guard';
import { SnapshotTotalsCache } from './snapshot-totals.cache';
import { SnapshotsController } from './snapshots.controller';
import { SnapshotsRepository } from './snapshots.repository';
import { SnapshotsService } from './snapshots.service';

@Module({
  controllers: [SnapshotsController],
  providers: [SnapshotsRepository, SnapshotsService, SnapshotTotalsCache, RejectRemovedParametersGuard],
  exports: [SnapshotsService],
})
export class SnapshotsModule {}
