import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { ApiError } from '../../common/errors/api-error';

/** Query parameters GET /v1/snapshots once had and now rejects (spec: 422 `unknown_parameter`). */
export const REMOVED_LIST_PARAMETERS = ['starred'] as const;

/**
 * Rejects a removed query parameter with any value (also `?starred` alone or `starred[]=…`). A guard runs after
 * authentication and rate limiting but before the query DTO is validated, so the removed parameter is what the
 * client hears about first. Other unknown parameters stay ignored.
 */
@Injectable()
export class RejectRemovedParametersGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const query = context.switchToHttp().getRequest<Request>().query as Record<string, unknown>;
    for (const name of REMOVED_LIST_PARAMETERS) {
      const sent = Object.keys(query ?? {}).some((key) => key === name || key.startsWith(`${name}[`));
      if (sent) {
        throw new ApiError('unknown_parameter', `The query parameter \`${name}\` is no longer supported`, [
          { path: name, code: 'unknown', message: `${name} is not a parameter of GET /v1/snapshots` },
        ]);
      }
    }
    return true;
  }
}
