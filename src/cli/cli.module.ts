import { Module } from '@nestjs/common';
import { ConfigModule } from '../config/config.module';
import { ENTITIES } from '../app.entities';
import { DatabaseModule } from '../infra/database/database.module';
import { RedisModule } from '../infra/redis/redis.module';
import { AccountsModule } from '../modules/accounts/accounts.module';
import { BudgetModule } from '../modules/budget/budget.module';
import { KeysModule } from '../modules/keys/keys.module';
import { WebhookEndpointsModule } from '../modules/webhooks/webhook-endpoints.module';
import { ExportOperationsModule } from '../modules/exports/export-operations.module';

/** What the operator commands need: the database, Redis (key revocations) and the services that own the data. */
@Module({
  imports: [
    ConfigModule,
    DatabaseModule.forRoot(ENTITIES),
    RedisModule,
    AccountsModule,
    BudgetModule,
    KeysModule,
    WebhookEndpointsModule,
    ExportOperationsModule,
  ],
})
export class CliModule {}
