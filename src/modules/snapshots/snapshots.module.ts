import { Module } from '@nestjs/common';
import { EngineModule } from '../../engine/engine.module';
import { RejectRemovedParametersGuard } from './reject-removed-parameters.guard';
import { SnapshotRepresentationsRepository } from './snapshot-representations.repository';
import { SnapshotTotalsCache } from './snapshot-totals.cache';
import { SnapshotsController } from './snapshots.controller';
import { SnapshotsRepository } from './snapshots.repository';
import { SnapshotsService } from './snapshots.service';

@Module({
  imports: [EngineModule],
  controllers: [SnapshotsController],
  providers: [SnapshotsRepository, SnapshotRepresentationsRepository, SnapshotsService, SnapshotTotalsCache, RejectRemovedParametersGuard],
  exports: [SnapshotsService],
})
export class SnapshotsModule {}
