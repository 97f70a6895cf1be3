import { Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import pino from 'pino';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { requestIdOf } from '../common/http/request-id';

/**
 * Buffered writes: one syscall per few KB of log lines instead of one per line. A quiet process (a worker between
 * jobs) still shows its lines within a second; pino flushes what is left when the process exits.
 */
function bufferedStdout() {
  const destination = pino.destination({ dest: 1, sync: false, minLength: 4096 });
  setInterval(() => {
    try {
      destination.flush();
    } catch {
      // a flush already in progress: the next tick takes the rest
    }
  }, LOG_FLUSH_INTERVAL_MS).unref();
  return destination;
}

const LOG_FLUSH_INTERVAL_MS = 1000;

/** Structured JSON logs; every line of a request carries its request id, and credentials never reach a log. */
@Module({
  imports: [
    LoggerModule.forRootAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => ({
        pinoHttp: [
          {
            level: config.logLevel,
            genReqId: (req) => requestIdOf(req as never),
            customAttributeKeys: { reqId: 'request_id' },
            redact: {
              paths: [
                'req.headers.authorization',
                'req.headers.cookie',
                'res.headers["set-cookie"]',
                '*.key',
                '*.token',
                '*.password',
                '*.secret',
              ],
              censor: '[redacted]',
            },
            serializers: {
              req: (req: { id: string; method: string; url: string }) => ({ method: req.method, url: req.url }),
              res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
            },
            autoLogging: { ignore: (req) => (req.url ?? '').startsWith('/health/') },
          },
          bufferedStdout(),
        ],
        forRoutes: [{ path: '*path', method: 0 as never }],
      }),
    }),
  ],
})
export class LoggingModule {}
