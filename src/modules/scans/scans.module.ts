import { Module } from '@nestjs/common';
import { EngineModule } from '../../engine/engine.module';
import { MetricsModule } from '../../infra/metrics/metrics.module';
import { BudgetModule } from '../budget/budget.module';
import { SnapshotsModule } from '../snapshots/snapshots.module';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { EstimatorRepository } from './estimator/estimator.repository';
import { EstimatorService } from './estimator/estimator.service';
import { ScanEventsService } from './scan-events.service';
import { ScanStreamService } from './scan-stream.service';
import { ScansController } from './scans.controller';
import { ScansProcessor } from './scans.processor';
import { ScansRepository } from './scans.repository';
import { ScansService } from './scans.service';
import { StreamSlotsService } from './stream-slots.service';

@Module({
  imports: [BudgetModule, SnapshotsModule, EngineModule, MetricsModule, WebhooksModule],
  controllers: [ScansController],
  providers: [
    ScansRepository,
    ScansService,
    ScanEventsService,
    ScanStreamService,
    StreamSlotsService,
    ScansProcessor,
    EstimatorService,
    EstimatorRepository,
  ],
  exports: [ScansService],
})
export class ScansModule {}
