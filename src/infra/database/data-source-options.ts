import type { DataSourceOptions, EntitySchema, MixedList } from 'typeorm';
import { MIGRATIONS } from './migrations';

/** `entities` is the application's list (src/app.entities.ts): infrastructure knows no feature's tables. */
export function dataSourceOptions(
  url: string,
  entities: MixedList<Function | string | EntitySchema>,
  overrides: Partial<DataSourceOptions> = {},
): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    entities,
    migrations: MIGRATIONS,
    migrationsTableName: 'typeorm_migrations',
    // Schema changes only ever come from migrations.
    synchronize: false,
    migrationsRun: false,
    uuidExtension: 'pgcrypto',
    extra: { max: 20, connectionTimeoutMillis: 5000 },
    ...overrides,
  } as DataSourceOptions;
}
