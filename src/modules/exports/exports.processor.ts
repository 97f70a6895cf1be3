import { InjectQueue } from '@nestjs/bull';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { Job, Queue } from 'bull';
import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { Clock } from '../../common/clock';
import { isTransientInfraError } from '../../common/errors/transient';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { MetricsService } from '../../infra/metrics/metrics.service';
import { secondsBetween } from '../../infra/metrics/seconds-between';
import { EXPORTS_QUEUE } from '../../infra/queues/queue-names';
import { ARTEFACT_STORAGE, type ArtefactStorage } from '../../infra/storage/storage.service';
import { completeTranslation } from '../snapshots/language-projection';
import type { SnapshotLanguage } from '../snapshots/language-projection';
import { AccountsService } from '../accounts/accounts.service';
import { BudgetService } from '../budget/budget.service';
import { SnapshotsService } from '../snapshots/snapshots.service';
import type { ExportJob, ExportStatus } from './entities/export-job.entity';
import { findExportType } from './export-types/export-types.registry';
import { resolveExportLocale } from './export-locale';
import { ExportsRepository } from './exports.repository';
import { exportJobId, exportJobOptions, type ExportJobData } from './exports.jobs';
import { NOTEBOOK_DEFAULT_COST_CENTS } from './provider-exports/notebook.adapter';
import { ResultUndeliverableError, type ProviderExportResult } from './provider-exports/provider-export.types';
import { ProviderExportRegistry } from './provider-exports/provider-export.registry';
import { BRIEFING_SCRIPT_MAX_CHARS } from './provider-exports/script';
import { VOICE_PRICE_CENTS_PER_CHARACTER } from './provider-exports/voice.adapter';
import { renderArtefact } from './renderers';
import { warmUpWorkerRenderers } from './renderer-warm-up';
import { CalendarService } from '../../engine/calendar/calendar.service';
import { withLocale } from './renderers/artefact-filename';
import type { BeyondCapItem, RenderDrift, RenderedArtefact, RenderInput, RenderSnapshot } from './renderers/types';
import { EngineFailure } from '../../domain/failures';
import { ProviderTransientError } from '../../infra/providers/provider-errors';
import { WebhookOutboxService } from '../webhooks/webhook-outbox.service';
import { ImageExportRunner, isImageExport } from './provider-exports/image-export';
import type { RenderedBy } from './provider-exports/rendered-by';
import type { ImagegenArtifactType, ImagegenProvider } from './export-types/image-styles';
import { exportJobPriority, isAiGeneratedExport } from './export-account-rules';

const RETENTION_SWEEP_MS = 60_000;
const TRANSLATABLE = ['fr', 'de', 'es', 'it', 'zh', 'ja'];
const WORKER_LOST =
  'Cancelled: the workers producing this export kept stopping before it finished, so it was given up; no charge was made. Please create the export again.';
/** How often a running provider export checks whether it was cancelled or deleted (from any process). */
const CANCEL_CHECK_MS = 1_000;
const STORES_UNAVAILABLE =
  'The export could not finish because a backing service stayed unavailable; no charge was made. Please create it again.';
/** An export younger than this may still be on its way into the queue (the API inserts, then enqueues). */
const ENQUEUE_GRACE_SECONDS = 10;
const RECONCILE_BATCH = 200;
/** Longest artefact filename kept (result_filename and the storage key have room for it). */
const MAX_FILENAME_LENGTH = 120;

type Money = { settleCents: number } | { release: true } | undefined;

/**
 * Produces export artefacts from the `exports` queue, keeps every unfinished export moving towards a final state,
 * and purges bytes past EXPORT_RETENTION_SECONDS. Provider-backed types hold their maximum cost before the run and
 * settle the actual cost in the same transaction as the final state, so an export is charged at most once.
 */
