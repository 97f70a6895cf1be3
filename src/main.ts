import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { INestApplicationContext } from '@nestjs/common';
import { AppModule } from './app.module';
import { createHttpApp } from './app.factory';
import { loadConfigOrExit, provideBackingServices } from './bootstrap-env';

const log = (line: string) => process.stdout.write(`${JSON.stringify({ level: 30, time: Date.now(), msg: line })}\n`);

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const embedded = await provideBackingServices(config, log);
  let app: INestApplicationContext;
  try {
    if (config.appRole === 'worker') {
      app = await NestFactory.createApplicationContext(AppModule, { bufferLogs: true });
    } else {
      const http = await createHttpApp();
      await http.listen(config.port, '0.0.0.0');
      log(`listening on ${config.baseUrl} (role ${config.appRole}); API docs at ${config.baseUrl}/docs`);
      app = http;
    }
  } catch (error) {
    await embedded?.stop();
    throw error;
  }

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log(`${signal} received: draining`);
    // Stops accepting connections, lets in-flight requests and active jobs finish, closes Postgres and Redis.
    await app.close().catch((error) => log(`shutdown error: ${String(error)}`));
    await embedded?.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`Start-up failed: ${message.split('\n')[0]}\n`);
  process.exit(1);
});
