import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** Requests per account, key, endpoint, status and minute; written in batches, never per request. */
@Entity({ name: 'usage_counters' })
@Index('ix_usage_counters_account_minute', ['accountId', 'minuteStart'])
export class UsageCounter {
  @PrimaryColumn({ name: 'account_id', type: 'uuid' })
  accountId: string;

  /** The nil UUID stands for dashboard-session requests (no key). */
  @PrimaryColumn({ name: 'api_key_id', type: 'uuid' })
  apiKeyId: string;

  @PrimaryColumn({ type: 'varchar', length: 100 })
  endpoint: string;

  @PrimaryColumn({ type: 'smallint' })
  status: number;

  @PrimaryColumn({ name: 'minute_start', type: 'timestamptz' })
  minuteStart: Date;

  @Column({ type: 'integer', default: 0 })
  requests: number;

  @Column({ type: 'integer', default: 0 })
  scans: number;

  @Column({ type: 'integer', default: 0 })
  exports: number;
}
