import { Module } from '@nestjs/common';
import { ProvidersModule } from '../infra/providers/providers.module';
import { CalendarService } from './calendar/calendar.service';
import { ScanEngineService } from './scan-engine.service';

/** The scan pipeline, over the provider adapters of ProvidersModule, and the regulatory calendar it reads. */
@Module({
  imports: [ProvidersModule],
  providers: [ScanEngineService, CalendarService],
  exports: [ScanEngineService, CalendarService],
})
export class EngineModule {}