@Injectable()
export class ExportsProcessor implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('ExportsProcessor');
  private readonly timers: NodeJS.Timeout[] = [];

  constructor(
    @InjectQueue(EXPORTS_QUEUE) private readonly queue: Queue<ExportJobData>,
    private readonly repository: ExportsRepository,
    private readonly snapshots: SnapshotsService,
    private readonly accounts: AccountsService,
    private readonly budget: BudgetService,
    @Inject(ARTEFACT_STORAGE) private readonly storage: ArtefactStorage,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly providerExports: ProviderExportRegistry,
    private readonly calendars: CalendarService,
    private readonly metrics: MetricsService,
    private readonly webhooks: WebhookOutboxService,
    private readonly images: ImageExportRunner,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.appRole === 'api') return;
    this.queue.on('error', (error: Error) => this.logger.warn({ err: error.message }, 'exports queue: Redis error (Bull reconnects)'));
    this.queue.on('failed', (job: Job<ExportJobData>, error: Error) => {
      this.onJobFailed(job, error).catch((failure: unknown) => this.logger.error({ err: String(failure) }, 'failed-job handler'));
    });
    this.queue
      .process(this.config.exportWorkerConcurrency, (job) => this.handle(job))
      .catch((error: unknown) => {
        this.logger.error({ err: String(error) }, 'exports queue stopped processing');
      });
    const every = (ms: number, work: () => Promise<unknown>, what: string) => {
      const timer = setInterval(
        () => work().catch((error: unknown) => this.logger.warn({ err: String(error) }, `${what} skipped a round`)),
        ms,
      );
      timer.unref();
      this.timers.push(timer);
    };
    every(RETENTION_SWEEP_MS, () => this.purgeExpired(), 'retention sweep');
    every(this.config.reconcileIntervalMs, () => this.reconcile(), 'export reconciliation');
    if (this.config.warmRenderers) setImmediate(() => void this.warmRenderers());
  }

  /** Pays the one-off costs of each renderer (module loading, font parsing, shaping caches, JIT) before the first job. */
  private async warmRenderers(): Promise<void> {
    const started = performance.now();
    try {
      await warmUpWorkerRenderers(this.calendars.get(), new Date(this.clock.now()).toISOString().slice(0, 10));
      this.logger.log({ ms: Math.round(performance.now() - started) }, 'renderers warmed');
    } catch (error) {
      this.logger.warn({ err: String(error) }, 'renderer warm-up failed; the first exports pay for it instead');
    }
  }

  onApplicationShutdown(): void {
    for (const timer of this.timers) clearInterval(timer);
  }

  async handle(job: Job<ExportJobData>): Promise<void> {
    const exportId = job.data.exportId;
    if (!(await this.repository.transition(exportId, ['queued', 'processing'], 'processing'))) return;
    const record = await this.repository.findById(exportId);
    if (!record) return;
    const type = findExportType(record.provider, record.artifactType);
    const snapshot = await this.snapshots.findOwned(record.accountId, record.snapshotId);
    if (!type || !snapshot) {
      await this.finish(record, 'failed', { error: !type ? 'The export type is no longer registered' : 'The snapshot no longer exists' });
      return;
    }

    const available = new Set(TRANSLATABLE.filter((language) => completeTranslation(snapshot.data, language)));
    const englishOnly = type.provider === 'notebook' && type.artifact_type === 'audio' && record.options.audio_format === 'DEBATE';
    const { locale, provenance } = resolveExportLocale({
      requested: record.options.targetLanguage,
      availableTranslations: available,
      englishOnly,
    });
    const view = this.snapshots.view(snapshot, locale as SnapshotLanguage);
    const drift = await this.snapshots.drift(record.accountId, record.snapshotId);
    const beyondCap = snapshot.data._beyond_cap;
    const input: RenderInput = {
      snapshot: {
        id: view.id,
        title: view.title,
        created_at: view.created_at,
        config: view.config,
        data: view.data,
      } as unknown as RenderSnapshot,
      options: record.options,
      locale,
      // Drift items always carry a string id (drift.ts keeps only those).
      ...(drift.available ? { drift: drift as unknown as RenderDrift } : {}),
      ...(record.options.list === 'all_matched' ? { beyondCap: Array.isArray(beyondCap) ? (beyondCap as BeyondCapItem[]) : [] } : {}),
    };
    let key: string | undefined;
    try {
      let rendered: RenderedArtefact;
      let cost = 0;
      // Image exports: drawn by their vendor when it is configured, else by the local renderer, and labelled.
      let renderedBy: RenderedBy | undefined;
      if (type.requires_provider) {
        const produced = await this.runProvider(record, type.requires_provider, input);
        if (!produced) return;
        rendered = produced;
        cost = produced.costCents;
      } else if (isImageExport(record.provider) && this.images.configured(record.provider)) {
        const produced = await this.runImageVendor(record, record.provider, input);
        if (!produced) return;
        rendered = produced;
        cost = produced.costCents;
        renderedBy = produced.renderedBy;
      } else {
        rendered = await renderArtefact(record.artifactType, input);
        if (isImageExport(record.provider)) renderedBy = 'offline';
      }
      const named = record.options.targetLanguage ? withLocale(rendered.filename, locale) : rendered.filename;
      const filename = named.slice(-MAX_FILENAME_LENGTH);
      // One key per run: a run that loses the race to another (a stalled job run twice) removes only its own bytes.
      key = `exports/${record.accountId}/${record.id}/${randomUUID().slice(0, 8)}-${filename}`;
      await this.storage.put(key, rendered.bytes);
      const fields = {
        result_mime: rendered.mime,
        result_filename: filename,
        result_size_bytes: rendered.bytes.length,
        storage_key: key,
        effective_locale: locale,
        locale_provenance: provenance,
        cost_cents: cost,
        ...(renderedBy ? { rendered_by: renderedBy } : {}),
      };
      const held = type.requires_provider !== null || (renderedBy !== undefined && renderedBy !== 'offline');
      if (!(await this.finish(record, 'completed', fields, held ? { settleCents: cost } : undefined))) {
        // Cancelled or deleted while it ran: the bytes have no job to belong to, and work the client withdrew is not
        // charged (the reconciler would release the hold of a deleted export all the same).
        await this.storage.delete(key);
        if (held) await this.budget.release(record.accountId, this.reference(record));
      }
    } catch (error) {
      if (key) await this.storage.delete(key).catch(() => undefined);
      // Retried by Bull (another worker, or this one once the provider or the store is back); the hold stays.
      if (error instanceof ProviderTransientError || isTransientInfraError(error)) throw error;
      if (error instanceof ResultUndeliverableError) {
        // The provider produced (and billed) the artefact, but its bytes could not be fetched: ../shared/spec/decisions.md C6.
        await this.finish(record, 'undelivered', { error: error.message, cost_cents: error.costCents }, { settleCents: error.costCents });
        return;
      }
      if (!(error instanceof EngineFailure)) this.logger.error({ exportId, err: describe(error) }, 'export rendering failed');
      const reason = error instanceof EngineFailure ? `: ${error.message}` : ' unexpectedly';
      await this.finish(record, 'failed', { error: `Producing the ${record.artifactType} failed${reason}; no charge was made` });
    }
  }

  /**
   * Keeps every unfinished export moving: re-queues exports whose job vanished, fails those whose job failed
   * without the failure being written, and closes budget holds whose export is final. Safe to repeat and to race.
   */
  async reconcile(): Promise<{ requeued: number; failed: number; holdsClosed: number }> {
    const outcome = { requeued: 0, failed: 0, holdsClosed: 0 };
    for (const record of await this.repository.findActiveOlderThan(ENQUEUE_GRACE_SECONDS, RECONCILE_BATCH)) {
      const job = await this.queue.getJob(exportJobId(record.id));
      const state = job ? await job.getState() : 'missing';
      if (state === 'failed') {
        const givenUp = /stalled/i.test(job?.failedReason ?? '');
        if (await this.finish(record, givenUp ? 'cancelled' : 'failed', { error: givenUp ? WORKER_LOST : STORES_UNAVAILABLE }))
          outcome.failed++;
      } else if (state === 'missing' || state === 'completed') {
        await job?.remove();
        const { exportLane } = await this.accounts.exportSettings(record.accountId);
        const type = findExportType(record.provider, record.artifactType);
        const aiGenerated = !!type && isAiGeneratedExport(type, (provider) => this.images.drawsWithVendor(provider));
        await this.queue.add({ exportId: record.id }, exportJobOptions(record.id, exportJobPriority(exportLane, aiGenerated)));
        this.logger.warn({ exportId: record.id, state }, 'export job was missing from the queue: re-queued');
        outcome.requeued++;
      }
    }
    for (const hold of await this.budget.openReservations('export', RECONCILE_BATCH)) {
      const record = await this.repository.findById(hold.referenceId);
      if (record && (record.status === 'queued' || record.status === 'processing')) continue;
      const reference = { type: 'export', id: hold.referenceId };
      const charged = record?.status === 'completed' || record?.status === 'undelivered';
      if (record && charged) await this.budget.settle(hold.accountId, reference, Number(record.costCents));
      else await this.budget.release(hold.accountId, reference);
      this.logger.warn({ exportId: hold.referenceId, status: record?.status ?? 'deleted' }, 'closed a budget hold left open');
      outcome.holdsClosed++;
    }
    return outcome;
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

  /**
   * Runs a provider-backed export with the account's integration (../shared/spec/decisions.md section 2: provider types cost what
   * the run cost; a run the pool cannot cover fails naming the budget). The maximum cost is held first, once per
   * export however often its job runs. Returns undefined when the job was finished here.
   */
  private async runProvider(
    record: ExportJob,
    integration: string,
    input: { snapshot: RenderSnapshot; options: Record<string, string>; locale: string },
  ): Promise<(ProviderExportResult & RenderedArtefact) | undefined> {
    const config = (await this.accounts.integrations(record.accountId)).find((i) => i.integration === integration)?.config;
    const adapter = this.providerExports.adapter(record.provider, record.artifactType);
    if (!config || !adapter) {
      await this.finish(record, 'failed', { error: `The account's ${integration} integration is no longer configured` });
      return undefined;
    }
    const expected =
      record.provider === 'notebook'
        ? (NOTEBOOK_DEFAULT_COST_CENTS[record.artifactType as keyof typeof NOTEBOOK_DEFAULT_COST_CENTS] ?? 0)
        : Math.ceil(BRIEFING_SCRIPT_MAX_CHARS * VOICE_PRICE_CENTS_PER_CHARACTER);
    return this.runPaid(record, expected, (signal) => adapter.run({ ...input, artifactType: record.artifactType }, config, signal));
  }

  /**
   * An image export drawn by its vendor (provider-exports/image-export.ts), paid like the integration types.
   */
  private runImageVendor(record: ExportJob, provider: ImagegenProvider, input: RenderInput) {
    const artifactType = record.artifactType as ImagegenArtifactType;
    const expected = this.images.maxCostCents(provider, artifactType, input);
    return this.runPaid(record, expected, (signal) => this.images.run(provider, artifactType, input, signal));
  }

  /**
   * Paid work for an export: the most it can cost is held first, once per export however often its job runs (a pool
   * that cannot cover it fails the export naming the budget), and the work is aborted when the export is cancelled or
   * deleted from any process meanwhile, releasing the hold. Returns undefined when the job was finished here.
   */
  private async runPaid<T>(record: ExportJob, expectedCents: number, work: (signal: AbortSignal) => Promise<T>): Promise<T | undefined> {
    if (!(await this.budget.reserveOnce(record.accountId, this.reference(record), expectedCents))) {
      const remaining = (await this.budget.view(record.accountId)).remaining_cents;
      await this.finish(record, 'failed', {
        error: `The budget pool cannot cover this export: it may cost up to ${expectedCents} cents and ${remaining} remain`,
      });
      return undefined;
    }
    // Deleted or cancelled while waiting for the hold: do not start paid work for it.
    if ((await this.repository.findById(record.id))?.status !== 'processing') {
      await this.budget.release(record.accountId, this.reference(record));
      return undefined;
    }
    const watch = this.watchForCancel(record.id);
    try {
      return await work(watch.signal);
    } catch (error) {
      if (!watch.signal.aborted) throw error;
      // Cancelled (by the operator, or DELETE) from any process: the provider call was withdrawn; nothing is charged.
      await this.budget.release(record.accountId, this.reference(record));
      this.logger.log({ exportId: record.id }, 'export cancelled while its provider ran: provider work stopped');
      return undefined;
    } finally {
      watch.stop();
    }
  }

  /**
   * Aborts when the export leaves `processing` in PostgreSQL, which is where a cancel or DELETE from any process
   * lands (a primary-key read every CANCEL_CHECK_MS while a provider runs).
   */
  private watchForCancel(exportId: string): { signal: AbortSignal; stop(): void } {
    const controller = new AbortController();
    let checking = false;
    const timer = setInterval(() => {
      if (checking) return;
      checking = true;
      this.repository
        .statusOf(exportId)
        .then((status) => {
          if (status !== 'processing') controller.abort(new Error(`export ${exportId} is ${status ?? 'deleted'}`));
        })
        .catch(() => undefined) // a store hiccup is not a cancel; the next check retries
        .finally(() => (checking = false));
    }, CANCEL_CHECK_MS);
    timer.unref();
    return { signal: controller.signal, stop: () => clearInterval(timer) };
  }

  /** Final state and money in one transaction: the hold is settled (or released) exactly when the state lands. */
  private async finish(record: ExportJob, to: ExportStatus, fields: Record<string, unknown>, money?: Money): Promise<boolean> {
    const type = findExportType(record.provider, record.artifactType);
    const closing: Money = money ?? (type && holdsBudget(type) ? { release: true } : undefined);
    const finished = await this.repository.transaction(async (manager: EntityManager) => {
      const moved = await this.repository.transition(
        record.id,
        ['queued', 'processing'],
        to,
        { ...fields, completed_at: new Date(this.clock.now()) },
        manager,
      );
      if (moved && (to === 'completed' || to === 'failed')) {
        const data = {
          export_job_id: record.id,
          snapshot_id: record.snapshotId,
          provider: record.provider,
          artifact_type: record.artifactType,
          status: to,
        };
        await this.webhooks.record(manager, record.accountId, `export.${to}`, { ...data, error: fields.error ?? null });
      }
      if (!moved || !closing) return moved;
      if ('settleCents' in closing) await this.budget.settle(record.accountId, this.reference(record), closing.settleCents, manager);
      else await this.budget.release(record.accountId, this.reference(record), manager);
      return true;
    });
    const seconds = secondsBetween(record.createdAt, null, this.clock.now());
    if (finished) this.metrics.recordExport(record.provider, record.artifactType, to, seconds);
    return finished;
  }

  /**
   * Bull gave the job up, if that can be written now: its workers kept dying (stalled past the limit) -> `cancelled`
   * (../shared/spec/decisions.md section 2, "its worker gives it up for good"); retries exhausted -> `failed`.
   */
  private async onJobFailed(job: Job<ExportJobData>, error: Error): Promise<void> {
    const stalled = /stalled/i.test(error.message);
    if (!stalled && job.attemptsMade < (job.opts.attempts ?? 1)) return;
    try {
      const record = await this.repository.findById(job.data.exportId);
      if (!record) return;
      const reason = stalled
        ? WORKER_LOST
        : error instanceof ProviderTransientError
          ? `The provider stayed unavailable: ${error.message}; no charge was made`
          : STORES_UNAVAILABLE;
      await this.finish(record, stalled ? 'cancelled' : 'failed', { error: reason });
    } catch (failure) {
      this.logger.warn(
        { exportId: job.data.exportId, err: String(failure) },
        'could not record the failed export yet; the reconciler will',
      );
    }
  }

  private reference(record: ExportJob) {
    return { type: 'export', id: record.id, apiKeyId: record.apiKeyId };
  }
}

/** Types whose run may hold budget: the integration types, and the image types (when their vendor draws them). */
function holdsBudget(type: { provider: string; requires_provider: string | null }): boolean {
  return type.requires_provider !== null || isImageExport(type.provider);
}

function describe(error: unknown): Record<string, unknown> {
  return error instanceof Error ? { name: error.name, message: error.message, stack: error.stack } : { value: String(error) };
}
