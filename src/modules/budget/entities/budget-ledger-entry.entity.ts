import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { Account } from '../../accounts/entities/account.entity';

/**
 * credit: money into (or, negative, out of) the pool; reservation: held for a running scan;
 * settlement: the actual charge that closes a reservation; release: closes a reservation without charge;
 * charge: a direct charge with no reservation (provider-backed exports).
 */
export const LEDGER_KINDS = ['credit', 'reservation', 'settlement', 'release', 'charge'] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

/** Append-only: rows are inserted, never updated or deleted. */
@Entity({ name: 'budget_ledger' })
@Index('ix_budget_ledger_account_created', ['accountId', 'createdAt'])
@Index('ix_budget_ledger_reference', ['accountId', 'referenceType', 'referenceId'])
// Money moves at most once per piece of work, whatever reruns or races: one hold, one closing entry, one charge.
@Index('ux_budget_ledger_reservation', ['referenceType', 'referenceId'], { unique: true, where: "kind = 'reservation'" })
@Index('ux_budget_ledger_closure', ['referenceType', 'referenceId'], { unique: true, where: "kind IN ('settlement', 'release')" })
@Index('ux_budget_ledger_charge', ['referenceType', 'referenceId'], { unique: true, where: "kind = 'charge'" })
export class BudgetLedgerEntry {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' })
  id: string;

  @Column({ name: 'account_id', type: 'uuid' })
  accountId: string;

  @ManyToOne(() => Account, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'account_id' })
  account?: Account;

  @Column({ type: 'varchar', length: 20 })
  kind: LedgerKind;

  /** Cents; fractional only for reconciled provider actuals. */
  @Column({ name: 'amount_cents', type: 'numeric', precision: 14, scale: 4 })
  amountCents: string;

  @Column({ name: 'reference_type', type: 'varchar', length: 40, nullable: true })
  referenceType: string | null;

  @Column({ name: 'reference_id', type: 'varchar', length: 100, nullable: true })
  referenceId: string | null;

  @Column({ type: 'varchar', length: 300, nullable: true })
  note: string | null;

  /** The API key whose request incurred the entry (usage reports by key); null for operator entries. */
  @Column({ name: 'api_key_id', type: 'uuid', nullable: true })
  apiKeyId: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
