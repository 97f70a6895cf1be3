import { BullModule } from '@nestjs/bull';
import { Global, Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { redisOptionsFromUrl } from '../redis/redis-url';
import { EXPORTS_QUEUE, SCANS_QUEUE, WEBHOOKS_QUEUE } from './queue-names';
import { RECOVERABLE_BACKOFF, recoverableBackoff, SCHEDULED_BACKOFF, scheduledBackoff } from './retry-backoff';

const backoffStrategies = { [RECOVERABLE_BACKOFF]: recoverableBackoff, [SCHEDULED_BACKOFF]: scheduledBackoff };

/** Bull on the shared Redis; job payloads carry ids only and clients read job state from Postgres. */
@Global()
@Module({
  imports: [
    BullModule.forRootAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => ({
        redis: redisOptionsFromUrl(config.redisUrl!),
        prefix: `${config.redisPrefix}:bull`,
        defaultJobOptions: { removeOnComplete: 1000, removeOnFail: 5000 },
      }),
    }),
    BullModule.registerQueueAsync(
      {
        name: SCANS_QUEUE,
        inject: [APP_CONFIG],
        // A dead worker's job is noticed after one lock period and run again once, then failed.
        useFactory: (config: AppConfig) => ({
          settings: { lockDuration: config.scanJobLockMs, stalledInterval: config.scanJobLockMs, maxStalledCount: 1, backoffStrategies },
        }),
      },
      {
        name: EXPORTS_QUEUE,
        inject: [APP_CONFIG],
        useFactory: (config: AppConfig) => ({
          settings: {
            lockDuration: config.exportJobLockMs,
            stalledInterval: config.exportJobLockMs,
            maxStalledCount: 1,
            backoffStrategies,
          },
        }),
      },
      { name: WEBHOOKS_QUEUE, useFactory: () => ({ settings: { backoffStrategies } }) },
    ),
  ],
  exports: [BullModule],
})
export class QueuesModule {}
