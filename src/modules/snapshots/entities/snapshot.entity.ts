import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Account } from '../../accounts/entities/account.entity';
import type { ResolvedScanConfig } from '../../../domain/scan-config.types';

import type { SnapshotKind } from '../../../domain/snapshot-kinds';

/** A dated, self-contained, cited scan result. Immutable once written. */
@Entity({ name: 'snapshots' })
// The list index: (account_id, created_at DESC, id DESC) INCLUDE (jurisdiction_keys, area_keys), by the migration
// (TypeORM cannot declare INCLUDE); list pages and filtered counts are index-only scans of it.
@Index('ix_snapshots_account_list', { synchronize: false })
// A scan completes once: one standard or composite snapshot per scan, however often its job ran.
@Index('ux_snapshots_scan_primary', ['scanId'], { unique: true, where: "kind <> 'council_seat'" })
// GIN (btree_gin) over account_id, jurisdiction_keys, area_keys for the array filters, by the migration.
@Index('ix_snapshots_account_keys', { synchronize: false })
export class Snapshot {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'account_id', type: 'uuid' })
  accountId: string;

  @ManyToOne(() => Account, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'account_id' })
  account?: Account;

  @Column({ name: 'scan_id', type: 'uuid' })
  scanId: string;

  @Column({ type: 'varchar', length: 20 })
  kind: SnapshotKind;

  /** For council seats: the composite they belong to. */
  @Column({ name: 'parent_snapshot_id', type: 'uuid', nullable: true })
  parentSnapshotId: string | null;

  @Column({ type: 'varchar', length: 300 })
  title: string;

  @Column({ type: 'jsonb' })
  config: ResolvedScanConfig;

  /** The envelope as produced, including private keys that no read path returns. */
  @Column({ type: 'jsonb' })
  data: Record<string, unknown>;

  @Column({ type: 'varchar', length: 20 })
  engine: string;

  @Column({ type: 'smallint' })
  horizon: number;

  @Column({ type: 'text', array: true })
  jurisdictions: string[];

  @Column({ type: 'text', array: true })
  areas: string[];

  /** Lower-cased copies for case-insensitive exact filters (GIN indexed). */
  @Column({ name: 'jurisdiction_keys', type: 'text', array: true })
  jurisdictionKeys: string[];

  @Column({ name: 'area_keys', type: 'text', array: true })
  areaKeys: string[];

  @Column({ name: 'item_count', type: 'integer' })
  itemCount: number;

  /** Reconciled actual (may be fractional) when known. */
  @Column({ name: 'cost_cents', type: 'numeric', precision: 14, scale: 4, nullable: true })
  costCents: string | null;

  @Column({ name: 'estimate_cents', type: 'integer', nullable: true })
  estimateCents: number | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
