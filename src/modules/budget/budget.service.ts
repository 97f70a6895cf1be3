import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { ApiError } from '../../common/errors/api-error';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { afterCommit } from '../../infra/metrics/after-commit';
import { MetricsService } from '../../infra/metrics/metrics.service';
import { WebhookOutboxWriter } from '../webhooks/webhook-outbox-writer';
import { BudgetRepository, type OpenReservation } from './budget.repository';
import type { BudgetBalance } from './entities/budget-balance.entity';

export type { OpenReservation };

export interface BudgetView {
  currency: 'USD';
  pool_cents: number;
  spent_cents: number;
  reserved_cents: number;
  remaining_cents: number;
  updated_at: string;
}

export interface BudgetReference {
  type: string;
  id: string;
  /** The API key on whose behalf the money is spent, for usage reports. */
  apiKeyId?: string | null;
}

/**
 * The prepaid pool of each account (../shared/spec/decisions.md C7): integer cents in an append-only ledger. Every
 * change also watches the remaining against the `budget.low` threshold (watchRemaining).
 */
@Injectable()
export class BudgetService {
  constructor(
    private readonly repository: BudgetRepository,
    private readonly metrics: MetricsService,
    private readonly outbox: WebhookOutboxWriter,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Opens a new account's pool; runs inside the transaction that creates the account. */
  async openPool(manager: EntityManager, accountId: string, initialCents: number): Promise<void> {
    await this.repository.createBalance(manager, accountId);
    if (initialCents !== 0) {
      await this.repository.append(manager, accountId, { kind: 'credit', amountCents: initialCents, note: 'initial pool' });
    }
  }

  async view(accountId: string): Promise<BudgetView> {
    const balance = await this.repository.findBalance(accountId);
    const pool = Number(balance?.poolCents ?? 0);
    const spent = Number(balance?.spentCents ?? 0);
    const reserved = Number(balance?.reservedCents ?? 0);
    return {
      currency: 'USD',
      pool_cents: pool,
      spent_cents: spent,
      reserved_cents: reserved,
      remaining_cents: round4(pool - spent - reserved),
      updated_at: (balance?.updatedAt ?? new Date(0)).toISOString(),
    };
  }

  /** Adds (or, negative, removes) money to the pool. */
  async credit(accountId: string, cents: number, note: string): Promise<BudgetView> {
    await this.repository.transaction(async (manager) => {
      const before = await this.lock(manager, accountId);
      await this.repository.append(manager, accountId, { kind: 'credit', amountCents: cents, note });
      await this.watchRemaining(manager, accountId, before);
    });
    return this.view(accountId);
  }

  /** Sets the pool to an absolute amount by appending the difference as a credit. */
  async setPool(accountId: string, cents: number, note: string): Promise<BudgetView> {
    await this.repository.transaction(async (manager) => {
      const balance = await this.lock(manager, accountId);
      const delta = round4(cents - Number(balance.poolCents));
      if (delta === 0) return;
      await this.repository.append(manager, accountId, { kind: 'credit', amountCents: delta, note });
      await this.watchRemaining(manager, accountId, balance);
    });
    return this.view(accountId);
  }

  /**
   * Holds `cents` for a piece of work; 402 `budget_exhausted` when the remaining pool cannot cover it. Pass the
   * manager of the transaction that creates the work, so the hold and its owner commit (or vanish) together.
   */
  async reserve(accountId: string, reference: BudgetReference, cents: number, manager?: EntityManager): Promise<void> {
    await this.inTransaction(manager, async (tx) => {
      const balance = await this.lock(tx, accountId);
      const remaining = remainingCents(balance);
      if (remaining < cents || remaining <= 0) {
        throw new ApiError('budget_exhausted',
          `The budget pool has ${formatCents(remaining)} remaining; this ${reference.type} needs ${formatCents(cents)}`,
        );
      }
      await this.appendReservation(tx, accountId, reference, cents);
      await this.watchRemaining(tx, accountId, balance);
    });
  }

  /**
   * Holds `cents` for work that may run more than once (a re-run job): true when a hold for the reference exists
   * or was placed, false when the pool cannot cover it. A hold already closed counts as placed; its owner decides.
   */
  async reserveOnce(accountId: string, reference: BudgetReference, cents: number): Promise<boolean> {
    return this.repository.transaction(async (tx) => {
      const balance = await this.lock(tx, accountId);
      if (await this.repository.hasReservation(tx, reference.type, reference.id)) return true;
      const remaining = remainingCents(balance);
      if (remaining < cents) return false;
      await this.appendReservation(tx, accountId, reference, cents);
      await this.watchRemaining(tx, accountId, balance);
      return true;
    });
  }

  /**
   * Charges the actual cost and closes the reservation; a no-op when it is already closed. Pass the manager of the
   * transaction that moves the owner to its terminal state, so money and state change together.
   */
  async settle(accountId: string, reference: BudgetReference, actualCents: number, manager?: EntityManager): Promise<void> {
    await this.close(accountId, reference, { kind: 'settlement', amountCents: actualCents }, manager);
  }

  /** Closes the reservation without a charge (failed work). Same transaction rule as `settle`. */
  async release(accountId: string, reference: BudgetReference, manager?: EntityManager): Promise<void> {
    await this.close(accountId, reference, { kind: 'release', amountCents: 0 }, manager);
  }

  /** Reservations still open, oldest first, for the reconcilers that close those whose owner has finished. */
  openReservations(referenceType: string, limit: number): Promise<OpenReservation[]> {
    return this.repository.openReservations(referenceType, limit);
  }

  ledgerTotals(accountId: string) {
    return this.repository.ledgerTotals(accountId);
  }

  private async close(
    accountId: string,
    reference: BudgetReference,
    entry: { kind: 'settlement' | 'release'; amountCents: number },
    manager?: EntityManager,
  ): Promise<void> {
    await this.inTransaction(manager, async (tx) => {
      const before = await this.lock(tx, accountId);
      const reservation = await this.repository.openReservation(tx, accountId, reference.type, reference.id);
      if (!reservation) return;
      await this.repository.append(
        tx,
        accountId,
        { ...entry, referenceType: reference.type, referenceId: reference.id, apiKeyId: reservation.apiKeyId },
        reservation.amountCents,
      );
      await this.watchRemaining(tx, accountId, before);
      // A release entry carries 0: what it frees is the hold's amount.
      const [movement, cents] =
        entry.kind === 'settlement' ? ['settled' as const, entry.amountCents] : ['released' as const, reservation.amountCents];
      afterCommit(tx, () => this.metrics.recordLedger(movement, reference.type, Number(cents)));
    });
  }

  private inTransaction<T>(manager: EntityManager | undefined, work: (tx: EntityManager) => Promise<T>): Promise<T> {
    return manager ? work(manager) : this.repository.transaction(work);
  }

  private async appendReservation(tx: EntityManager, accountId: string, reference: BudgetReference, cents: number): Promise<void> {
    await this.repository.append(tx, accountId, {
      kind: 'reservation',
      amountCents: cents,
      referenceType: reference.type,
      referenceId: reference.id,
      apiKeyId: reference.apiKeyId,
    });
    afterCommit(tx, () => this.metrics.recordLedger('reserved', reference.type, cents));
  }

  /**
   * After a ledger change, under the balance lock: records one `budget.low` in this transaction when the remaining
   * has just fallen below the threshold (BUDGET_LOW_THRESHOLD_PERCENT of the pool), and re-arms the event once it
   * is back at or above it. `low_since` carries the state across transactions and processes.
   */
  private async watchRemaining(tx: EntityManager, accountId: string, before: BudgetBalance): Promise<void> {
    const percent = this.config.webhooks.budgetLowThresholdPercent;
    const balance = await this.repository.readBalance(tx, accountId);
    if (!balance) return;
    const pool = Number(balance.poolCents);
    const remaining = round4(remainingCents(balance));
    const threshold = round4((pool * percent) / 100);
    const low = percent > 0 && remaining < threshold;
    if (low === (before.lowSince !== null)) return;
    await this.repository.setLow(tx, accountId, low);
    if (!low) return;
    await this.outbox.record(tx, accountId, 'budget.low', {
      account_id: await this.repository.externalAccountId(tx, accountId),
      currency: 'USD',
      pool_cents: pool,
      spent_cents: Number(balance.spentCents),
      reserved_cents: Number(balance.reservedCents),
      remaining_cents: remaining,
      threshold_percent: percent,
      threshold_cents: threshold,
    });
  }

  private async lock(manager: EntityManager, accountId: string) {
    await this.repository.createBalance(manager, accountId);
    const balance = await this.repository.lockBalance(manager, accountId);
    if (!balance) throw new Error(`budget balance missing for account ${accountId}`);
    return balance;
  }
}

const round4 = (value: number) => Math.round(value * 10000) / 10000;
const formatCents = (cents: number) => `${round4(Math.max(cents, 0))} cents`;

/** What the pool can still hold: credited, less spent, less held. */
function remainingCents(balance: { poolCents: string | number; spentCents: string | number; reservedCents: string | number }): number {
  return Number(balance.poolCents) - Number(balance.spentCents) - Number(balance.reservedCents);
}
