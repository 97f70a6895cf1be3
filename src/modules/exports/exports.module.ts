import { Module } from '@nestjs/common';
import { MetricsModule } from '../../infra/metrics/metrics.module';
import { ProvidersModule } from '../../infra/providers/providers.module';
import { AccountsModule } from '../accounts/accounts.module';
import { BudgetModule } from '../budget/budget.module';
import { SnapshotsModule } from '../snapshots/snapshots.module';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { EngineModule } from '../../engine/engine.module';
import { ExportTypesService } from './export-types.service';
import { ExportsController } from './exports.controller';
import { ExportsProcessor } from './exports.processor';
import { ExportsRepository } from './exports.repository';
import { ExportsService } from './exports.service';
import { ImageExportRunner } from './provider-exports/image-export';
import { ProviderExportRegistry } from './provider-exports/provider-export.registry';

@Module({
  imports: [AccountsModule, BudgetModule, SnapshotsModule, ProvidersModule, EngineModule, MetricsModule, WebhooksModule],
  controllers: [ExportsController],
  providers: [ExportTypesService, ExportsRepository, ExportsService, ExportsProcessor, ProviderExportRegistry, ImageExportRunner],
  exports: [ExportTypesService],
})
export class ExportsModule {}
