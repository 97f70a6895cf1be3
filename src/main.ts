import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { INestApplication, INestApplicationContext } from '@nestjs/common';
import { Logger } from 'nestjs-pino';
import { AppModule } from './app.module';
import { createHttpApp } from './app.factory';
import { loadConfigOrExit, provideBackingServices } from './bootstrap-env';
import { DrainService } from './common/lifecycle/drain.service';
import { drainHttp } from './common/lifecycle/http-drain';

const log = (line: string, level = 30) =>
  process.stdout.write(`${JSON.stringify({ level, time: Date.now(), pid: process.pid, msg: line })}\n`);
/** After the configured drain time, hooks and stores get this much longer before the process exits regardless. */
const CLOSE_GRACE_MS = 5000;

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const embedded = await provideBackingServices(config, log);
  let app: INestApplicationContext;
  try {
    if (config.appRole === 'worker') {
      app = await NestFactory.createApplicationContext(AppModule, { bufferLogs: true });
      app.useLogger(app.get(Logger));
      app.flushLogs();
      log(`worker started (role ${config.appRole})`);
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
    log(`${signal} received: draining for up to ${config.shutdownTimeoutMs} ms`);
    // Bounded whatever a hook, a job or a client does.
    setTimeout(() => {
      log('drain did not finish in time: exiting', 40);
      process.exit(1);
    }, config.shutdownTimeoutMs + CLOSE_GRACE_MS).unref();
    try {
      // Streams, sync waits and running scans let go first; then the server stops; then queues and stores close.
      app.get(DrainService).start();
      if (config.appRole !== 'worker') await drainHttp(app as INestApplication, config.shutdownTimeoutMs);
      await app.close();
    } catch (error) {
      log(`shutdown error: ${String(error)}`, 50);
    }
    await embedded?.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

// Every promise in the code is awaited or caught; one that escapes is a bug to log, not a reason to drop the
// work of every other request and job in this process.
process.on('unhandledRejection', (reason) => {
  log(`unhandled rejection: ${reason instanceof Error ? (reason.stack ?? reason.message) : String(reason)}`, 50);
});
// A thrown error nobody caught leaves the process in an unknown state: log it and let the supervisor restart us.
process.on('uncaughtException', (error) => {
  log(`uncaught exception, exiting: ${error.stack ?? error.message}`, 60);
  process.exit(1);
});

main().catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`Start-up failed: ${message.split('\n')[0]}\n`);
  process.exit(1);
});
