import { InjectQueue } from '@nestjs/bull';
import { Inject, Injectable } from '@nestjs/common';
import type { Queue } from 'bull';
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Principal } from '../../common/auth/principal';
import { ApiError, notFound, validationFailed, type FieldError } from '../../common/errors/api-error';
import { EXPORTS_QUEUE } from '../../infra/queues/queue-names';
import { ARTEFACT_STORAGE, type ArtefactStorage } from '../../infra/storage/storage.service';
import { AccountsService } from '../accounts/accounts.service';
import { SnapshotsService } from '../snapshots/snapshots.service';
import type { ExportCreatedDto, ExportJobDto, ListExportsQueryDto } from './dto/export.dto';
import { EXPORT_STATUS_FILTER } from './dto/export.dto';
import type { ExportJob, ExportStatus } from './entities/export-job.entity';
import { validateExportRequest } from './export-types/export-options.validator';
import { ExportsRepository } from './exports.repository';
import { isUuid } from '../../common/validation/uuid';

export interface ExportJobData {
  exportId: string;
}

export const exportJobId = (id: string) => `export:${id}`;
const STREAMED_KINDS = /^(audio|video)\//;
const INLINE_KINDS = /^(audio|video|image)\/|^application\/pdf/;

export interface Download {
  status: 200 | 206;
  headers: Record<string, string>;
  body: Readable;
}

@Injectable()
export class ExportsService {
  constructor(
    private readonly repository: ExportsRepository,
    private readonly snapshots: SnapshotsService,
    private readonly accounts: AccountsService,
    @Inject(ARTEFACT_STORAGE) private readonly storage: ArtefactStorage,
    @InjectQueue(EXPORTS_QUEUE) private readonly queue: Queue<ExportJobData>,
  ) {}

  async create(principal: Principal, body: unknown): Promise<ExportCreatedDto> {
    const input = (body && typeof body === 'object' && !Array.isArray(body) ? body : {}) as Record<string, unknown>;
    const errors: FieldError[] = [];
    if (!body || typeof body !== 'object' || Array.isArray(body))
      errors.push({ path: '', code: 'invalid', message: 'The request body must be a JSON object' });
    for (const field of Object.keys(input)) {
      if (!['snapshot_id', 'provider', 'artifact_type', 'options'].includes(field)) {
        errors.push({
          path: field,
          code: 'unknown',
          message: `${field} is not a field of an export request (snapshot_id, provider, artifact_type, options)`,
        });
      }
    }
    const snapshotId = input.snapshot_id;
    if (snapshotId === undefined || snapshotId === null)
      errors.push({ path: 'snapshot_id', code: 'required', message: 'snapshot_id is required' });
    else if (!isUuid(snapshotId)) errors.push({ path: 'snapshot_id', code: 'invalid', message: 'snapshot_id must be a UUID' });
    const integrations = new Set((await this.accounts.integrations(principal.accountId)).map((i) => i.integration));
    const validation = validateExportRequest(
      { provider: input.provider, artifact_type: input.artifact_type, options: input.options },
      { integrations },
    );
    errors.push(...validation.errors);
    if (errors.length) throw validationFailed(errors);
    if (validation.localeError) throw new ApiError(422, 'unsupported_locale', validation.localeError);
    const snapshot = await this.snapshots.findOwned(principal.accountId, snapshotId as string);
    if (!snapshot) throw notFound(`Snapshot ${String(snapshotId)} not found`);

    const { type, options } = validation.normalized!;
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
    await this.queue.add({ exportId: id }, { jobId: exportJobId(id), attempts: 3, backoff: { type: 'exponential', delay: 2000 } });
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
    return { data: jobs.map(toExportJobDto) };
  }

  async get(accountId: string, id: string): Promise<ExportJobDto> {
    return toExportJobDto(await this.owned(accountId, id));
  }

  async download(accountId: string, id: string, range: string | undefined): Promise<Download> {
    const job = await this.owned(accountId, id);
    if (job.status !== 'completed')
      throw new ApiError(409, 'not_ready', `Export ${id} is ${job.status}; download is available once it is completed`);
    const size = job.purgedAt || !job.storageKey ? null : await this.storage.size(job.storageKey);
    if (size === null)
      throw new ApiError(410, 'gone', `Export ${id} completed, but its bytes are no longer retained; create the export again`);
    const mime = job.resultMime ?? 'application/octet-stream';
    const headers: Record<string, string> = {
      'Content-Type': mime,
      'Content-Disposition': contentDisposition(
        INLINE_KINDS.test(mime) ? 'inline' : 'attachment',
        job.resultFilename ?? `export-${job.id}`,
      ),
      'Cache-Control': 'private, max-age=0, must-revalidate',
    };
    if (!STREAMED_KINDS.test(mime)) {
      return { status: 200, headers: { ...headers, 'Content-Length': String(size) }, body: this.storage.read(job.storageKey!) };
    }
    headers['Accept-Ranges'] = 'bytes';
    const parsed = range === undefined ? undefined : parseRange(range, size);
    if (parsed === 'unsatisfiable') {
      throw new ApiError(416, 'range_not_satisfiable', `Range ${range} is outside the ${size}-byte resource`, [], {
        'Content-Range': `bytes */${size}`,
      });
    }
    if (!parsed) return { status: 200, headers: { ...headers, 'Content-Length': String(size) }, body: this.storage.read(job.storageKey!) };
    return {
      status: 206,
      headers: {
        ...headers,
        'Content-Length': String(parsed.end - parsed.start + 1),
        'Content-Range': `bytes ${parsed.start}-${parsed.end}/${size}`,
      },
      body: this.storage.read(job.storageKey!, parsed),
    };
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

  private async owned(accountId: string, id: string): Promise<ExportJob> {
    const job = isUuid(id) ? await this.repository.findOwned(accountId, id) : null;
    if (!job) throw notFound(`Export ${id} not found`);
    return job;
  }
}

export function toExportJobDto(job: ExportJob): ExportJobDto {
  const completed = job.status === 'completed';
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
    download_url: completed ? `/v1/exports/${job.id}/download` : null,
    effective_locale: job.effectiveLocale,
    locale_provenance: job.localeProvenance,
  };
}

/** RFC 6266: an ASCII fallback plus the UTF-8 name. */
function contentDisposition(kind: 'inline' | 'attachment', filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

/** A single `bytes=` range; multiple ranges are served whole (200), as RFC 9110 allows. */
export function parseRange(header: string, size: number): { start: number; end: number } | 'unsatisfiable' | undefined {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return undefined;
  let start: number;
  let end: number;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0) return 'unsatisfiable';
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  if (start >= size || start > end) return 'unsatisfiable';
  return { start, end };
}
