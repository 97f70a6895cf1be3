import { InjectQueue } from '@nestjs/bull';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Queue } from 'bull';
import { randomUUID } from 'node:crypto';
import type { Principal } from '../../common/auth/principal';
import { Clock } from '../../common/clock';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { ApiError, notFound, validationFailed } from '../../common/errors/api-error';
import { EXPORTS_QUEUE } from '../../infra/queues/queue-names';
import { ARTEFACT_STORAGE, type ArtefactStorage, type StoredArtefact } from '../../infra/storage/storage.service';
import { AccountsService } from '../accounts/accounts.service';
import { SnapshotsService } from '../snapshots/snapshots.service';
import type { ExportCreatedDto } from './dto/export-created.dto';
import type { ExportJobDto } from './dto/export-job.dto';
import type { ListExportsQueryDto } from './dto/list-exports-query.dto';
import { EXPORT_STATUS_FILTER } from './dto/list-exports-query.dto';
import type { ExportJob, ExportStatus } from './entities/export-job.entity';
import { integrationError } from './export-types/export-options.validator';
import { exportJobId, exportJobOptions, type ExportJobData } from './exports.jobs';
import { ExportsRepository } from './exports.repository';
import { notebookIntegrationError } from './provider-exports/notebooklm-enterprise';
import type { ExportRequest } from './pipes/export-request.pipe';
import { isUuid } from '../../common/validation/uuid';
import { effectiveExportOptions, exportJobPriority, isAiGeneratedExport } from './export-account-rules';
import { ImageExportRunner } from './provider-exports/image-export';

/** What the retention promise is measured against: now, and how long completed bytes are kept. */
export interface Retention {
  now: number;
  seconds: number;
}

/** A completed export's retained bytes, held open: the caller sends or closes them. */
export interface ExportDownload {
  job: ExportJob;
  artefact: StoredArtefact;
}

@Injectable()
export class ExportsService {
  constructor(
    private readonly repository: ExportsRepository,
    private readonly snapshots: SnapshotsService,
    private readonly accounts: AccountsService,
    @Inject(ARTEFACT_STORAGE) private readonly storage: ArtefactStorage,
    @InjectQueue(EXPORTS_QUEUE) private readonly queue: Queue<ExportJobData>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly images: ImageExportRunner,
  ) {}

  private readonly logger = new Logger('ExportsService');

  async create(principal: Principal, request: ExportRequest): Promise<ExportCreatedDto> {
    const { snapshotId, type } = request;
    const configured = await this.accounts.integrations(principal.accountId);
    const integrations = new Set(configured.map((i) => i.integration));
    // Configured, but of a kind that cannot make this type (the NotebookLM Enterprise API makes audio only).
    const missing = integrationError(type, integrations) ?? notebookIntegrationError(type, configured);
    if (missing) throw validationFailed([missing]);
    const snapshot = await this.snapshots.findOwned(principal.accountId, snapshotId);
    if (!snapshot) throw notFound(`Snapshot ${snapshotId} not found`);

    // The job stores (and shows) the options it runs with: instructions as the account's settings make them.
    const settings = await this.accounts.exportSettings(principal.accountId);
    const options = effectiveExportOptions(request.options, settings, 'instructions' in type.options_schema);
    const id = randomUUID();
    await this.repository.insert({
      id,
      accountId: principal.accountId,
      apiKeyId: principal.kind === 'api_key' ? principal.apiKeyId : null,
      snapshotId: snapshot.id,
      provider: type.provider,
      artifactType: type.artifact_type,
      options,
      status: 'queued',
      costCents: '0',
    });
    try {
      await this.queue.add(
        { exportId: id },
        exportJobOptions(
          id,
          exportJobPriority(
            settings.exportLane,
            isAiGeneratedExport(type, (provider) => this.images.drawsWithVendor(provider)),
          ),
        ),
      );
    } catch (error) {
      // Not queued: the client is told to retry (503), so no job must stay behind to run as a duplicate.
      await this.repository.delete(id).catch(() => undefined);
      throw error;
    }
    return { export_job_id: id, status: 'queued', status_url: `/v1/exports/${id}`, download_url: null };
  }

