import { Injectable, type CanActivate, type ExecutionContext, type NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { MetricsService } from './metrics.service';

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
const UNMATCHED = '(unmatched)';
const HANDLER_ROUTE = Symbol('handlerRoute');

type RoutedRequest = Request & { [HANDLER_ROUTE]?: string };

/**
 * The template of the route whose handler the request reached ("/v1/snapshots/:id"), never the URL, whose ids are
 * unbounded. Read when a handler is reached, not when the response ends: Nest mounts path-scoped middleware as
 * catch-all routes (`/v1/*path`), which set `req.route` too, so a request no handler matched would carry theirs.
 */
export function httpRouteLabel(req: { route?: { path?: unknown }; baseUrl?: string }): string {
  const path = req.route?.path;
  return typeof path === 'string' ? `${req.baseUrl ?? ''}${path}` : UNMATCHED;
}

export function httpMethodLabel(method: string | undefined): string {
  const upper = (method ?? '').toUpperCase();
  return METHODS.has(upper) ? upper : 'OTHER';
}

/** Labels a request that no Nest handler serves (a mounted Express app such as the queue dashboard) with a fixed route. */
export function labelMountedRoute(req: Request, route: string): void {
  (req as RoutedRequest)[HANDLER_ROUTE] = route;
}

/**
 * Notes the route of the handler a request reached. A global guard registered before AuthGuard, so that requests
 * refused by authentication or rate limits (401, 429) keep their route; it never refuses anything itself.
 */
@Injectable()
export class HandlerRouteGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    if (context.getType() === 'http') {
      const req = context.switchToHttp().getRequest<RoutedRequest>();
      req[HANDLER_ROUTE] = httpRouteLabel(req);
    }
    return true;
  }
}

/** Counts and times every request of the API port once its response is over (finished or cut off). */
@Injectable()
export class HttpMetricsMiddleware implements NestMiddleware {
  constructor(private readonly metrics: MetricsService) {}

  use(req: RoutedRequest, res: Response, next: NextFunction): void {
    const started = process.hrtime.bigint();
    res.once('close', () => {
      const labels = { route: req[HANDLER_ROUTE] ?? UNMATCHED, method: httpMethodLabel(req.method), status: String(res.statusCode) };
      this.metrics.httpRequests.inc(labels);
      this.metrics.httpDuration.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
    });
    next();
  }
}
