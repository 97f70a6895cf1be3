import { readFileSync } from 'node:fs';
import type { TestInfraState } from './test-infra';

// Every e2e worker talks to the run's own database and Redis prefix, with settings that keep tests fast.
const state = JSON.parse(readFileSync(process.env.RGS_TEST_STATE_FILE!, 'utf8')) as TestInfraState;
Object.assign(process.env, {
  DATABASE_URL: state.databaseUrl,
  REDIS_URL: state.redisUrl,
  REDIS_PREFIX: state.redisPrefix,
  STORAGE_DIR: state.storageDir,
  TEST_ADMIN_DATABASE_URL: state.adminDatabaseUrl,
  MIGRATIONS_RUN: 'false',
  LOG_LEVEL: 'silent',
  DASHBOARD_JWT_SECRET: 'test-secret-0123456789-abcdefghijklmnop',
  DASHBOARD_ORIGINS: 'https://dashboard.example.com',
  BASE_URL: 'http://api.test',
  OFFLINE_STEP_MS: '5',
  SSE_HEARTBEAT_MS: '200',
});
