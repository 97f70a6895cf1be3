import { Module, type MiddlewareConsumer, type NestModule } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { HandlerRouteGuard, HttpMetricsMiddleware } from './http-metrics.middleware';
import { MetricsModule } from './metrics.module';
import { MetricsServer } from './metrics-server';
import { QueueMetrics } from './queue-metrics';

/**
 * What a running API or worker process adds to the registry: the scrape listener, request metrics, queue gauges.
 * Imported before AuthModule: global guards run in registration order, and HandlerRouteGuard must see every request.
 */
@Module({
  imports: [MetricsModule],
  providers: [MetricsServer, QueueMetrics, { provide: APP_GUARD, useClass: HandlerRouteGuard }],
})
export class MetricsEndpointModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(HttpMetricsMiddleware).forRoutes('*path');
  }
}
