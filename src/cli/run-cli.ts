import { NestFactory } from '@nestjs/core';
import { loadConfig } from '../config/app-config';
import { DATA_DIR, loadConfigOrExit, provideBackingServices } from '../bootstrap-env';
import { readRunningEmbedded } from '../infra/embedded/embedded-services';
import { CliModule } from './cli.module';
import { parseCommand, USAGE, UsageError } from './commands';

export interface CliIo {
  out: (text: string) => void;
  err: (text: string) => void;
}

/** Runs one operator command; returns the exit code (0 ok, 1 failed, 2 bad arguments). */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  try {
    return await execute(argv, io);
  } catch (error) {
    if (error instanceof UsageError) {
      if (error.message) io.err(`error: ${error.message}\n\n`);
      io.err(`${USAGE}\n`);
      return error.message ? 2 : 0;
    }
    io.err(`failed: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}

async function execute(argv: string[], io: CliIo): Promise<number> {
  const parsed = parseCommand(argv);
  let config = loadConfigOrExit();
  if (!parsed.command.needsDatabase) {
    io.out(`${await parsed.command.run(parsed.values, { config })}\n`);
    return 0;
  }
  // Reuse the embedded services of a running `npm start`, else embed them for the duration of the command.
  const running = config.databaseUrl && config.redisUrl ? undefined : readRunningEmbedded(DATA_DIR);
  if (!config.databaseUrl && running?.databaseUrl) process.env.DATABASE_URL = running.databaseUrl;
  if (!config.redisUrl && running?.redisUrl) process.env.REDIS_URL = running.redisUrl;
  const embedded = await provideBackingServices(loadConfig(), () => undefined);
  config = loadConfig();
  const context = await NestFactory.createApplicationContext(CliModule, { logger: ['error'] });
  try {
    io.out(`${await parsed.command.run(parsed.values, { config, context })}\n`);
    return 0;
  } finally {
    await context.close();
    await embedded?.stop();
  }
}
