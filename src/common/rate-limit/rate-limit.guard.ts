import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Response } from 'express';
import { ApiError } from '../errors/api-error';
import { MetricsService } from '../../infra/metrics/metrics.service';
import type { AuthenticatedRequest } from '../auth/principal';
import type { RateLimitBucket } from './rate-limit.buckets';
import { RATE_LIMIT_BUCKET } from './rate-limit.decorator';
import { rateLimitHeaders } from './rate-limit.math';
import { RateLimitService } from './rate-limit.service';

/** Runs after the AuthGuard (it needs the principal) and before anything that does work. */
@Injectable()
export class RateLimitGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly limits: RateLimitService,
    private readonly metrics: MetricsService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const bucket =
      this.reflector.get<RateLimitBucket | undefined>(RATE_LIMIT_BUCKET, context.getHandler()) ??
      this.reflector.get<RateLimitBucket | undefined>(RATE_LIMIT_BUCKET, context.getClass());
    if (!bucket) return true;
    const req = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const principal = req.principal;
    if (!principal) throw new Error(`rate-limited route ${req.path} reached the RateLimitGuard unauthenticated`);
    const subject = principal.kind === 'api_key' ? `key:${principal.apiKeyId}` : `user:${principal.userId}`;
    const decision = await this.limits.consume(bucket, subject);
    const headers = rateLimitHeaders(decision);
    if (!decision.allowed) {
      this.metrics.rateLimitRejections.inc({ bucket });
      throw new ApiError('rate_limit_exceeded',
        `Rate limit exceeded for the ${bucket} bucket (${decision.limit} per ${decision.windowSeconds} s); retry after ${decision.resetSeconds} s`,
        [],
        {
          ...headers,
          'Retry-After': String(decision.resetSeconds),
        },
      );
    }
    const res = context.switchToHttp().getResponse<Response>();
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    return true;
  }
}
