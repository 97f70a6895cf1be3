import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { WebhookAttempt } from './entities/webhook-attempt.entity';
import { WebhookDelivery } from './entities/webhook-delivery.entity';
import { WebhookEndpoint } from './entities/webhook-endpoint.entity';

export const MAX_LISTED_DELIVERIES = 100;

export interface NewEndpoint {
  accountId: string;
  url: string;
  events: string[];
  secret: string;
  description: string | null;
}

export interface EndpointChanges {
  url?: string;
  events?: string[];
  description?: string;
  enabled?: boolean;
}

export const DISABLED_BY_ACCOUNT = 'Disabled by the account';

/** The only code that touches the webhook tables; every request-path query is scoped by account. */
@Injectable()
export class WebhooksRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private endpoints(manager?: EntityManager) {
    return (manager ?? this.dataSource.manager).getRepository(WebhookEndpoint);
  }

  /**
   * Inserts the endpoint unless the account already has `max`; null then. The account row is locked (as for API
   * keys) so concurrent registrations count one after another. The count reads ix_webhook_endpoints_account.
   */
  insertWithinLimit(endpoint: NewEndpoint, max: number): Promise<WebhookEndpoint | null> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query('SELECT id FROM accounts WHERE id = $1 FOR UPDATE', [endpoint.accountId]);
      if ((await this.endpoints(manager).countBy({ accountId: endpoint.accountId })) >= max) return null;
      const row = { ...endpoint, disabledAt: null, disabledReason: null, previousSecret: null, previousSecretExpiresAt: null };
      return this.endpoints(manager).save(this.endpoints(manager).create(row));
    });
  }

  /**
   * Replaces the secret; the one it replaces keeps signing until `graceSeconds` from now (none when 0). A rotation
   * within the grace period of the last one drops the older secret: two secrets sign at most.
   */
  async rotateSecret(accountId: string, id: string, secret: string, graceSeconds: number): Promise<WebhookEndpoint | null> {
    const [rows]: [unknown[], number] = await this.dataSource.query(
      `UPDATE webhook_endpoints
          SET previous_secret = CASE WHEN $4::int > 0 THEN secret END,
              previous_secret_expires_at = CASE WHEN $4::int > 0 THEN now() + make_interval(secs => $4::int) END,
              secret = $3, updated_at = now()
        WHERE id = $1 AND account_id = $2 RETURNING id`,
      [id, accountId, secret, graceSeconds],
    );
    return rows.length > 0 ? this.findEndpoint(accountId, id) : null;
  }

  listEndpoints(accountId: string): Promise<WebhookEndpoint[]> {
    return this.endpoints().find({ where: { accountId }, order: { createdAt: 'DESC', id: 'ASC' } });
  }

  findEndpoint(accountId: string, id: string): Promise<WebhookEndpoint | null> {
    return this.endpoints().findOneBy({ id, accountId });
  }

  /** Disabling keeps the time and reason of an earlier disable; enabling clears both. */
  async updateEndpoint(accountId: string, id: string, changes: EndpointChanges): Promise<WebhookEndpoint | null> {
    const { enabled, ...fields } = changes;
    const state =
      enabled === false
        ? { disabledAt: () => 'COALESCE(disabled_at, now())', disabledReason: () => `COALESCE(disabled_reason, '${DISABLED_BY_ACCOUNT}')` }
        : enabled === true
          ? { disabledAt: null, disabledReason: null }
          : {};
    await this.endpoints().update({ id, accountId }, { ...fields, ...state });
    return this.findEndpoint(accountId, id);
  }

  async deleteEndpoint(accountId: string, id: string): Promise<boolean> {
    const result = await this.endpoints().delete({ id, accountId });
    return (result.affected ?? 0) > 0;
  }

  /** Enabled endpoints of the account subscribed to the event, read in the caller's transaction. */
  subscribedEndpoints(manager: EntityManager, accountId: string, eventType: string): Promise<Pick<WebhookEndpoint, 'id'>[]> {
    return manager.query('SELECT id FROM webhook_endpoints WHERE account_id = $1 AND disabled_at IS NULL AND $2 = ANY(events)', [
      accountId,
      eventType,
    ]);
  }

  async insertDeliveries(manager: EntityManager, rows: Array<Pick<WebhookDelivery, 'endpointId' | 'accountId' | 'eventType' | 'payload'>>) {
    if (rows.length === 0) return [];
    const repository = manager.getRepository(WebhookDelivery);
    return repository.save(rows.map((row) => repository.create({ ...row, status: 'pending', attemptCount: 0 })));
  }

  listDeliveries(accountId: string, endpointId: string): Promise<WebhookDelivery[]> {
    return this.dataSource
      .getRepository(WebhookDelivery)
      .find({ where: { accountId, endpointId }, order: { createdAt: 'DESC', id: 'DESC' }, take: MAX_LISTED_DELIVERIES });
  }

  findDelivery(accountId: string, id: string): Promise<WebhookDelivery | null> {
    return this.dataSource.getRepository(WebhookDelivery).findOneBy({ id, accountId });
  }

  listAttempts(deliveryId: string): Promise<WebhookAttempt[]> {
    return this.dataSource.getRepository(WebhookAttempt).find({ where: { deliveryId }, order: { attemptedAt: 'ASC', id: 'ASC' } });
  }

  /** The delivery and its endpoint, for the worker (no account scope: the job carries only the delivery id). */
  async findForSending(deliveryId: string): Promise<{ delivery: WebhookDelivery; endpoint: WebhookEndpoint } | null> {
    const delivery = await this.dataSource.getRepository(WebhookDelivery).findOneBy({ id: deliveryId });
    if (!delivery) return null;
    const endpoint = await this.endpoints().findOneBy({ id: delivery.endpointId });
    return endpoint ? { delivery, endpoint } : null;
  }

  /** Records an attempt and the delivery's new state together; only a pending delivery moves. */
  async recordAttempt(
    deliveryId: string,
    attempt: Pick<WebhookAttempt, 'attemptedAt' | 'responseStatus' | 'error' | 'durationMs'>,
    outcome: { status: 'pending'; nextAttemptAt: Date } | { status: 'delivered' | 'failed' },
  ): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const moved: unknown[] = await manager.query(
        `UPDATE webhook_deliveries
            SET attempt_count = attempt_count + 1, status = $2::varchar, next_attempt_at = $3::timestamptz,
                delivered_at = CASE WHEN $2::varchar = 'delivered' THEN now() ELSE delivered_at END
          WHERE id = $1 AND status = 'pending' RETURNING id`,
        [deliveryId, outcome.status, outcome.status === 'pending' ? outcome.nextAttemptAt : null],
      );
      if (moved.length === 0) return;
      await manager.getRepository(WebhookAttempt).insert({ deliveryId, ...attempt });
    });
  }

  /**
   * Disables the endpoint when it has a delivery older than `failingSince` that did not get through and nothing
   * got through since: every delivery has failed for the whole period. True when this call disabled it.
   */
  async disableIfFailingSince(endpointId: string, failingSince: Date, reason: string): Promise<boolean> {
    const [rows]: [unknown[], number] = await this.dataSource.query(
      `UPDATE webhook_endpoints e SET disabled_at = now(), disabled_reason = $3, updated_at = now()
        WHERE e.id = $1 AND e.disabled_at IS NULL
          AND EXISTS (
            SELECT 1 FROM webhook_deliveries d
             WHERE d.endpoint_id = e.id AND d.status <> 'delivered' AND d.attempt_count > 0 AND d.created_at < $2
               AND d.created_at > COALESCE(
                 (SELECT max(ok.delivered_at) FROM webhook_deliveries ok WHERE ok.endpoint_id = e.id AND ok.status = 'delivered'),
                 '-infinity'))
        RETURNING e.id`,
      [endpointId, failingSince, reason],
    );
    return rows.length > 0;
  }

  /** Gives a pending delivery up without an attempt (its endpoint was disabled or deleted). */
  async abandon(deliveryId: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL WHERE id = $1 AND status = 'pending'`,
      [deliveryId],
    );
  }

  /**
   * Deletes up to `limit` finished (delivered or failed) deliveries created more than `days` ago, oldest first,
   * through ix_webhook_deliveries_finished_created; their attempts go with them (ON DELETE CASCADE, found through
   * ix_webhook_attempts_delivery). SKIP LOCKED lets the sweeps of several workers share the work. Returns the count.
   */
  async pruneFinished(days: number, limit: number): Promise<number> {
    const [, deleted]: [unknown[], number] = await this.dataSource.query(
      `DELETE FROM webhook_deliveries WHERE id IN (
         SELECT id FROM webhook_deliveries
          WHERE status <> 'pending' AND created_at < now() - make_interval(days => $1)
          ORDER BY created_at LIMIT $2 FOR UPDATE SKIP LOCKED)`,
      [days, limit],
    );
    return deleted;
  }

  /** Pending deliveries created more than `graceSeconds` ago, oldest first, for the reconciler. */
  pendingOlderThan(graceSeconds: number, limit: number): Promise<Array<{ id: string }>> {
    return this.dataSource.query(
      `SELECT id FROM webhook_deliveries
        WHERE status = 'pending' AND created_at < now() - make_interval(secs => $1)
        ORDER BY created_at LIMIT $2`,
      [graceSeconds, limit],
    );
  }
}
