import { Module } from '@nestjs/common';
import { EngineModule } from '../../engine/engine.module';
import { RejectRemovedParametersGuard } from './reject-removed-parameters.guard';
import { SnapshotTotalsCache } from './snapshot-totals.cache';
import { SnapshotsController } from './snapshots.controller';
import { SnapshotsRepository } from './snapshots.repository';
import { SnapshotsService } from './snapshots.service';

@Module({
  imports: [EngineModule],
  controllers: [SnapshotsController],
  providers: [SnapshotsRepository, SnapshotsService, SnapshotTotalsCache, RejectRemovedParametersGuard],
  exports: [SnapshotsService],
})
export class SnapshotsModule {}
