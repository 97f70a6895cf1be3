import { Logger } from '@nestjs/common';
import type { Response } from 'express';
import { pipeline } from 'node:stream/promises';
import { ApiError } from '../../../common/errors/api-error';
import type { ExportJob } from '../entities/export-job.entity';
import { findExportType } from '../export-types/export-types.registry';
import { acceptedResultMediaType, bareMediaType } from '../export-types/result-media-types';
import type { ExportDownload } from '../exports.service';

const STREAMED_KINDS = /^(audio|video)\//;
const INLINE_KINDS = /^(audio|video|image)\/|^application\/pdf/;
/**
 * HTTP policies of documents a browser would run (docs/decisions.md, Exports; docs/security.md, Content we serve). The web slides need their inline
 * script and styles; sandboxed without allow-same-origin they run in an opaque origin (no cookies or storage of
 * the API's origin) and `default-src 'none'` lets them request nothing. Their source links open unsandboxed tabs.
 */
const SCRIPTED_DOCUMENT_POLICY =
  "sandbox allow-scripts allow-popups allow-popups-to-escape-sandbox; default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";
const STATIC_DOCUMENT_POLICY = "sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src data:";
/** Longer Range headers are ignored (RFC 9110 section 14.2 lets a server ignore Range); no real client sends one. */
export const RANGE_HEADER_MAX_LENGTH = 200;

const logger = new Logger('ExportDownload');

/**
 * Sends a download: Content-Type, Content-Disposition, security headers, and for audio and video a single byte
 * range (206) when `range` asks for one. The stored file is closed however the response ends; one that fails or
 * loses its client midway can only be cut short.
 */
export async function sendDownload(res: Response, download: ExportDownload, range: string | undefined): Promise<void> {
  const { job, artefact } = download;
  let answer: DownloadAnswer;
  try {
    answer = downloadAnswer(job, artefact.size, range);
  } catch (error) {
    await artefact.close();
    throw error;
  }
  const body = artefact.stream(answer.range);
  body.once('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'ERR_STREAM_PREMATURE_CLOSE') logger.error({ exportId: job.id, err: String(error) }, 'reading an export failed mid-download');
  });
  res.status(answer.status).set(answer.headers);
  await pipeline(body, res).catch(() => res.destroy());
}

interface DownloadAnswer {
  status: 200 | 206;
  headers: Record<string, string>;
  range?: { start: number; end: number };
}

/** Status, headers and the byte range of a download of `size` bytes; throws 416 for a range outside them. */
function downloadAnswer(job: ExportJob, size: number, range: string | undefined): DownloadAnswer {
  const mime = servedMediaType(job);
  const policy = contentSecurityPolicy(mime);
  const headers: Record<string, string> = {
    'Content-Type': mime,
    'Content-Disposition': contentDisposition(INLINE_KINDS.test(mime) ? 'inline' : 'attachment', job.resultFilename ?? `export-${job.id}`),
    // Swagger UI (and other generic clients) show a body they cannot render as text unless it is marked as a file;
    // a PDF stays inline (spec), so it says so with the MIME header Swagger UI recognises.
    ...(mime.startsWith('application/pdf') ? { 'Content-Description': 'File Transfer' } : {}),
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
