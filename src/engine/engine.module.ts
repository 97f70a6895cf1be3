import { Module } from '@nestjs/common';
import { ProvidersModule } from '../infra/providers/providers.module';
import { ScanEngineService } from './scan-engine.service';

/** The scan pipeline, over the provider adapters of ProvidersModule. */
@Module({
  imports: [ProvidersModule],
  providers: [ScanEngineService],
  exports: [ScanEngineService],
})
export class EngineModule {}
