import type { DashboardOperator } from '../../config/app-config';
import type { VerifiedSession } from './dashboard-session.service';

/**
 * An operator (queue dashboard) is a session listed in DASHBOARD_OPERATORS, which works with any identity
 * provider, or one whose provider set the claim `operator: true` (the CLI's `session:token --operator`).
 */
export function isDashboardOperator(session: VerifiedSession, operators: readonly DashboardOperator[]): boolean {
  if (session.operatorClaim) return true;
  return operators.some(
    (operator) => operator.accountId === session.accountExternalId && (operator.subject === '*' || operator.subject === session.subject),
  );
}
