import type { DataSource, EntityManager, EntitySubscriberInterface, QueryRunner, TransactionCommitEvent } from 'typeorm';

const PENDING = Symbol('afterCommit');
type Pending = Array<() => void>;
type RunnerData = { [PENDING]?: Pending };

const pending = (runner: QueryRunner): Pending | undefined => (runner.data as RunnerData)[PENDING];

/** Runs the queued work when the outermost transaction commits, and drops it when that transaction rolls back. */
class AfterCommitSubscriber implements EntitySubscriberInterface {
  afterTransactionCommit({ queryRunner }: TransactionCommitEvent): void {
    if (queryRunner.isTransactionActive) return; // a savepoint was released: the transaction goes on
    const work = pending(queryRunner) ?? [];
    delete (queryRunner.data as RunnerData)[PENDING];
    for (const run of work) run();
  }

  afterTransactionRollback({ queryRunner }: { queryRunner: QueryRunner }): void {
    if (!queryRunner.isTransactionActive) delete (queryRunner.data as RunnerData)[PENDING];
  }
}

const subscribed = new WeakSet<DataSource>();

/**
 * Runs `work` once the transaction of `manager` has committed (at once outside a transaction), so that what it
 * reports (a metric of money held or charged) is only ever what the database kept. Synchronous, non-throwing work.
 */
export function afterCommit(manager: EntityManager, work: () => void): void {
  const runner = manager.queryRunner;
  if (!runner?.isTransactionActive) return work();
  const dataSource = manager.dataSource;
  if (!subscribed.has(dataSource)) {
    subscribed.add(dataSource);
    dataSource.subscribers.push(new AfterCommitSubscriber());
  }
  const data = runner.data as RunnerData;
  (data[PENDING] ??= []).push(work);
}
