import { Injectable, Module, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { IdempotencyInterceptor } from './idempotency.interceptor';
import { IdempotencyRepository } from './idempotency.repository';

const PURGE_INTERVAL_MS = 10 * 60 * 1000;

/** Deletes expired records in small batches; every process does it, the DELETE is safe to run concurrently. */
@Injectable()
export class IdempotencyPurger implements OnModuleInit, OnApplicationShutdown {
  private timer?: NodeJS.Timeout;

  constructor(private readonly records: IdempotencyRepository) {}

  onModuleInit(): void {
    this.timer = setInterval(() => void this.purge().catch(() => undefined), PURGE_INTERVAL_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  async purge(): Promise<number> {
    let total = 0;
    for (let removed = await this.records.purgeExpired(1000); removed > 0; removed = await this.records.purgeExpired(1000)) total += removed;
    return total;
  }
}

@Module({
  providers: [IdempotencyRepository, IdempotencyPurger, { provide: APP_INTERCEPTOR, useClass: IdempotencyInterceptor }],
  exports: [IdempotencyPurger],
})
export class IdempotencyModule {}
