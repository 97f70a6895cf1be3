import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response as ExpressResponse } from 'express';
import { catchError, from, mergeMap, of, switchMap, type Observable } from 'rxjs';
import type { AuthenticatedRequest } from '../auth/principal';
import { ApiError } from '../errors/api-error';
import { isValidIdempotencyKey, requestFingerprint } from './fingerprint';
import { IdempotencyRepository, type RecordKey } from './idempotency.repository';
import type { IdempotencyRecord } from './idempotency-record.entity';
import { IDEMPOTENT } from './idempotent.decorator';

export const REPLAY_WINDOW_SECONDS = 24 * 3600;
/** A claim older than this is taken to belong to a process that died mid-request (sync scans wait up to 120 s). */
const STALE_CLAIM_SECONDS = 600;
const REPLAYED_HEADERS = ['location', 'content-type'];

interface CapturedResponse {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** Exactly-once execution per (API key, endpoint, Idempotency-Key); the unique record in Postgres arbitrates races. */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    private readonly records: IdempotencyRepository,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (!this.reflector.get<boolean>(IDEMPOTENT, context.getHandler())) return next.handle();
    const req = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const res = context.switchToHttp().getResponse<ExpressResponse>();
    const header = req.headers['idempotency-key'];
    if (header === undefined) return next.handle();
    if (typeof header !== 'string' || !isValidIdempotencyKey(header)) {
      throw new ApiError('invalid_idempotency_key', 'Idempotency-Key must be 1 to 255 printable ASCII characters');
    }
    const principal = req.principal;
    if (principal?.kind !== 'api_key') return next.handle();
    const key: RecordKey = { apiKeyId: principal.apiKeyId, endpoint: endpointOf(req), idempotencyKey: header };
    const fingerprint = requestFingerprint(req.method, req.path, req.query, req.body);

    return from(this.records.claim(key, fingerprint, REPLAY_WINDOW_SECONDS, STALE_CLAIM_SECONDS)).pipe(
      switchMap((claim) => {
        if (!claim.claimed) return of(this.replay(claim.existing, fingerprint));
        return next.handle().pipe(
          mergeMap(async (value) => {
            const captured = await capture(value, res);
            if (captured.status >= 200 && captured.status < 300) await this.records.complete(key, captured.status, captured.headers, captured.body);
            else await this.records.release(key);
            return value;
          }),
          catchError(async (error: unknown) => {
            await this.records.release(key).catch(() => undefined);
            throw error;
          }),
        );
      }),
    );
  }

  private replay(record: IdempotencyRecord, fingerprint: string): Response {
    if (record.fingerprint !== fingerprint) {
      throw new ApiError('idempotency_key_in_use', 'This Idempotency-Key was already used with a different request body');
    }
    if (record.state !== 'completed' || record.responseStatus === null) {
      throw new ApiError('idempotency_in_progress', 'The original request with this Idempotency-Key is still running; retry later');
    }
    const headers = new Headers({ 'content-type': 'application/json; charset=utf-8', ...record.responseHeaders, 'Idempotency-Replayed': 'true' });
    const body = record.responseStatus === 204 ? null : JSON.stringify(record.responseBody);
    return new Response(body, { status: record.responseStatus, headers });
  }
}

function endpointOf(req: Request): string {
  const route = (req as Request & { route?: { path?: string } }).route?.path ?? req.path;
  return `${req.method} ${req.baseUrl ?? ''}${route}`.slice(0, 100);
}

async function capture(value: unknown, res: ExpressResponse): Promise<CapturedResponse> {
  if (value instanceof Response) {
    const text = await value.clone().text();
    const headers: Record<string, string> = {};
    value.headers.forEach((v, name) => {
      if (REPLAYED_HEADERS.includes(name.toLowerCase())) headers[name.toLowerCase()] = v;
    });
    return { status: value.status, headers, body: text ? JSON.parse(text) : null };
  }
  const headers: Record<string, string> = {};
  for (const name of REPLAYED_HEADERS) {
    const v = res.getHeader(name);
    if (typeof v === 'string' && name !== 'content-type') headers[name] = v;
  }
  return { status: res.statusCode, headers, body: value ?? null };
}
