import createClient from 'openapi-fetch';
import { downloadExport, waitForExport, type DownloadExportOptions, type WaitForExportOptions } from './export-helpers';
import type { RegScanApi } from './regscan-api';
import type { paths } from './schema';
import { streamScan, type StreamScanOptions } from './stream-scan';

export { RegScanProblem, parseRetryAfter, type FieldError, type ProblemDocument } from './regscan-problem';
export { SseParser, type SseMessage } from './sse-parser';
export type { ScanEvent, StreamScanOptions } from './stream-scan';
export type { DownloadExportOptions, ExportDownload, ExportJob, FinishedExportJob, WaitForExportOptions } from './export-helpers';
export type { RegScanApi, Schemas } from './regscan-api';
export type { components, operations, paths } from './schema';

export interface RegScanClientOptions {
  /** Where the service answers, e.g. `https://api.example.com` (no `/v1`: paths carry it). */
  baseUrl: string;
  /** `rgs_live_…`, sent as `Authorization: Bearer` on every request. */
  apiKey: string;
  fetch?: (request: Request) => Promise<Response>;
}

/** The generated client plus what a generator cannot write: the event stream, export polling and downloads. */
export interface RegScanClient extends RegScanApi {
  streamScan(scanId: string, options?: StreamScanOptions): ReturnType<typeof streamScan>;
  waitForExport(exportId: string, options?: WaitForExportOptions): ReturnType<typeof waitForExport>;
  downloadExport(exportId: string, options?: DownloadExportOptions): ReturnType<typeof downloadExport>;
}

export function createRegScanClient(options: RegScanClientOptions): RegScanClient {
  const api = createClient<paths>({ baseUrl: options.baseUrl, fetch: options.fetch });
  const authorization = `Bearer ${options.apiKey}`;
  api.use({
    onRequest({ request }) {
      request.headers.set('Authorization', authorization);
      return request;
    },
  });
  return Object.assign(api, {
    streamScan: (scanId: string, streamOptions?: StreamScanOptions) => streamScan(api, scanId, streamOptions),
    waitForExport: (exportId: string, waitOptions?: WaitForExportOptions) => waitForExport(api, exportId, waitOptions),
    downloadExport: (exportId: string, downloadOptions?: DownloadExportOptions) => downloadExport(api, exportId, downloadOptions),
  });
}