  async list(accountId: string, query: ListExportsQueryDto): Promise<{ data: ExportJobDto[] }> {
    let statuses: ExportStatus[] | undefined;
    if (query.status !== undefined) {
      const requested = query.status
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      const unknown = requested.filter((s) => !EXPORT_STATUS_FILTER.includes(s));
      if (unknown.length || !requested.length) {
        throw validationFailed([
          {
            path: 'status',
            code: 'unknown',
            message: `Unknown status ${unknown.join(', ') || '(empty)'}; use a comma-separated subset of ${EXPORT_STATUS_FILTER.join(', ')}`,
          },
        ]);
      }
      statuses = requested as ExportStatus[];
    }
    const jobs = await this.repository.list(accountId, { snapshotId: query.snapshot_id, statuses, limit: query.limit ?? 50 });
    const retention = this.retention();
    return { data: jobs.map((job) => toExportJobDto(job, retention)) };
  }

  async get(accountId: string, id: string): Promise<ExportJobDto> {
    return toExportJobDto(await this.owned(accountId, id), this.retention());
  }

  /**
   * The bytes of a completed export, until completed_at + EXPORT_RETENTION_SECONDS whatever the retention sweep has
   * done. The returned artefact holds the stored file open: the caller must send or close it.
   */
  async download(accountId: string, id: string): Promise<ExportDownload> {
    const job = await this.owned(accountId, id);
    if (job.status !== 'completed')
      throw new ApiError('not_ready', `Export ${id} is ${job.status}; download is available once it is completed`);
    const gone = () => new ApiError('gone', `Export ${id} completed, but its bytes are no longer retained; create the export again`);
    if (!bytesRetained(job, this.retention())) throw gone();
    const artefact = await this.storage.open(job.storageKey!);
    if (!artefact) {
      this.logger.error(
        { exportId: job.id, storageKey: job.storageKey },
        'a retained export has no readable bytes in storage; answered 410',
      );
      throw gone();
    }
    return { job, artefact };
  }

  /** Removes the job and its bytes; a job still queued or running is stopped first. The snapshot stays. */
  async remove(accountId: string, id: string): Promise<void> {
    const job = await this.owned(accountId, id);
    if (job.status === 'queued' || job.status === 'processing') {
      await this.repository.transition(job.id, ['queued', 'processing'], 'cancelled', { error: 'Deleted by the client' });
      const queued = await this.queue.getJob(exportJobId(job.id));
      await queued?.remove().catch(() => undefined); // an active job cannot be removed; the worker sees the cancel
    }
    if (job.storageKey) await this.storage.delete(job.storageKey);
    await this.repository.delete(job.id);
  }

  private retention(): Retention {
    return { now: this.clock.now(), seconds: this.config.exportRetentionSeconds };
  }

  private async owned(accountId: string, id: string): Promise<ExportJob> {
    const job = isUuid(id) ? await this.repository.findOwned(accountId, id) : null;
    if (!job) throw notFound(`Export ${id} not found`);
    return job;
  }
}

/** A job as the API shows it; `download_url` only while its bytes are retained (docs/decisions.md, Exports; docs/security.md, Content we serve). */
export function toExportJobDto(job: ExportJob, retention: Retention): ExportJobDto {
  return {
    id: job.id,
    status: job.status,
    artifact_type: job.artifactType,
    provider: job.provider,
    snapshot_id: job.snapshotId,
    options: job.options,
    created_at: job.createdAt.toISOString(),
    completed_at: job.completedAt?.toISOString() ?? null,
    cost_cents: Number(job.costCents),
    error: job.error,
    result_mime: job.resultMime,
    result_filename: job.resultFilename,
    result_size_bytes: job.resultSizeBytes,
    download_url: bytesRetained(job, retention) ? `/v1/exports/${job.id}/download` : null,
    effective_locale: job.effectiveLocale,
    locale_provenance: job.localeProvenance,
    rendered_by: job.renderedBy,
  };
}

/** A completed job's bytes are served until completed_at + the retention period, and not after the sweep dropped them. */
export function bytesRetained(job: ExportJob, retention: Retention): boolean {
  if (job.status !== 'completed' || job.purgedAt || !job.storageKey) return false;
  return !job.completedAt || retention.now < job.completedAt.getTime() + retention.seconds * 1000;
}
