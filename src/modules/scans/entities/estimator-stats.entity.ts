import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** Recent actual costs per estimator fingerprint; a handful of rows, read whole by the estimator. */
@Entity({ name: 'estimator_stats' })
@Index('ix_estimator_stats_engine', ['engineVersion'])
export class EstimatorStats {
  @PrimaryColumn({ name: 'fingerprint_key', type: 'varchar', length: 200 })
  fingerprintKey: string;

  @Column({ name: 'engine_version', type: 'varchar', length: 20 })
  engineVersion: string;

  @Column({ type: 'jsonb' })
  fingerprint: Record<string, unknown>;

  /** Newest last, bounded by the estimator's sample cap. */
  @Column({ type: 'jsonb' })
  samples: number[];

  @Column({ name: 'last_seen_at', type: 'timestamptz' })
  lastSeenAt: Date;
}
