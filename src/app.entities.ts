import { AccountIntegration } from './modules/accounts/entities/account-integration.entity';
import { Account } from './modules/accounts/entities/account.entity';
import { User } from './modules/accounts/entities/user.entity';
import { BudgetBalance } from './modules/budget/entities/budget-balance.entity';
import { BudgetLedgerEntry } from './modules/budget/entities/budget-ledger-entry.entity';
import { ApiKey } from './modules/keys/entities/api-key.entity';
import { UsageCounter } from './modules/usage/entities/usage-counter.entity';
import { IdempotencyRecord } from './common/idempotency/idempotency-record.entity';
import { EstimatorStats } from './modules/scans/entities/estimator-stats.entity';
import { Scan } from './modules/scans/entities/scan.entity';
import { Snapshot } from './modules/snapshots/entities/snapshot.entity';
import { SnapshotRepresentation } from './modules/snapshots/entities/snapshot-representation.entity';
import { WebhookAttempt } from './modules/webhooks/entities/webhook-attempt.entity';
import { WebhookDelivery } from './modules/webhooks/entities/webhook-delivery.entity';
import { WebhookEndpoint } from './modules/webhooks/entities/webhook-endpoint.entity';
import { ExportJob } from './modules/exports/entities/export-job.entity';

/** Every entity, listed explicitly so the CLI, the app and the tests see the same schema. */
export const ENTITIES = [Account, User, AccountIntegration, ApiKey, BudgetLedgerEntry, BudgetBalance, IdempotencyRecord, UsageCounter, Scan, Snapshot, SnapshotRepresentation, EstimatorStats, ExportJob, WebhookEndpoint, WebhookDelivery, WebhookAttempt];
