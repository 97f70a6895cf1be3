import { Inject, Module, type OnModuleInit } from '@nestjs/common';
import { DiscoveryModule, DiscoveryService, HttpAdapterHost } from '@nestjs/core';
import type { NextFunction, Request, Response } from 'express';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { createQueueBoard, QUEUE_DASHBOARD_PATH } from './queue-board';
import { QueueDashboardMiddleware } from './queue-dashboard.middleware';
import { registeredQueues } from './registered-queues';

/**
 * Bull Board for operators at /admin/queues (docs/decisions.md "Queue dashboard"), in processes that serve HTTP.
 * Mounted on the HTTP adapter once every module is up (so every registered queue exists), after the API's routes and
 * before the not-found handler, with the access check and the board in one mount so that they match the same paths.
 * Not a Nest route: it stays out of the OpenAPI document, the API's guards and its rate limits.
 */
@Module({
  imports: [DiscoveryModule],
  providers: [QueueDashboardMiddleware],
})
export class QueueDashboardModule implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly discovery: DiscoveryService,
    private readonly access: QueueDashboardMiddleware,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    const http = this.adapterHost.httpAdapter;
    // A worker process (APP_ROLE=worker) is an application context without an HTTP server.
    if (!http) return;
    const board = createQueueBoard(registeredQueues(this.discovery), this.config.queueDashboard.readOnly);
    const access = (req: Request, res: Response, next: NextFunction) => this.access.use(req, res, next);
    http.use(QUEUE_DASHBOARD_PATH, access, board);
  }
}
