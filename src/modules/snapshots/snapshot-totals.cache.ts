import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager, EntitySubscriberInterface, TransactionCommitEvent, TransactionRollbackEvent } from 'typeorm';
import { RedisService } from '../../infra/redis/redis.service';

/** Totals below this are cheap to count every time and are never cached. */
export const CACHED_TOTAL_MIN = 1000;
/** A cached total is trusted for at most this long, even without a new snapshot (bounds any missed invalidation). */
export const CACHED_TOTAL_TTL_MS = 5 * 60_000;

const PENDING = 'snapshotTotals.pendingAccounts';
const GENERATION = '_gen';

/**
 * Filtered totals of GET /v1/snapshots for accounts with at least CACHED_TOTAL_MIN snapshots (smaller accounts are
 * counted with the page, and unfiltered totals come from snapshot_counts). An exact total of a broad filter (say,
 * every EU snapshot of an account with 100,000) must visit every matching index entry, which costs far more than
 * the page. Snapshots are immutable and only ever added, so a total stays right until the account gains a
 * snapshot: totals of at least CACHED_TOTAL_MIN are kept in Redis (shared by every process), one hash per account
 * `{_gen, <filter>: "<gen>:<total>:<stored at ms>"}`, read in one round trip when the page cannot tell the total.
 *
 * Every snapshot insert bumps the account's generation after its transaction commits (a TypeORM subscriber), so
 * the next list counts afresh. The generation is read before the count runs, so a count that races an insert is
 * stored under the old generation and never served afterwards. Redis trouble only costs the cache: the total is
 * then counted in PostgreSQL as without it.
 */
@Injectable()
export class SnapshotTotalsCache implements OnModuleInit, EntitySubscriberInterface {
  constructor(
    private readonly redis: RedisService,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  onModuleInit(): void {
    if (!this.dataSource.subscribers.includes(this)) this.dataSource.subscribers.push(this);
  }

  private hashKey(accountId: string): string {
    return this.redis.key('snapshot-totals', accountId);
  }

  /** The cached total of `filter` if still valid, and the generation to store a fresh count under. */
  async lookup(accountId: string, filter: string): Promise<{ generation: string; total?: number }> {
    const [generation, entry] = await this.redis.client.hmget(this.hashKey(accountId), GENERATION, filter);
    const current = generation ?? '0';
    const [entryGeneration, total, storedAt] = (entry ?? '').split(':');
    const valid = entry !== null && entryGeneration === current && Date.now() - Number(storedAt) < CACHED_TOTAL_TTL_MS;
    return { generation: current, total: valid ? Number(total) : undefined };
  }

  async store(accountId: string, filter: string, generation: string, total: number): Promise<void> {
    if (total < CACHED_TOTAL_MIN) return;
    const key = this.hashKey(accountId);
    await this.redis.client.multi().hset(key, filter, `${generation}:${total}:${Date.now()}`).pexpire(key, CACHED_TOTAL_TTL_MS).exec();
  }

  /** Marks the accounts whose totals change when `manager`'s transaction commits (at once outside one). */
  async snapshotInserted(manager: EntityManager, accountId: string): Promise<void> {
    const runner = manager.queryRunner;
    if (runner?.isTransactionActive) {
      const pending: Set<string> = (runner.data[PENDING] ??= new Set<string>());
      pending.add(accountId);
      return;
    }
    await this.invalidate([accountId]);
  }

  async afterTransactionCommit(event: TransactionCommitEvent): Promise<void> {
    // Nested transactions (savepoints) broadcast too; only the outermost commit makes the rows visible.
    if (event.queryRunner.isTransactionActive) return;
    const pending = event.queryRunner.data[PENDING] as Set<string> | undefined;
    if (!pending?.size) return;
    delete event.queryRunner.data[PENDING];
    await this.invalidate([...pending]);
  }

  afterTransactionRollback(event: TransactionRollbackEvent): void {
    if (!event.queryRunner.isTransactionActive) delete event.queryRunner.data[PENDING];
  }

  private async invalidate(accountIds: string[]): Promise<void> {
    try {
      // Dropping the hash would let a count that started before the insert store itself under generation 0
      // again; a new generation makes any such late write unusable.
      const multi = this.redis.client.multi();
      for (const accountId of accountIds)
        multi.hincrby(this.hashKey(accountId), GENERATION, 1).pexpire(this.hashKey(accountId), CACHED_TOTAL_TTL_MS);
      await multi.exec();
    } catch {
      // Without Redis no total is served from the cache either (lookups fail the same way); entries expire anyway.
    }
  }
}
