import { delay } from './delay';
import type { RegScanApi, Schemas } from './regscan-api';
import { RegScanProblem } from './regscan-problem';

export type ExportJob = Schemas['ExportJobDto'];
type ExportStatus = ExportJob['status'];
const PENDING = new Set<ExportStatus>(['queued', 'processing']);
export type FinishedExportJob = ExportJob & { status: Exclude<ExportStatus, 'queued' | 'processing'> };

export interface WaitForExportOptions {
  /** Between polls; the spec recommends 5 to 10 seconds. */
  intervalMs?: number;
  /** Then the promise rejects with a TimeoutError DOMException. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/**
 * Polls GET /v1/exports/{id} until the job leaves queued/processing and returns it (completed, failed, cancelled
 * or undelivered: check `status`). It waits out 429 and 503 for their Retry-After, and when the reads bucket says
 * `remaining=0` it waits for the bucket's reset instead of running into a 429.
 */
export async function waitForExport(api: RegScanApi, exportId: string, options: WaitForExportOptions = {}): Promise<FinishedExportJob> {
  const { intervalMs = 5000, timeoutMs = 10 * 60_000 } = options;
  const signal = options.signal ? AbortSignal.any([options.signal, AbortSignal.timeout(timeoutMs)]) : AbortSignal.timeout(timeoutMs);
  for (;;) {
    const { data, error, response } = await api.GET('/v1/exports/{id}', { params: { path: { id: exportId } }, signal });
    let waitMs = intervalMs;
    if (data) {
      if (!PENDING.has(data.status)) return data as FinishedExportJob;
      waitMs = Math.max(intervalMs, exhaustedBucketResetMs(response) ?? 0);
    } else {
      const problem = RegScanProblem.from(error, response);
      if (!problem.retryable) throw problem;
      waitMs = Math.max(intervalMs, problem.retryAfterMs ?? 0);
    }
    await delay(waitMs, signal);
  }
}

/** `RateLimit: limit=60, remaining=0, reset=42` (../shared/spec/api-v1.md, "Rate limits"): the wait when none remain. */
function exhaustedBucketResetMs(response: Response): number | undefined {
  const header = response.headers.get('ratelimit') ?? '';
  const remaining = /(?:^|[,;\s])remaining=(\d+)/.exec(header);
  const reset = /(?:^|[,;\s])reset=(\d+)/.exec(header);
  return remaining && reset && Number(remaining[1]) === 0 ? Number(reset[1]) * 1000 : undefined;
}

export interface DownloadExportOptions {
  /** A Range header value, e.g. `bytes=0-99`. Audio and video answer it with 206; other types send the whole file (200). */
  range?: string;
  signal?: AbortSignal;
}

export interface ExportDownload {
  bytes: Uint8Array;
  contentType: string;
  /** From Content-Disposition (its UTF-8 `filename*` when present). */
  filename: string | null;
  status: number;
  /** `bytes 0-99/5004` on a 206, else null. */
  contentRange: string | null;
}

/** GET /v1/exports/{id}/download. Throws RegScanProblem on 404, 409 not_ready, 410 gone, 416 and the rest. */
export async function downloadExport(api: RegScanApi, exportId: string, options: DownloadExportOptions = {}): Promise<ExportDownload> {
  const { data, error, response } = await api.GET('/v1/exports/{id}/download', {
    params: { path: { id: exportId }, header: { Range: options.range } },
    parseAs: 'arrayBuffer',
    signal: options.signal,
  });
  if (!response.ok) throw RegScanProblem.from(error, response);
  return {
    // openapi-fetch hands an empty body (Content-Length: 0) back as undefined.
    bytes: new Uint8Array(data ?? new ArrayBuffer(0)),
    contentType: response.headers.get('content-type') ?? 'application/octet-stream',
    filename: filenameOf(response.headers.get('content-disposition')),
    status: response.status,
    contentRange: response.headers.get('content-range'),
  };
}

/** The file name of a Content-Disposition header, preferring RFC 5987 `filename*=UTF-8''…` over `filename="…"`. */
export function filenameOf(header: string | null): string | null {
  if (!header) return null;
  const extended = /filename\*\s*=\s*([^']*)'[^']*'([^;\s]+)/i.exec(header);
  if (extended && /^utf-8$/i.test(extended[1]!)) {
    try {
      return decodeURIComponent(extended[2]!);
    } catch {
      // Malformed percent-encoding: fall back to the plain parameter.
    }
  }
  const quoted = /filename\s*=\s*"((?:[^"\\]|\\.)*)"/i.exec(header);
  if (quoted) return quoted[1]!.replace(/\\(.)/g, '$1');
  const token = /filename\s*=\s*([^;\s"]+)/i.exec(header);
  return token ? token[1]! : null;
}
