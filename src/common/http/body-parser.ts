import type { INestApplication } from '@nestjs/common';
import { json, type ErrorRequestHandler } from 'express';

export const BODY_LIMIT_BYTES = 2 * 1024 * 1024;

/**
 * Bodies are parsed before the API layer. A body that cannot be read (unparseable JSON, over 2 MB)
 * gets a plain 400/413 with no problem document and no request id, as the spec's Errors section says.
 */
export function installBodyParser(app: INestApplication): void {
  app.use(json({ limit: BODY_LIMIT_BYTES, type: ['application/json', 'application/*+json'] }));
  const rejectUnreadableBody: ErrorRequestHandler = (err, _req, res, next) => {
    const status = typeof err?.status === 'number' ? err.status : typeof err?.statusCode === 'number' ? err.statusCode : 0;
    if (err?.type && status >= 400 && status < 500) {
      res.status(status === 413 ? 413 : 400).type('text/plain').send(status === 413 ? 'Payload Too Large' : 'Bad Request');
      return;
    }
    next(err);
  };
  app.use(rejectUnreadableBody);
}
