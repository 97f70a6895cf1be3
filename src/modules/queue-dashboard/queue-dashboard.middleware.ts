import { Inject, Injectable, type NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { authenticationRequired, permissionDenied } from '../../common/errors/api-error';
import { isDashboardOperator } from '../auth/dashboard-operators';
import { DashboardSessionService } from '../auth/dashboard-session.service';
import { checkSessionOrigin, sessionCookieOf } from '../auth/session-request';
import { labelMountedRoute } from '../../infra/metrics/http-metrics.middleware';
import { QUEUE_DASHBOARD_PATH } from './queue-board';

const READ_METHODS = new Set(['GET', 'HEAD']);

/**
 * In front of every path of the board (page, static files, its JSON API): an operator's dashboard session, never an
 * API key; writes only when QUEUE_DASHBOARD_READ_ONLY=false, and then same-site only (the sessions' CSRF rule).
 * No database and no rate limit: a refusal costs one signature check, and the board still opens with PostgreSQL down.
 */
@Injectable()
export class QueueDashboardMiddleware implements NestMiddleware {
  constructor(
    private readonly sessions: DashboardSessionService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  use(req: Request, res: Response, next: NextFunction): void {
    // One series for the whole board (its pages poll), refusals included, rather than `(unmatched)`.
    labelMountedRoute(req, QUEUE_DASHBOARD_PATH);
    this.admit(req).then(() => {
      // Operator pages with buttons that change queues: never framed by another site, never kept by a cache.
      res.setHeader('X-Frame-Options', 'DENY');
      res.setHeader('Content-Security-Policy', "frame-ancestors 'none'");
      res.setHeader('Cache-Control', 'no-store');
      next();
    }, next);
  }

  private async admit(req: Request): Promise<void> {
    const token = sessionCookieOf(req);
    if (!token) {
      throw authenticationRequired(
        req.headers.authorization === undefined
          ? "The queue dashboard needs an operator's dashboard session (cookie dashboard_session)"
          : "API keys do not open the queue dashboard: it needs an operator's dashboard session (cookie dashboard_session)",
      );
    }
    const session = await this.sessions.verify(token);
    if (!isDashboardOperator(session, this.config.dashboard.operators)) {
      throw permissionDenied(
        'The queue dashboard is for operators: DASHBOARD_OPERATORS does not list this user and the session has no operator claim',
      );
    }
    if (READ_METHODS.has(req.method)) return;
    if (this.config.queueDashboard.readOnly) {
      throw permissionDenied(
        'The queue dashboard is read-only (QUEUE_DASHBOARD_READ_ONLY=true): jobs and queues cannot be changed from it',
      );
    }
    checkSessionOrigin(req, this.config.dashboard.origins);
  }
}
