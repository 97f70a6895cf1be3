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

/** Pretty lines for a person at a terminal (`npm start`), JSON lines for everything that reads logs as data. */
export function logFormat(stdoutIsTty: boolean | undefined, nodeEnv: string | undefined): 'pretty' | 'json' {
  return stdoutIsTty === true && nodeEnv !== 'production' ? 'pretty' : 'json';
}

/**
 * pino-pretty in the process (no transport thread), written synchronously so that lines keep their order with
 * main.ts's own. It is a development dependency: where it is not installed the logs stay JSON.
 */
function prettyStdout() {
  try {
    const pretty = require('pino-pretty') as typeof import('pino-pretty');
    return pretty({ destination: 1, sync: true, colorize: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' });
  } catch {
    return undefined;
  }
}

function logDestination(config: AppConfig) {
  return (logFormat(process.stdout.isTTY, config.nodeEnv) === 'pretty' && prettyStdout()) || bufferedStdout();
}

/** Structured JSON logs (pretty-printed in a terminal outside production); every line of a request carries its request id, and credentials never reach a log. */
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
          logDestination(config),
        ],
        forRoutes: [{ path: '*path', method: 0 as never }],
      }),
    }),
  ],
})
export class LoggingModule {}
