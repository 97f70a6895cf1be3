import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Logger } from 'nestjs-pino';
import { AppModule } from './app.module';
import { installBodyParser } from './common/http/body-parser';
import { DrainService } from './common/lifecycle/drain.service';
import { connectionCloseWhileDraining } from './common/lifecycle/http-drain';
import { requestIdMiddleware } from './common/http/request-id.middleware';
import { setupOpenApi } from './openapi/openapi.setup';

/** The one way an HTTP app is assembled, shared by main.ts and the end-to-end tests (which may wrap AppModule). */
export async function createHttpApp(rootModule: unknown = AppModule): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(rootModule as typeof AppModule, { bodyParser: false, bufferLogs: true });
  app.useLogger(app.get(Logger));
  app.disable('x-powered-by');
  app.set('etag', false);
  installBodyParser(app);
  app.use(requestIdMiddleware);
  app.use(connectionCloseWhileDraining(app.get(DrainService)));
  setupOpenApi(app);
  return app;
}
