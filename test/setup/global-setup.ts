import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { ENTITIES } from '../../src/app.entities';
import { dataSourceOptions } from '../../src/infra/database/data-source-options';
import { runMigrationsWithLock } from '../../src/infra/database/migrate';
import { createDatabase, databaseUrlFor, resolveTestServices, STATE_FILE, uniqueName, type TestInfraState } from './test-infra';

/** One database and one Redis key prefix per test run, migrated once; removed again by global-teardown. */
export default async function globalSetup(): Promise<void> {
  const services = await resolveTestServices();
  const databaseName = uniqueName('rgs_test');
  await createDatabase(services.adminDatabaseUrl, databaseName);
  const databaseUrl = databaseUrlFor(services.adminDatabaseUrl, databaseName);
  const dataSource = await new DataSource(dataSourceOptions(databaseUrl, ENTITIES)).initialize();
  try {
    await runMigrationsWithLock(dataSource);
  } finally {
    await dataSource.destroy();
  }
  const state: TestInfraState = {
    adminDatabaseUrl: services.adminDatabaseUrl,
    databaseName,
    databaseUrl,
    redisUrl: services.redisUrl,
    redisPrefix: uniqueName('rgs_test'),
    storageDir: mkdtempSync(join(tmpdir(), 'rgs-test-artefacts-')),
  };
  writeFileSync(STATE_FILE, JSON.stringify(state));
  process.env.RGS_TEST_STATE_FILE = STATE_FILE;
  (globalThis as { __rgsEmbedded?: unknown }).__rgsEmbedded = services.embedded;
}
