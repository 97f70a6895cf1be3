import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { BudgetBalance } from './entities/budget-balance.entity';
import { BudgetLedgerEntry, type LedgerKind } from './entities/budget-ledger-entry.entity';

export interface OpenReservation {
  accountId: string;
  referenceId: string;
  amountCents: number;
  createdAt: Date;
}

export interface LedgerAppend {
  kind: LedgerKind;
  amountCents: number;
  referenceType?: string;
  referenceId?: string;
  note?: string;
  apiKeyId?: string | null;
}

/** Column deltas a ledger entry applies to the running balance. */
const BALANCE_EFFECT: Record<LedgerKind, { pool: number; spent: number; reserved: number }> = {
  credit: { pool: 1, spent: 0, reserved: 0 },
  reservation: { pool: 0, spent: 0, reserved: 1 },
  settlement: { pool: 0, spent: 1, reserved: 0 },
  release: { pool: 0, spent: 0, reserved: 0 },
  charge: { pool: 0, spent: 1, reserved: 0 },
};

@Injectable()
export class BudgetRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  async createBalance(manager: EntityManager, accountId: string): Promise<void> {
    await manager.createQueryBuilder().insert().into(BudgetBalance).values({ accountId }).orIgnore().execute();
  }

  /** Locks the account's balance row until the transaction ends: budget changes of one account run one at a time. */
  async lockBalance(manager: EntityManager, accountId: string): Promise<BudgetBalance | null> {
    return manager
      .getRepository(BudgetBalance)
      .createQueryBuilder('balance')
      .setLock('pessimistic_write')
      .where('balance.account_id = :accountId', { accountId })
      .getOne();
  }

  /** The balance as this transaction sees it (after its own appends); the caller holds the row's lock. */
  readBalance(manager: EntityManager, accountId: string): Promise<BudgetBalance | null> {
    return manager.getRepository(BudgetBalance).findOneBy({ accountId });
  }

  /** Marks the balance low (`budget.low` recorded for this dip) or armed again; under the row's lock. */
  async setLow(manager: EntityManager, accountId: string, low: boolean): Promise<void> {
    await manager.query(`UPDATE budget_balances SET low_since = CASE WHEN $2 THEN now() END WHERE account_id = $1`, [accountId, low]);
  }

  /** The identity provider's account id, which webhook receivers know the account by. */
  async externalAccountId(manager: EntityManager, accountId: string): Promise<string | null> {
    const [row]: Array<{ external_id: string }> = await manager.query('SELECT external_id FROM accounts WHERE id = $1', [accountId]);
    return row?.external_id ?? null;
  }

  findBalance(accountId: string): Promise<BudgetBalance | null> {
    return this.dataSource.getRepository(BudgetBalance).findOneBy({ accountId });
  }

  /**
   * Appends one ledger row and moves the running totals with it. `releasedReservationCents` is the amount of
   * the reservation a settlement or release closes.
   */
  async append(manager: EntityManager, accountId: string, entry: LedgerAppend, releasedReservationCents = 0): Promise<void> {
    await manager.getRepository(BudgetLedgerEntry).insert({
      accountId,
      kind: entry.kind,
      amountCents: String(entry.amountCents),
      referenceType: entry.referenceType ?? null,
      referenceId: entry.referenceId ?? null,
      note: entry.note ?? null,
      apiKeyId: entry.apiKeyId ?? null,
    });
    const effect = BALANCE_EFFECT[entry.kind];
    await manager.query(
      `UPDATE budget_balances
          SET pool_cents = pool_cents + $2, spent_cents = spent_cents + $3,
              reserved_cents = reserved_cents + $4 - $5, updated_at = now()
        WHERE account_id = $1`,
      [
        accountId,
        effect.pool * entry.amountCents,
        effect.spent * entry.amountCents,
        effect.reserved * entry.amountCents,
        releasedReservationCents,
      ],
    );
  }

  /** The open reservation for a reference, if any (a reservation not yet settled or released). */
  async openReservation(
    manager: EntityManager,
    accountId: string,
    referenceType: string,
    referenceId: string,
  ): Promise<{ amountCents: number; apiKeyId: string | null } | null> {
    const rows: Array<{ kind: LedgerKind; amount_cents: string; api_key_id: string | null }> = await manager.query(
      `SELECT kind, amount_cents, api_key_id FROM budget_ledger
        WHERE account_id = $1 AND reference_type = $2 AND reference_id = $3 AND kind IN ('reservation', 'settlement', 'release')`,
      [accountId, referenceType, referenceId],
    );
    const reservation = rows.find((row) => row.kind === 'reservation');
    if (!reservation || rows.some((row) => row.kind !== 'reservation')) return null;
    return { amountCents: Number(reservation.amount_cents), apiKeyId: reservation.api_key_id };
  }

  async hasReservation(manager: EntityManager, referenceType: string, referenceId: string): Promise<boolean> {
    const rows: unknown[] = await manager.query(
      `SELECT 1 FROM budget_ledger WHERE reference_type = $1 AND reference_id = $2 AND kind = 'reservation'`,
      [referenceType, referenceId],
    );
    return rows.length > 0;
  }

  /**
   * Open reservations of one reference type, oldest first: only accounts holding money are visited
   * (ix_budget_balances_reserved), each through ix_budget_ledger_reference (OFFSET 0 keeps the planner from
   * flattening that into a scan of the whole ledger), holds without a closing entry by ux_budget_ledger_closure.
   */
  async openReservations(referenceType: string, limit: number): Promise<OpenReservation[]> {
    const rows: Array<{ account_id: string; reference_id: string; amount_cents: string; created_at: Date }> = await this.dataSource.query(
      `SELECT r.account_id, r.reference_id, r.amount_cents, r.created_at
         FROM budget_balances b
        CROSS JOIN LATERAL (
          SELECT h.account_id, h.reference_id, h.amount_cents, h.created_at
            FROM budget_ledger h
           WHERE h.account_id = b.account_id AND h.reference_type = $1 AND h.kind = 'reservation'
             AND NOT EXISTS (
               SELECT 1 FROM budget_ledger c
                WHERE c.reference_type = $1 AND c.reference_id = h.reference_id AND c.kind IN ('settlement', 'release'))
          OFFSET 0) r
        WHERE b.reserved_cents <> 0
        ORDER BY r.created_at
        LIMIT $2`,
      [referenceType, limit],
    );
    return rows.map((row) => ({
      accountId: row.account_id,
      referenceId: row.reference_id,
      amountCents: Number(row.amount_cents),
      createdAt: row.created_at,
    }));
  }

  /** Totals recomputed from the ledger itself, for audits and tests of the running balance. */
  async ledgerTotals(accountId: string): Promise<{ pool: number; spent: number; reserved: number }> {
    const [row] = await this.dataSource.query(
      `WITH closed AS (
         SELECT reference_type, reference_id FROM budget_ledger
          WHERE account_id = $1 AND kind IN ('settlement', 'release'))
       SELECT
         COALESCE(SUM(amount_cents) FILTER (WHERE kind = 'credit'), 0) AS pool,
         COALESCE(SUM(amount_cents) FILTER (WHERE kind IN ('settlement', 'charge')), 0) AS spent,
         COALESCE(SUM(amount_cents) FILTER (WHERE kind = 'reservation' AND (reference_type, reference_id) NOT IN (SELECT * FROM closed)), 0) AS reserved
       FROM budget_ledger WHERE account_id = $1`,
      [accountId],
    );
    return { pool: Number(row.pool), spent: Number(row.spent), reserved: Number(row.reserved) };
  }
}
