import type { DataSource } from 'typeorm';

// Any number of processes may start together; an advisory lock lets exactly one migrate at a time.
const MIGRATION_LOCK_KEY = 7_214_530_001;

export async function runMigrationsWithLock(dataSource: DataSource): Promise<void> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      await dataSource.runMigrations({ transaction: 'each' });
    } finally {
      await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } finally {
    await runner.release();
  }
}
