import { readFileSync, rmSync } from 'node:fs';
import type { EmbeddedHandle } from '../../src/infra/embedded/embedded-services';
import { deleteRedisPrefix, dropDatabase, STATE_FILE, type TestInfraState } from './test-infra';

export default async function globalTeardown(): Promise<void> {
  const state = JSON.parse(readFileSync(STATE_FILE, 'utf8')) as TestInfraState;
  await dropDatabase(state.adminDatabaseUrl, state.databaseName);
  await deleteRedisPrefix(state.redisUrl, state.redisPrefix);
  rmSync(state.storageDir, { recursive: true, force: true });
  rmSync(STATE_FILE, { force: true });
  await (globalThis as { __rgsEmbedded?: EmbeddedHandle }).__rgsEmbedded?.stop();
}
