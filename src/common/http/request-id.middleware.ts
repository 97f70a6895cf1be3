import type { NextFunction, Request, Response } from 'express';
import { REQUEST_ID_HEADER, requestIdOf } from './request-id';

/** Plain Express middleware, installed ahead of every route (docs and OpenAPI files included). */
export function requestIdMiddleware(req: Request, res: Response, next: NextFunction): void {
  res.setHeader(REQUEST_ID_HEADER, requestIdOf(req));
  next();
}
