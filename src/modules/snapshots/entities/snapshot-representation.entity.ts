import { Column, CreateDateColumn, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Snapshot } from './snapshot.entity';

/**
 * One representation of an immutable snapshot as a read returns it (a language of the snapshot, a sub-resource),
 * derived once and served as these bytes with this strong ETag. `projection_version` names the read rules it was
 * derived under; a row of other rules is derived again.
 */
@Entity({ name: 'snapshot_representations' })
export class SnapshotRepresentation {
  @PrimaryColumn({ name: 'snapshot_id', type: 'uuid', primaryKeyConstraintName: 'PK_snapshot_representations' })
  snapshotId: string;

  @ManyToOne(() => Snapshot, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'snapshot_id', foreignKeyConstraintName: 'FK_snapshot_representations_snapshot' })
  snapshot?: Snapshot;

  /** `snapshot`, or a sub-resource path segment such as `items`. */
  @PrimaryColumn({ type: 'varchar', length: 32, primaryKeyConstraintName: 'PK_snapshot_representations' })
  resource: string;

  /** The language (`en`, `simple`, ...), the drift's calendar, or '' when the resource has one form. */
  @PrimaryColumn({ type: 'varchar', length: 64, primaryKeyConstraintName: 'PK_snapshot_representations' })
  variant: string;

  /** The snapshot's account, so a read checks ownership on this row alone. */
  @Column({ name: 'account_id', type: 'uuid' })
  accountId: string;

  @Column({ name: 'projection_version', type: 'integer' })
  projectionVersion: number;

  @Column({ type: 'varchar', length: 100 })
  etag: string;

  /** The JSON exactly as sent. */
  @Column({ type: 'text' })
  body: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
