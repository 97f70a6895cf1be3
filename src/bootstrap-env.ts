import { existsSync } from 'node:fs';
import { ConfigError, loadConfig, type AppConfig } from './config/app-config';
import { startEmbeddedServices, type EmbeddedHandle } from './infra/embedded/embedded-services';

export const DATA_DIR = './.data';

/** Reads .env and validates the configuration; an invalid variable ends the process with one line naming it. */
export function loadConfigOrExit(): AppConfig {
  if (existsSync('.env')) process.loadEnvFile('.env');
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`Invalid configuration: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}

/** Starts whatever ../shared/spec/decisions.md section 4 says to embed and points the environment at it. */
export async function provideBackingServices(config: AppConfig, log: (line: string) => void): Promise<EmbeddedHandle | undefined> {
  if (config.databaseUrl && config.redisUrl) return undefined;
  const embedded = await startEmbeddedServices({ dataDir: DATA_DIR, needDatabase: !config.databaseUrl, needRedis: !config.redisUrl, log });
  if (embedded.databaseUrl) process.env.DATABASE_URL = embedded.databaseUrl;
  if (embedded.redisUrl) process.env.REDIS_URL = embedded.redisUrl;
  return embedded;
}
