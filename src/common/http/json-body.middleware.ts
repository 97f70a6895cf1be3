import { Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { invalidRequest } from '../errors/api-error';
import { refusedBodyDetail } from './body-parser';

const JSON_TYPE = /^application\/([\w.-]+\+)?json\b/i;

/**
 * A body sent with another media type would otherwise reach handlers as "no body" and read as missing fields.
 * A JSON body the parser refused for its nesting is answered here, where errors become problem documents.
 */
@Injectable()
export class JsonBodyMiddleware implements NestMiddleware {
  use(req: Request, _res: Response, next: NextFunction): void {
    const refused = refusedBodyDetail(req);
    if (refused) return next(invalidRequest(refused));
    const hasBody = Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
    const type = req.headers['content-type'];
    if (hasBody && ['POST', 'PUT', 'PATCH', 'DELETE'].includes(req.method) && !(type && JSON_TYPE.test(type))) {
      return next(invalidRequest('Request bodies must be JSON: send Content-Type: application/json'));
    }
    next();
  }
}
