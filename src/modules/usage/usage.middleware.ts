import { Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import type { AuthenticatedRequest } from '../../common/auth/principal';
import { UsageRecorder } from './usage-recorder.service';

/** Meters every /v1 request of a known account when its response has been sent. */
@Injectable()
export class UsageMiddleware implements NestMiddleware {
  constructor(private readonly recorder: UsageRecorder) {}

  use(req: Request, res: Response, next: NextFunction): void {
    res.once('finish', () => {
      const principal = (req as AuthenticatedRequest).principal;
      if (!principal) return;
      const route = (req as Request & { route?: { path?: string } }).route?.path;
      const endpoint = `${req.method} ${route ? `${req.baseUrl ?? ''}${route}` : req.path}`.slice(0, 100);
      const created = res.statusCode >= 200 && res.statusCode < 300 && req.method === 'POST' && res.getHeader('Idempotency-Replayed') !== 'true';
      this.recorder.record({
        accountId: principal.accountId,
        apiKeyId: principal.kind === 'api_key' ? principal.apiKeyId : null,
        endpoint,
        status: res.statusCode,
        scans: created && endpoint === 'POST /v1/scans' ? 1 : 0,
        exports: created && endpoint === 'POST /v1/exports' ? 1 : 0,
      });
    });
    next();
  }
}
