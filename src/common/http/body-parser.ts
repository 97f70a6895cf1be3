import type { INestApplication } from '@nestjs/common';
import { json, type ErrorRequestHandler, type Request } from 'express';

export const BODY_LIMIT_BYTES = 2 * 1024 * 1024;
/** Deepest nesting of arrays and objects a JSON body may have; every body of this API needs 3 at most. */
export const MAX_JSON_DEPTH = 32;

const TOO_DEEP = 'entity.too.deep';
const UNSUPPORTED_CHARSET = 'charset.unsupported';
/** Requests whose body was refused for its nesting: JsonBodyMiddleware answers them with a problem document. */
const refusedTooDeep = new WeakSet<Request>();

/**
 * Bodies are parsed before the API layer. A body that cannot be read (unparseable JSON, over 2 MB)
 * gets a plain 400/413 with no problem document and no request id, as the spec's Errors section says.
 * Non-strict parsing lets a top-level `"x"`, `42`, `true` or `null` through to validation, which answers 422
 * (docs/decisions.md); a body nested deeper than MAX_JSON_DEPTH is refused before it is parsed.
 */
export function installBodyParser(app: INestApplication): void {
  app.use(json({ limit: BODY_LIMIT_BYTES, type: ['application/json', 'application/*+json'], strict: false, verify: refuseDeepJson }));
  const rejectUnreadableBody: ErrorRequestHandler = (err, req, res, next) => {
    if (err?.type === TOO_DEEP) {
      refusedTooDeep.add(req);
      next();
      return;
    }
    const status = typeof err?.status === 'number' ? err.status : typeof err?.statusCode === 'number' ? err.statusCode : 0;
    if (err?.type && status >= 400 && status < 500) {
      res
        .status(status === 413 ? 413 : 400)
        .type('text/plain')
        .send(status === 413 ? 'Payload Too Large' : 'Bad Request');
      return;
    }
    next(err);
  };
  app.use(rejectUnreadableBody);
}

/** Why the body of this request was refused after it was read, if it was. */
export function refusedBodyDetail(req: Request): string | undefined {
  return refusedTooDeep.has(req) ? `The JSON body is nested deeper than ${MAX_JSON_DEPTH} levels of arrays and objects` : undefined;
}

/**
 * express.json's verify hook, run on the raw bytes before JSON.parse: parsing a 2 MB body of a million nested
 * arrays takes most of a second, and everything that walks the result recursively (the idempotency fingerprint,
 * class-transformer) would overflow the stack on it.
 */
function refuseDeepJson(_req: unknown, _res: unknown, body: Buffer, encoding: string | null): void {
  const bytes = encoding === null || /^utf-?8$/i.test(encoding) ? body : reencodeAsUtf8(body, encoding);
  if (jsonNestingExceeds(bytes, MAX_JSON_DEPTH)) throw Object.assign(new Error('JSON nested too deeply'), { type: TOO_DEEP });
}

function reencodeAsUtf8(body: Buffer, encoding: string): Uint8Array {
  let text: string;
  try {
    text = new TextDecoder(encoding).decode(body);
  } catch {
    // An encoding we cannot scan (UTF-7, UTF-32) is refused like any other unsupported charset: plain 400.
    throw Object.assign(new Error(`unsupported charset ${encoding}`), { type: UNSUPPORTED_CHARSET, status: 415 });
  }
  return Buffer.from(text, 'utf8');
}

/**
 * True when arrays and objects nest deeper than `limit` (a top-level scalar is depth 0, `{"a":[1]}` depth 2).
 * One pass over UTF-8 bytes that skips string contents; it does not judge syntax, which JSON.parse does next.
 */
export function jsonNestingExceeds(bytes: Uint8Array, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    if (inString) {
      if (byte === 0x5c) i++;
      else if (byte === 0x22) inString = false;
    } else if (byte === 0x22) inString = true;
    else if (byte === 0x5b || byte === 0x7b) {
      if (++depth > limit) return true;
    } else if (byte === 0x5d || byte === 0x7d) depth--;
  }
  return false;
}
