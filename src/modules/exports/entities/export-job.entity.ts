import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { Account } from '../../accounts/entities/account.entity';
import type { RenderedBy } from '../provider-exports/rendered-by';

export const EXPORT_STATUSES = ['queued', 'processing', 'completed', 'failed', 'cancelled', 'undelivered'] as const;
export type ExportStatus = (typeof EXPORT_STATUSES)[number];
export type LocaleProvenance = 'requested' | 'fallback_missing_translation' | 'fallback_english_only' | 'default';

@Entity({ name: 'export_jobs' })
@Index('ix_export_jobs_account_created', ['accountId', 'createdAt'])
@Index('ix_export_jobs_account_snapshot', ['accountId', 'snapshotId', 'createdAt'])
@Index('ix_export_jobs_active_updated', ['updatedAt'], { where: "status IN ('queued', 'processing')" })
@Index('ix_export_jobs_retention', ['completedAt'], { where: "status = 'completed' AND purged_at IS NULL" })
export class ExportJob {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'account_id', type: 'uuid' })
  accountId: string;

  @ManyToOne(() => Account, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'account_id' })
  account?: Account;

  @Column({ name: 'api_key_id', type: 'uuid', nullable: true })
  apiKeyId: string | null;

  @Column({ name: 'snapshot_id', type: 'uuid' })
  snapshotId: string;

  @Column({ type: 'varchar', length: 40 })
  provider: string;

  @Column({ name: 'artifact_type', type: 'varchar', length: 40 })
  artifactType: string;

  /** Validated options, canonical names, defaults filled. */
  @Column({ type: 'jsonb' })
  options: Record<string, string>;

  @Column({ type: 'varchar', length: 20 })
  status: ExportStatus;

  @Column({ name: 'effective_locale', type: 'varchar', length: 10, nullable: true })
  effectiveLocale: string | null;

  @Column({ name: 'locale_provenance', type: 'varchar', length: 40, nullable: true })
  localeProvenance: LocaleProvenance | null;

  @Column({ name: 'cost_cents', type: 'numeric', precision: 14, scale: 4, default: 0 })
  costCents: string;

  @Column({ type: 'text', nullable: true })
  error: string | null;

  @Column({ name: 'result_mime', type: 'varchar', length: 120, nullable: true })
  resultMime: string | null;

  @Column({ name: 'result_filename', type: 'varchar', length: 200, nullable: true })
  resultFilename: string | null;

  @Column({ name: 'result_size_bytes', type: 'integer', nullable: true })
  resultSizeBytes: number | null;

  @Column({ name: 'storage_key', type: 'varchar', length: 300, nullable: true })
  storageKey: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;

  @Column({ name: 'completed_at', type: 'timestamptz', nullable: true })
  completedAt: Date | null;

  /** Image exports, once completed: who drew the image (RenderedBy: openai, gemini, or offline). */
  @Column({ name: 'rendered_by', type: 'varchar', length: 20, nullable: true })
  renderedBy: RenderedBy | null;

  /** Set when retention removed the bytes: downloads answer 410. */
  @Column({ name: 'purged_at', type: 'timestamptz', nullable: true })
  purgedAt: Date | null;
}
