import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { Account } from '../../accounts/entities/account.entity';
import type { ResolvedScanConfig } from '../../../domain/scan-config.types';

export const SCAN_STATUSES = ['running', 'completed', 'failed', 'cancelled'] as const;
export type ScanStatus = (typeof SCAN_STATUSES)[number];

export interface ScanProgress {
  phase: string;
  percent: number;
  message: string;
}

/** One scan run; clients read its state from here (never from the queue). */
@Entity({ name: 'scans' })
@Index('ix_scans_account_created', ['accountId', 'createdAt'])
@Index('ix_scans_running_updated', ['updatedAt'], { where: "status = 'running'" })
export class Scan {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'account_id', type: 'uuid' })
  accountId: string;

  @ManyToOne(() => Account, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'account_id' })
  account?: Account;

  @Column({ name: 'api_key_id', type: 'uuid', nullable: true })
  apiKeyId: string | null;

  @Column({ type: 'varchar', length: 20 })
  status: ScanStatus;

  @Column({ type: 'jsonb' })
  progress: ScanProgress;

  @Column({ type: 'jsonb' })
  config: ResolvedScanConfig;

  @Column({ type: 'varchar', length: 20 })
  engine: string;

  @Column({ type: 'varchar', length: 10 })
  mode: 'sync' | 'async';

  @Column({ name: 'snapshot_id', type: 'uuid', nullable: true })
  snapshotId: string | null;

  @Column({ type: 'text', nullable: true })
  error: string | null;

  /** The pre-scan estimate (whole cents), null on a cold start. */
  @Column({ name: 'estimate_cents', type: 'integer', nullable: true })
  estimateCents: number | null;

  @Column({ name: 'reserved_cents', type: 'numeric', precision: 14, scale: 4 })
  reservedCents: string;

  /** Cost of the work done so far; the actual cost once finished. */
  @Column({ name: 'cost_cents', type: 'numeric', precision: 14, scale: 4, nullable: true })
  costCents: string | null;

  /** Estimator fingerprint key, so the actual cost feeds later estimates. */
  @Column({ name: 'fingerprint_key', type: 'varchar', length: 200 })
  fingerprintKey: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;

  @Column({ name: 'completed_at', type: 'timestamptz', nullable: true })
  completedAt: Date | null;
}
