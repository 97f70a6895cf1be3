import { InjectQueue } from '@nestjs/bull';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { Job, Queue } from 'bull';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { TransientProviderError } from '../../engine/engine.types';
import { EXPORTS_QUEUE } from '../../infra/queues/queue-names';
import { ARTEFACT_STORAGE, type ArtefactStorage } from '../../infra/storage/storage.service';
import { completeTranslation } from '../snapshots/language-projection';
import type { SnapshotLanguage } from '../snapshots/language-projection';
import { AccountsService } from '../accounts/accounts.service';
import { BudgetService } from '../budget/budget.service';
import { SnapshotsService } from '../snapshots/snapshots.service';
import { findExportType } from './export-types/export-types.registry';
import { resolveExportLocale } from './export-locale';
import { ExportsRepository } from './exports.repository';
import type { ExportJobData } from './exports.service';
import { NOTEBOOK_DEFAULT_COST_CENTS } from './providers/notebook.adapter';
import { ResultUndeliverableError, type ProviderExportResult } from './providers/provider-export.types';
import { providerExportAdapter } from './providers/registry';
import { BRIEFING_SCRIPT_MAX_CHARS } from './providers/script';
import { VOICE_PRICE_CENTS_PER_CHARACTER } from './providers/voice.adapter';
import { renderArtefact } from './renderers';
import type { RenderedArtefact } from './renderers/types';
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
    private readonly accounts: AccountsService,
    private readonly budget: BudgetService,
    @Inject(ARTEFACT_STORAGE) private readonly storage: ArtefactStorage,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.appRole === 'api') return;
    void this.queue.process(this.config.exportWorkerConcurrency, (job) => this.handle(job));
    this.queue.on('failed', (job: Job<ExportJobData>, error: Error) => {
      if (job.attemptsMade >= (job.opts.attempts ?? 1)) {
        void this.repository.transition(job.data.exportId, ['queued', 'processing'], 'failed', {
          error: `The export failed: ${error.message}`,
          completed_at: new Date(),
        });
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

    const available = new Set(TRANSLATABLE.filter((language) => completeTranslation(snapshot.data, language)));
    const englishOnly = type.provider === 'notebook' && type.artifact_type === 'audio' && record.options.audio_format === 'DEBATE';
    const { locale, provenance } = resolveExportLocale({
      requested: record.options.targetLanguage,
      availableTranslations: available,
      englishOnly,
    });
    const view = this.snapshots.view(snapshot, locale as SnapshotLanguage);
    const input = {
      snapshot: {
        id: view.id,
        title: view.title,
        created_at: view.created_at,
        config: view.config,
        data: view.data,
      } as unknown as RenderSnapshot,
      options: record.options,
      locale,
    };
    let key: string | undefined;
    let cost = 0;
    try {
      let rendered: RenderedArtefact;
      if (type.requires_provider) {
        const produced = await this.runProvider(
          record.accountId,
          record.id,
          type.requires_provider,
          record.provider,
          record.artifactType,
          record.apiKeyId,
          input,
        );
        if (!produced) return;
        rendered = produced;
        cost = produced.costCents;
      } else {
        rendered = await renderArtefact(record.artifactType, input);
      }
      key = `exports/${record.accountId}/${record.id}/${rendered.filename}`;
      await this.storage.put(key, rendered.bytes);
      const completed = await this.repository.transition(exportId, ['processing'], 'completed', {
        result_mime: rendered.mime,
        result_filename: rendered.filename,
        result_size_bytes: rendered.bytes.length,
        storage_key: key,
        effective_locale: locale,
        locale_provenance: provenance,
        cost_cents: cost,
        completed_at: new Date(),
      });
      // Cancelled or deleted while rendering: the bytes have no job to belong to.
      if (!completed) await this.storage.delete(key);
    } catch (error) {
      if (key) await this.storage.delete(key).catch(() => undefined);
      // Transient provider trouble: Bull retries the job; the last attempt's failure is recorded by the listener.
      if (error instanceof TransientProviderError) throw error;
      this.logger.error({ exportId, err: String(error) }, 'export rendering failed');
      await this.fail(exportId, `Rendering the ${record.artifactType} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /**
   * Runs a provider-backed export with the account's integration (decisions.md section 2: provider types cost
   * what the run cost; a run the pool cannot cover fails naming the budget). Returns undefined when the job was
   * settled here (undelivered or budget).
   */
  private async runProvider(
    accountId: string,
    exportId: string,
    integration: string,
    provider: string,
    artifactType: string,
    apiKeyId: string | null,
    input: { snapshot: RenderSnapshot; options: Record<string, string>; locale: string },
  ): Promise<(ProviderExportResult & RenderedArtefact) | undefined> {
    const config = (await this.accounts.integrations(accountId)).find((i) => i.integration === integration)?.config;
    const adapter = providerExportAdapter(provider, artifactType);
    if (!config || !adapter) {
      await this.fail(exportId, `The account's ${integration} integration is no longer configured`);
      return undefined;
    }
    const expected =
      provider === 'notebook'
        ? (NOTEBOOK_DEFAULT_COST_CENTS[artifactType as keyof typeof NOTEBOOK_DEFAULT_COST_CENTS] ?? 0)
        : Math.ceil(BRIEFING_SCRIPT_MAX_CHARS * VOICE_PRICE_CENTS_PER_CHARACTER);
    const remaining = (await this.budget.view(accountId)).remaining_cents;
    if (remaining < expected) {
      await this.fail(exportId, `The budget pool cannot cover this export: it may cost up to ${expected} cents and ${remaining} remain`);
      return undefined;
    }
    const reference = { type: 'export', id: exportId, apiKeyId };
    try {
      const result = await adapter.run({ ...input, artifactType }, config);
      if (!(await this.budget.charge(accountId, reference, result.costCents))) {
        await this.fail(exportId, `The budget pool could not cover this export's ${result.costCents} cents`);
        return undefined;
      }
      return result;
    } catch (error) {
      if (!(error instanceof ResultUndeliverableError)) throw error;
      // The provider produced (and billed) the artefact, but its bytes could not be fetched: decisions.md C6.
      await this.budget.charge(accountId, reference, error.costCents);
      await this.repository.transition(exportId, ['processing'], 'undelivered', {
        error: error.message,
        cost_cents: error.costCents,
        completed_at: new Date(),
      });
      return undefined;
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
