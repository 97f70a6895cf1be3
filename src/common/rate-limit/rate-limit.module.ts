import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { MetricsModule } from '../../infra/metrics/metrics.module';
import { RateLimitGuard } from './rate-limit.guard';
import { RateLimitService } from './rate-limit.service';

/** Imported after AuthModule: global guards run in registration order, and limits need the principal. */
@Module({
  imports: [MetricsModule],
  providers: [RateLimitService, { provide: APP_GUARD, useClass: RateLimitGuard }],
})
export class RateLimitModule {}
