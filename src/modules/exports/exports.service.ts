import { InjectQueue } from '@nestjs/bull';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Queue } from 'bull';
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Principal } from '../../common/auth/principal';
import { Clock } from '../../common/clock';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { ApiError, notFound, validationFailed, type FieldError } from '../../common/errors/api-error';
import { EXPORTS_QUEUE } from '../../infra/queues/queue-names';
import { RECOVERABLE_BACKOFF, RECOVERABLE_JOB_ATTEMPTS } from '../../infra/queues/retry-backoff';
import { ARTEFACT_STORAGE, type ArtefactStorage } from '../../infra/storage/storage.service';
import { AccountsService } from '../accounts/accounts.service';
import { SnapshotsService } from '../snapshots/snapshots.service';
import type { ExportCreatedDto, ExportJobDto, ListExportsQueryDto } from './dto/export.dto';
import { EXPORT_STATUS_FILTER } from './dto/export.dto';
import type { ExportJob, ExportStatus } from './entities/export-job.entity';
import { validateExportRequest } from './export-types/export-options.validator';
import { findExportType } from './export-types/export-types.registry';
import { acceptedResultMediaType, bareMediaType } from './export-types/result-media-types';
import { ExportsRepository } from './exports.repository';
import { tooManyBodyMembers } from '../../common/validation/body-members';
import { isUuid } from '../../common/validation/uuid';

export interface ExportJobData {
  exportId: string;
}

export const exportJobId = (id: string) => `export:${id}`;
/** Deterministic id (duplicate enqueues collapse), retries with backoff through provider and store outages. */
export const exportJobOptions = (id: string) => ({
  jobId: exportJobId(id),
  attempts: RECOVERABLE_JOB_ATTEMPTS,
  backoff: { type: RECOVERABLE_BACKOFF },
});
const STREAMED_KINDS = /^(audio|video)\//;
const INLINE_KINDS = /^(audio|video|image)\/|^application\/pdf/;
/**
 * HTTP policies of documents a browser would run (docs/notes/downloads.md). The web slides need their inline
 * script and styles; sandboxed without allow-same-origin they run in an opaque origin (no cookies or storage of
 * the API's origin) and `default-src 'none'` lets them request nothing. Their source links open unsandboxed tabs.
 */
const SCRIPTED_DOCUMENT_POLICY =
  "sandbox allow-scripts allow-popups allow-popups-to-escape-sandbox; default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";
const STATIC_DOCUMENT_POLICY = "sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src data:";
/** Longer Range headers are ignored (RFC 9110 section 14.2 lets a server ignore Range); no real client sends one. */
export const RANGE_HEADER_MAX_LENGTH = 200;

