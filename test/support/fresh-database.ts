import { DataSource } from 'typeorm';
import { ENTITIES } from '../../src/app.entities';
import { dataSourceOptions } from '../../src/infra/database/data-source-options';
import { runMigrationsWithLock } from '../../src/infra/database/migrate';
import { createDatabase, databaseUrlFor, dropDatabase, uniqueName } from '../setup/test-infra';

/** A migrated database of its own, for tests about global state (estimator history) that others would disturb. */
export async function createFreshDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const admin = process.env.TEST_ADMIN_DATABASE_URL!;
  const name = uniqueName('rgs_fresh');
  await createDatabase(admin, name);
  const url = databaseUrlFor(admin, name);
  const dataSource = await new DataSource(dataSourceOptions(url, ENTITIES)).initialize();
  await runMigrationsWithLock(dataSource);
  await dataSource.destroy();
  return { url, drop: () => dropDatabase(admin, name) };
}
