import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';
import { Client } from 'pg';
import { startEmbeddedServices, type EmbeddedHandle } from '../../src/infra/embedded/embedded-services';

export const STATE_FILE = join(tmpdir(), `rgs-test-state-${process.ppid}-${process.pid}.json`);

export interface TestInfraState {
  adminDatabaseUrl: string;
  databaseName: string;
  databaseUrl: string;
  redisUrl: string;
  redisPrefix: string;
  /** Export artefacts of this run, removed by global-teardown. */
  storageDir: string;
}

const LOCAL_POSTGRES = 'postgres://postgres@127.0.0.1:5432/postgres';
const LOCAL_REDIS = 'redis://127.0.0.1:6379';

async function postgresAnswers(url: string): Promise<boolean> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 1500 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function redisAnswers(url: string): Promise<boolean> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 1500 });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

/**
 * TEST_DATABASE_URL / TEST_REDIS_URL when set; else the local services on their standard ports when they
 * answer; else embedded ones, as `npm start` uses.
 */
export async function resolveTestServices(): Promise<{ adminDatabaseUrl: string; redisUrl: string; embedded?: EmbeddedHandle }> {
  let adminDatabaseUrl = process.env.TEST_DATABASE_URL;
  let redisUrl = process.env.TEST_REDIS_URL;
  if (!adminDatabaseUrl && (await postgresAnswers(LOCAL_POSTGRES))) adminDatabaseUrl = LOCAL_POSTGRES;
  if (!redisUrl && (await redisAnswers(LOCAL_REDIS))) redisUrl = LOCAL_REDIS;
  let embedded: EmbeddedHandle | undefined;
  if (!adminDatabaseUrl || !redisUrl) {
    embedded = await startEmbeddedServices({
      dataDir: mkdtempSync(join(tmpdir(), 'rgs-test-embedded-')),
      needDatabase: !adminDatabaseUrl,
      needRedis: !redisUrl,
      log: () => undefined,
    });
    adminDatabaseUrl ??= embedded.databaseUrl!.replace(/\/rgs$/, '/postgres');
    redisUrl ??= embedded.redisUrl!;
  }
  return { adminDatabaseUrl, redisUrl, embedded };
}

export function uniqueName(prefix: string): string {
  return `${prefix}_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
}

export function databaseUrlFor(adminUrl: string, database: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

export async function createDatabase(adminUrl: string, name: string): Promise<void> {
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
}

export async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

export async function deleteRedisPrefix(redisUrl: string, prefix: string): Promise<void> {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}
