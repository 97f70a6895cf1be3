import { DataSource } from 'typeorm';
import { ENTITIES } from '../src/app.entities';
import { dataSourceOptions } from '../src/infra/database/data-source-options';
import { runMigrationsWithLock } from '../src/infra/database/migrate';
import { createDatabase, databaseUrlFor, dropDatabase, uniqueName } from './setup/test-infra';

describe('migrations', () => {
  const admin = process.env.TEST_ADMIN_DATABASE_URL!;
  const name = uniqueName('rgs_migrate');
  let dataSource: DataSource;

  beforeAll(async () => {
    await createDatabase(admin, name);
    dataSource = await new DataSource(dataSourceOptions(databaseUrlFor(admin, name), ENTITIES)).initialize();
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await dropDatabase(admin, name);
  });

  it('build the whole schema on an empty database, and the entities have no drift from it', async () => {
    expect(await dataSource.query("SELECT to_regclass('public.accounts') AS t")).toEqual([{ t: null }]);
    await runMigrationsWithLock(dataSource);
    const pending = await dataSource.driver.createSchemaBuilder().log();
    expect(pending.upQueries.map((query) => query.query)).toEqual([]);
  });

  it('run twice (concurrently) without harm', async () => {
    await Promise.all([runMigrationsWithLock(dataSource), runMigrationsWithLock(dataSource)]);
    expect(await dataSource.showMigrations()).toBe(false);
  });

  it('make the budget ledger append-only', async () => {
    await runMigrationsWithLock(dataSource);
    const [account] = await dataSource.query("INSERT INTO accounts (external_id) VALUES ('ledger-test') RETURNING id");
    await dataSource.query("INSERT INTO budget_ledger (account_id, kind, amount_cents) VALUES ($1, 'credit', 100)", [account.id]);
    await expect(dataSource.query('UPDATE budget_ledger SET amount_cents = 1')).rejects.toThrow(/append-only/);
    await expect(dataSource.query('DELETE FROM budget_ledger')).rejects.toThrow(/append-only/);
  });
});
