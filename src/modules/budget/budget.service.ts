import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { ApiError } from '../../common/errors/api-error';
import { BudgetRepository } from './budget.repository';

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

/** The prepaid pool of each account (decisions.md C7): integer cents in an append-only ledger. */
@Injectable()
export class BudgetService {
  constructor(private readonly repository: BudgetRepository) {}

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
      await this.lock(manager, accountId);
      await this.repository.append(manager, accountId, { kind: 'credit', amountCents: cents, note });
    });
    return this.view(accountId);
  }

  /** Sets the pool to an absolute amount by appending the difference as a credit. */
  async setPool(accountId: string, cents: number, note: string): Promise<BudgetView> {
    await this.repository.transaction(async (manager) => {
      const balance = await this.lock(manager, accountId);
      const delta = round4(cents - Number(balance.poolCents));
      if (delta !== 0) await this.repository.append(manager, accountId, { kind: 'credit', amountCents: delta, note });
    });
    return this.view(accountId);
  }

  /** Holds `cents` for a piece of work; 402 `budget_exhausted` when the remaining pool cannot cover it. */
  async reserve(accountId: string, reference: BudgetReference, cents: number): Promise<void> {
    await this.repository.transaction(async (manager) => {
      const balance = await this.lock(manager, accountId);
      const remaining = Number(balance.poolCents) - Number(balance.spentCents) - Number(balance.reservedCents);
      if (remaining < cents || remaining <= 0) {
        throw new ApiError(
          402,
          'budget_exhausted',
          `The budget pool has ${formatCents(remaining)} remaining; this scan needs ${formatCents(cents)}`,
        );
      }
      await this.repository.append(manager, accountId, {
        kind: 'reservation',
        amountCents: cents,
        referenceType: reference.type,
        referenceId: reference.id,
        apiKeyId: reference.apiKeyId,
      });
    });
  }

  /** Charges the actual cost and closes the reservation. A no-op when the reservation is already closed. */
  async settle(accountId: string, reference: BudgetReference, actualCents: number): Promise<void> {
    await this.close(accountId, reference, { kind: 'settlement', amountCents: actualCents });
  }

  /** Closes the reservation without a charge (failed work). */
  async release(accountId: string, reference: BudgetReference): Promise<void> {
    await this.close(accountId, reference, { kind: 'release', amountCents: 0 });
  }

  /** A direct charge with no prior reservation; false when the pool cannot cover it. */
  async charge(accountId: string, reference: BudgetReference, cents: number): Promise<boolean> {
    return this.repository.transaction(async (manager) => {
      const balance = await this.lock(manager, accountId);
      const remaining = Number(balance.poolCents) - Number(balance.spentCents) - Number(balance.reservedCents);
      if (remaining < cents) return false;
      await this.repository.append(manager, accountId, {
        kind: 'charge',
        amountCents: cents,
        referenceType: reference.type,
        referenceId: reference.id,
        apiKeyId: reference.apiKeyId,
      });
      return true;
    });
  }

  ledgerTotals(accountId: string) {
    return this.repository.ledgerTotals(accountId);
  }

  private async close(accountId: string, reference: BudgetReference, entry: { kind: 'settlement' | 'release'; amountCents: number }) {
    await this.repository.transaction(async (manager) => {
      await this.lock(manager, accountId);
      const reservation = await this.repository.openReservation(manager, accountId, reference.type, reference.id);
      if (!reservation) return;
      await this.repository.append(
        manager,
        accountId,
        { ...entry, referenceType: reference.type, referenceId: reference.id, apiKeyId: reservation.apiKeyId },
        reservation.amountCents,
      );
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
