import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { Account } from '../../accounts/entities/account.entity';

/**
 * Running totals of an account's ledger, changed only in the same transaction as the ledger rows they
 * summarise. The row doubles as the per-account lock that serialises reservations.
 */
@Entity({ name: 'budget_balances' })
@Index('ix_budget_balances_reserved', ['accountId'], { where: 'reserved_cents <> 0' })
export class BudgetBalance {
  @PrimaryColumn({ name: 'account_id', type: 'uuid' })
  accountId: string;

  @ManyToOne(() => Account, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'account_id' })
  account?: Account;

  @Column({ name: 'pool_cents', type: 'numeric', precision: 14, scale: 4, default: 0 })
  poolCents: string;

  @Column({ name: 'spent_cents', type: 'numeric', precision: 14, scale: 4, default: 0 })
  spentCents: string;

  @Column({ name: 'reserved_cents', type: 'numeric', precision: 14, scale: 4, default: 0 })
  reservedCents: string;

  /**
   * Set when `budget.low` was recorded for the current dip of the remaining below the threshold, cleared once the
   * remaining is back at or above it (re-armed); changed only under the row's lock (docs/decisions.md "Webhooks").
   */
  @Column({ name: 'low_since', type: 'timestamptz', nullable: true })
  lowSince: Date | null;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
