import type { DataSourceOptions } from 'typeorm';
import { ENTITIES } from './entities';
import { MIGRATIONS } from './migrations';

export function dataSourceOptions(url: string, overrides: Partial<DataSourceOptions> = {}): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    entities: ENTITIES,
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
