import { Module } from '@nestjs/common';
import { AuthModule } from './modules/auth/auth.module';
import { CommonModule } from './common/common.module';
import { IdempotencyModule } from './common/idempotency/idempotency.module';
import { RateLimitModule } from './common/rate-limit/rate-limit.module';
import { ConfigModule } from './config/config.module';
import { ENTITIES } from './app.entities';
import { DatabaseModule } from './infra/database/database.module';
import { LoggingModule } from './infra/logging.module';
import { MetricsEndpointModule } from './infra/metrics/metrics-endpoint.module';
import { QueuesModule } from './infra/queues/queues.module';
import { RedisModule } from './infra/redis/redis.module';
import { StorageModule } from './infra/storage/storage.module';
import { AccountsModule } from './modules/accounts/accounts.module';
import { BudgetModule } from './modules/budget/budget.module';
import { ExportsModule } from './modules/exports/exports.module';
import { HealthModule } from './modules/health/health.module';
import { KeysModule } from './modules/keys/keys.module';
import { MetaModule } from './modules/meta/meta.module';
import { QueueDashboardModule } from './modules/queue-dashboard/queue-dashboard.module';
import { ScansModule } from './modules/scans/scans.module';
import { SnapshotsModule } from './modules/snapshots/snapshots.module';
import { UsageModule } from './modules/usage/usage.module';
import { WebhooksModule } from './modules/webhooks/webhooks.module';

@Module({
  imports: [
    ConfigModule,
    LoggingModule,
    MetricsEndpointModule,
    DatabaseModule.forRoot(ENTITIES),
    RedisModule,
    QueuesModule,
    StorageModule,
    CommonModule,
    AuthModule,
    RateLimitModule,
    IdempotencyModule,
    AccountsModule,
    BudgetModule,
    KeysModule,
    MetaModule,
    ScansModule,
    SnapshotsModule,
    ExportsModule,
    UsageModule,
    WebhooksModule,
    HealthModule,
    QueueDashboardModule,
  ],
})
export class AppModule {}