/** What the retention promise is measured against: now, and how long completed bytes are kept. */
export interface Retention {
  now: number;
  seconds: number;
}

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
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  private readonly logger = new Logger('ExportsService');

  async create(principal: Principal, body: unknown): Promise<ExportCreatedDto> {
    const input = (body && typeof body === 'object' && !Array.isArray(body) ? body : {}) as Record<string, unknown>;
    const errors: FieldError[] = [];
    if (!body || typeof body !== 'object' || Array.isArray(body))
      errors.push({ path: '', code: 'invalid', message: 'The request body must be a JSON object' });
    // A body of 300,000 unknown members is one error, not 300,000.
    const oversized = tooManyBodyMembers(input);
    if (oversized) throw validationFailed([oversized]);
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
    if (validation.localeError) throw new ApiError('unsupported_locale', validation.localeError);
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
    try {
      await this.queue.add({ exportId: id }, exportJobOptions(id));
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
   * done. The returned body holds the stored file open: the caller must consume or destroy it.
   */
  async download(accountId: string, id: string, range: string | undefined): Promise<Download> {
    const job = await this.owned(accountId, id);
    if (job.status !== 'completed')
      throw new ApiError('not_ready', `Export ${id} is ${job.status}; download is available once it is completed`);
    const gone = () => new ApiError('gone', `Export ${id} completed, but its bytes are no longer retained; create the export again`);
    if (!bytesRetained(job, this.retention())) throw gone();
    const stored = await this.storage.open(job.storageKey!);
    if (!stored) {
      this.logger.error(
        { exportId: job.id, storageKey: job.storageKey },
        'a retained export has no readable bytes in storage; answered 410',
      );
      throw gone();
    }
    try {
      const answer = downloadAnswer(job, stored.size, range);
      const body = stored.stream(answer.range);
      body.once('error', (error: NodeJS.ErrnoException) => {
        if (error.code !== 'ERR_STREAM_PREMATURE_CLOSE')
          this.logger.error({ exportId: job.id, err: String(error) }, 'reading an export failed mid-download');
      });
      return { status: answer.status, headers: answer.headers, body };
    } catch (error) {
      await stored.close();
      throw error;
    }
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

/** A job as the API shows it; `download_url` only while its bytes are retained (docs/notes/downloads.md). */
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
  };
}

/** A completed job's bytes are served until completed_at + the retention period, and not after the sweep dropped them. */
export function bytesRetained(job: ExportJob, retention: Retention): boolean {
  if (job.status !== 'completed' || job.purgedAt || !job.storageKey) return false;
  return !job.completedAt || retention.now < job.completedAt.getTime() + retention.seconds * 1000;
}

/** Status, headers and the byte range of a download of `size` bytes; throws 416 for a range outside them. */
function downloadAnswer(
  job: ExportJob,
  size: number,
  range: string | undefined,
): { status: 200 | 206; headers: Record<string, string>; range?: { start: number; end: number } } {
  const mime = servedMediaType(job);
  const policy = contentSecurityPolicy(mime);
  const headers: Record<string, string> = {
    'Content-Type': mime,
    'Content-Disposition': contentDisposition(INLINE_KINDS.test(mime) ? 'inline' : 'attachment', job.resultFilename ?? `export-${job.id}`),
    'Cache-Control': 'private, max-age=0, must-revalidate',
    'X-Content-Type-Options': 'nosniff',
    ...(policy ? { 'Content-Security-Policy': policy } : {}),
  };
  if (!STREAMED_KINDS.test(mime)) return { status: 200, headers: { ...headers, 'Content-Length': String(size) } };
  headers['Accept-Ranges'] = 'bytes';
  const parsed = range === undefined ? undefined : parseRange(range, size);
  if (parsed === 'unsatisfiable') {
    throw new ApiError('range_not_satisfiable', `Range ${range} is outside the ${size}-byte resource`, [], {
      'Content-Range': `bytes */${size}`,
    });
  }
  if (!parsed) return { status: 200, headers: { ...headers, 'Content-Length': String(size) } };
  return {
    status: 206,
    headers: {
      ...headers,
      'Content-Length': String(parsed.end - parsed.start + 1),
      'Content-Range': `bytes ${parsed.start}-${parsed.end}/${size}`,
    },
    range: parsed,
  };
}

/**
 * The stored media type when the job's export type allows it (result-media-types.ts), in the registry's spelling
 * (with its charset); anything else, such as a row written before provider types were checked, is served as
 * application/octet-stream, which no browser runs.
 */
function servedMediaType(job: ExportJob): string {
  const accepted = job.resultMime ? acceptedResultMediaType(job.provider, job.artifactType, job.resultMime) : undefined;
  if (!accepted) return 'application/octet-stream';
  const own = findExportType(job.provider, job.artifactType)?.result.mime;
  return own !== undefined && bareMediaType(own) === accepted.mime ? own : accepted.mime;
}

function contentSecurityPolicy(mime: string): string | undefined {
  const bare = bareMediaType(mime);
  if (bare === 'text/html' || bare === 'application/xhtml+xml') return SCRIPTED_DOCUMENT_POLICY;
  if (bare === 'image/svg+xml' || bare === 'text/xml' || bare === 'application/xml' || bare.endsWith('+xml')) return STATIC_DOCUMENT_POLICY;
  return undefined;
}

/** RFC 6266: an ASCII fallback plus the UTF-8 name (RFC 8187, whose values may not contain ' ( ) * unencoded). */
export function contentDisposition(kind: 'inline' | 'attachment', filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/**
 * A single `bytes=` range; multiple ranges, and headers over RANGE_HEADER_MAX_LENGTH, are served whole (200), as
 * RFC 9110 allows. One anchored pattern without nested repetition: linear in the header's length.
 */
export function parseRange(header: string, size: number): { start: number; end: number } | 'unsatisfiable' | undefined {
  if (header.length > RANGE_HEADER_MAX_LENGTH) return undefined;
  const match = /^bytes=(\d*)-(\d*)$/i.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return undefined;
  let start: number;
  let end: number;
  if (match[1] === '') {
    const suffix = bytePosition(match[2]!);
    if (suffix === 0) return 'unsatisfiable';
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = bytePosition(match[1]!);
    end = match[2] === '' ? size - 1 : Math.min(bytePosition(match[2]!), size - 1);
  }
  if (start >= size || start > end) return 'unsatisfiable';
  return { start, end };
}

/** Digits as a byte position; past Number.MAX_SAFE_INTEGER (beyond any file) it is Infinity, never a rounded neighbour. */
function bytePosition(digits: string): number {
  const value = Number(digits);
  return Number.isSafeInteger(value) ? value : Number.POSITIVE_INFINITY;
}
