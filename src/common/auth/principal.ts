import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';

export type Principal =
  | { kind: 'api_key'; accountId: string; apiKeyId: string }
  | { kind: 'dashboard'; accountId: string; userId: string };

export type AuthenticatedRequest = Request & { principal?: Principal };

/** The authenticated caller of the current request (set by the AuthGuard). */
export const CurrentPrincipal = createParamDecorator((_data: unknown, ctx: ExecutionContext): Principal => {
  const principal = ctx.switchToHttp().getRequest<AuthenticatedRequest>().principal;
  if (!principal) throw new Error('CurrentPrincipal used on a route without authentication');
  return principal;
});
