import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/** One Idempotency-Key use, scoped per API key and endpoint; the unique key makes concurrent claims race-free. */
@Entity({ name: 'idempotency_records' })
@Index('ix_idempotency_records_expires', ['expiresAt'])
export class IdempotencyRecord {
  @PrimaryColumn({ name: 'api_key_id', type: 'uuid' })
  apiKeyId: string;

  @PrimaryColumn({ type: 'varchar', length: 100 })
  endpoint: string;

  @PrimaryColumn({ name: 'idempotency_key', type: 'varchar', length: 255 })
  idempotencyKey: string;

  /** SHA-256 of the canonical request body. */
  @Column({ type: 'char', length: 64 })
  fingerprint: string;

  @Column({ type: 'varchar', length: 20 })
  state: 'in_progress' | 'completed';

  @Column({ name: 'response_status', type: 'smallint', nullable: true })
  responseStatus: number | null;

  @Column({ name: 'response_headers', type: 'jsonb', nullable: true })
  responseHeaders: Record<string, string> | null;

  @Column({ name: 'response_body', type: 'jsonb', nullable: true })
  responseBody: unknown;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;
}
