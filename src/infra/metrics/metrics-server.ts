import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { MetricsService } from './metrics.service';

/** True when no token is configured, or the Authorization header is exactly "Bearer <token>" (compared in constant time). */
export function isAuthorizedScrape(authorization: string | undefined, token: string | undefined): boolean {
  if (token === undefined) return true;
  const match = /^Bearer (.+)$/i.exec(authorization ?? '');
  if (!match) return false;
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(match[1]), digest(token));
}

/**
 * GET /metrics on a port of its own (METRICS_PORT), in every process: a worker has no HTTP server to hang it on,
 * and on the API port it would sit beside the public API, behind its auth, rate limits and request metrics. The
 * port is meant for the monitoring network only; METRICS_TOKEN adds a bearer token (docs/decisions.md "Metrics").
 */
@Injectable()
export class MetricsServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('MetricsServer');
  private server?: Server;

  constructor(
    private readonly metrics: MetricsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Where this process is scraped, e.g. http://127.0.0.1:9464/metrics (the port actually bound when METRICS_PORT=0). */
  get url(): string {
    const address = this.server?.address() as AddressInfo | null | undefined;
    if (!address) throw new Error('the metrics listener is not running');
    const host = ['0.0.0.0', '::'].includes(address.address) ? '127.0.0.1' : address.address;
    return `http://${host.includes(':') ? `[${host}]` : host}:${address.port}/metrics`;
  }

  async onApplicationBootstrap(): Promise<void> {
    const { port, host } = this.config.metrics;
    const server = createServer((req, res) => void this.answer(req, res));
    await new Promise<void>((resolve, reject) => {
      server.once('error', (error: NodeJS.ErrnoException) =>
        reject(
          error.code === 'EADDRINUSE'
            ? new Error(`METRICS_PORT ${port} is already in use on ${host}: give each process on a host its own METRICS_PORT`)
            : error,
        ),
      );
      server.listen(port, host, () => resolve());
    });
    server.on('error', (error) => this.logger.error({ err: String(error) }, 'metrics listener error'));
    this.server = server;
    this.logger.log(`metrics at ${this.url}${this.config.metrics.token ? ' (bearer token required)' : ''}`);
  }

  async onApplicationShutdown(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found: metrics are at GET /metrics\n');
      return;
    }
    if (!isAuthorizedScrape(req.headers.authorization, this.config.metrics.token)) {
      res.writeHead(401, { 'Content-Type': 'text/plain; charset=utf-8', 'WWW-Authenticate': 'Bearer' }).end('Unauthorized\n');
      return;
    }
    try {
      const body = await this.metrics.exposition();
      res.writeHead(200, { 'Content-Type': this.metrics.contentType, 'Cache-Control': 'no-store' });
      res.end(req.method === 'HEAD' ? undefined : body);
    } catch (error) {
      this.logger.error({ err: String(error) }, 'metrics scrape failed');
      res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Metrics unavailable\n');
    }
  }
}
