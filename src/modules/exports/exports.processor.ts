import { InjectQueue } from '@nestjs/bull';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { Job, Queue } from 'bull';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { EXPORTS_QUEUE } from '../../infra/queues/queue-names';
import { ARTEFACT_STORAGE, type ArtefactStorage } from '../../infra/storage/storage.service';
import { completeTranslation } from '../snapshots/language-projection';
import type { SnapshotLanguage } from '../snapshots/language-projection';
import { SnapshotsService } from '../snapshots/snapshots.service';
import { findExportType } from './export-types/export-types.registry';
import { resolveExportLocale } from './export-locale';
import { ExportsRepository } from './exports.repository';
import type { ExportJobData } from './exports.service';
import { renderArtefact } from './renderers';
import type { RenderSnapshot } from './renderers/types';

const RETENTION_SWEEP_MS = 60_000;
const TRANSLATABLE = ['fr', 'de', 'es', 'it', 'zh', 'ja'];

/** Produces export artefacts from the `exports` queue and purges bytes past EXPORT_RETENTION_SECONDS. */
@Injectable()
export class ExportsProcessor implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('ExportsProcessor');
  private retentionTimer?: NodeJS.Timeout;

  constructor(
    @InjectQueue(EXPORTS_QUEUE) private readonly queue: Queue<ExportJobData>,
    private readonly repository: ExportsRepository,
    private readonly snapshots: SnapshotsService,
    @Inject(ARTEFACT_STORAGE) private readonly storage: ArtefactStorage,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.appRole === 'api') return;
    void this.queue.process(this.config.exportWorkerConcurrency, (job) => this.handle(job));
    this.queue.on('failed', (job: Job<ExportJobData>, error: Error) => {
      if (job.attemptsMade >= (job.opts.attempts ?? 1)) {
        void this.repository.transition(job.data.exportId, ['queued', 'processing'], 'failed', { error: `The export failed: ${error.message}`, completed_at: new Date() });
      }
    });
    this.retentionTimer = setInterval(() => void this.purgeExpired().catch(() => undefined), RETENTION_SWEEP_MS);
    this.retentionTimer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.retentionTimer);
  }

  async handle(job: Job<ExportJobData>): Promise<void> {
    const exportId = job.data.exportId;
    if (!(await this.repository.transition(exportId, ['queued', 'processing'], 'processing'))) return;
    const record = await this.repository.findById(exportId);
    if (!record) return;
    const type = findExportType(record.provider, record.artifactType);
    const snapshot = await this.snapshots.findOwned(record.accountId, record.snapshotId);
    if (!type || !snapshot) return this.fail(exportId, !type ? 'The export type is no longer registered' : 'The snapshot no longer exists');
    if (type.requires_provider) {
      return this.fail(exportId, `The ${type.provider_label} integration is configured, but this deployment does not include its adapter yet; no charge was made`);
    }

    const available = new Set(TRANSLATABLE.filter((language) => completeTranslation(snapshot.data, language)));
    const englishOnly = type.provider === 'notebook' && type.artifact_type === 'audio' && record.options.audio_format === 'DEBATE';
    const { locale, provenance } = resolveExportLocale({ requested: record.options.targetLanguage, availableTranslations: available, englishOnly });
    const view = this.snapshots.view(snapshot, locale as SnapshotLanguage);
    let key: string | undefined;
    try {
      const rendered = await renderArtefact(record.artifactType, {
        snapshot: { id: view.id, title: view.title, created_at: view.created_at, config: view.config, data: view.data } as unknown as RenderSnapshot,
        options: record.options,
        locale,
      });
      key = `exports/${record.accountId}/${record.id}/${rendered.filename}`;
      await this.storage.put(key, rendered.bytes);
      const completed = await this.repository.transition(exportId, ['processing'], 'completed', {
        result_mime: rendered.mime,
        result_filename: rendered.filename,
        result_size_bytes: rendered.bytes.length,
        storage_key: key,
        effective_locale: locale,
        locale_provenance: provenance,
        completed_at: new Date(),
      });
      // Cancelled or deleted while rendering: the bytes have no job to belong to.
      if (!completed) await this.storage.delete(key);
    } catch (error) {
      if (key) await this.storage.delete(key).catch(() => undefined);
      this.logger.error({ exportId, err: String(error) }, 'export rendering failed');
      await this.fail(exportId, `Rendering the ${record.artifactType} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** Drops the bytes of completed exports older than the retention window; downloads then answer 410. */
  async purgeExpired(): Promise<number> {
    let purged = 0;
    for (const job of await this.repository.findExpired(this.config.exportRetentionSeconds, 200)) {
      if (job.storageKey) await this.storage.delete(job.storageKey);
      await this.repository.markPurged(job.id);
      purged++;
    }
    return purged;
  }

  private async fail(exportId: string, error: string): Promise<void> {
    await this.repository.transition(exportId, ['queued', 'processing'], 'failed', { error, completed_at: new Date() });
  }
}
