import { existsSync } from 'node:fs';
import { DataSource } from 'typeorm';
import { ENTITIES } from './app.entities';
import { dataSourceOptions } from './infra/database/data-source-options';

// The TypeORM CLI's data source (`npm run migration:generate|run`); it needs DATABASE_URL.
if (existsSync('.env')) process.loadEnvFile('.env');
if (!process.env.DATABASE_URL) {
  throw new Error('DATABASE_URL: required for the migration commands (e.g. postgres://postgres@127.0.0.1:5432/rgs)');
}

export default new DataSource(dataSourceOptions(process.env.DATABASE_URL, ENTITIES));
