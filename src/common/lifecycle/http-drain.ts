import type { Server } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import type { INestApplication } from '@nestjs/common';
import { DrainService } from './drain.service';

/**
 * While draining, every response asks its client to reconnect elsewhere (keep-alive ends after it): those that
 * start then, and those already in flight whose headers are not sent yet (a sync scan waiting for its result).
 */
export function connectionCloseWhileDraining(drain: DrainService) {
  const inFlight = new Set<Response>();
  drain.signal.addEventListener('abort', () => {
    for (const res of inFlight) if (!res.headersSent) res.setHeader('Connection', 'close');
  });
  return (_req: Request, res: Response, next: NextFunction): void => {
    if (drain.draining) {
      res.setHeader('Connection', 'close');
    } else {
      inFlight.add(res);
      res.once('close', () => inFlight.delete(res));
    }
    next();
  };
}

/**
 * Stops an API process taking work: marks it draining, stops accepting connections, closes idle keep-alive ones,
 * lets in-flight requests finish for up to `timeoutMs`, then cuts whatever is left.
 */
export async function drainHttp(app: INestApplication, timeoutMs: number): Promise<void> {
  app.get(DrainService).start();
  const server = app.getHttpServer() as Server;
  if (!server.listening) return;
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const cut = setTimeout(() => server.closeAllConnections(), timeoutMs);
  try {
    await closed;
  } finally {
    clearTimeout(cut);
  }
}
