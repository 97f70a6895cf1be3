import { Module } from '@nestjs/common';
import { MetricsService } from './metrics.service';

/**
 * The app's metrics registry and instruments, without side effects (no listener): features that record import
 * it, and so does the CLI through them. MetricsEndpointModule adds the scrape listener and the request metrics.
 */
@Module({
  providers: [MetricsService],
  exports: [MetricsService],
})
export class MetricsModule {}
