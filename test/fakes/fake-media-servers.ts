/**
 * Test helper (unit and e2e): loopback fakes of the media providers behind the provider export types.
 * - `startFakeVoiceServer`: the ElevenLabs public API (text-to-speech and text-to-dialogue), answering MP3 audio.
 * - `startFakeNotebookServer`: the notebook job protocol documented in notebook.adapter.ts, answering real file
 *   signatures per artifact type (PNG, PDF, MP3, MP4).
 * Both validate paths, methods, auth headers and body fields, record every request, and can be told to fail
 * or to label their answers with another media type (a provider's word on a type is not to be trusted).
 */
import { createServer, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { recordRequest, type RecordedRequest } from './recorded-request';
import { deflateSync } from 'node:zlib';

export const FAKE_VOICE_API_KEY = 'fake-voice-key-0123456789abcdef';
export const FAKE_NOTEBOOK_API_KEY = 'fake-notebook-key-0123456789abcdef';

// ---------------------------------------------------------------------------------------------------------------
// Real (tiny) media files

/**
 * `frames` silent MPEG-1 Layer III frames, 128 kbit/s, 44.1 kHz, joint stereo, no CRC (header FF FB 90 44,
 * 417 bytes each, zero side info and main data): decodable silence, about 26 ms per frame. Default 12 frames
 * (about 5 KB).
 */
export function fakeMp3(frames = 12): Buffer {
  const frame = Buffer.alloc(417);
  frame.set([0xff, 0xfb, 0x90, 0x44], 0);
  return Buffer.concat(Array.from({ length: frames }, () => frame));
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A valid `width` x `height` RGB PNG filled with one colour. */
export function fakePng(width = 64, height = 64): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit, truecolour, deflate, no filter, no interlace
  const row = Buffer.alloc(1 + width * 3);
  for (let x = 0; x < width; x++) row.set([0x1f, 0x4e, 0x79], 1 + x * 3);
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(raw)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A valid one-page PDF saying `text`. */
export function fakePdf(text = 'Notebook slide deck'): Buffer {
  const safe = text.replace(/[()\\]/g, '');
  const stream = `BT /F1 24 Tf 72 720 Td (${safe}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(out.length);
    out += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) out += `${String(offset).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

function box(type: string, payload: Buffer): Buffer {
  const size = Buffer.alloc(4);
  size.writeUInt32BE(8 + payload.length);
  return Buffer.concat([size, Buffer.from(type, 'latin1'), payload]);
}

/** An ISO base media file: `ftyp` (isom, mp41) then a `free` box padding it to a few KB, then an empty `mdat`. */
export function fakeMp4(paddingBytes = 4096): Buffer {
  const ftyp = box(
    'ftyp',
    Buffer.concat([Buffer.from('isom', 'latin1'), Buffer.from([0, 0, 2, 0]), Buffer.from('isomiso2mp41', 'latin1')]),
  );
  return Buffer.concat([ftyp, box('free', Buffer.alloc(paddingBytes)), box('mdat', Buffer.alloc(0))]);
}

/** The bytes and media type a notebook job of `kind` produces. */
export function fakeArtefact(kind: string): { bytes: Buffer; mime: string } {
  switch (kind) {
    case 'infographic':
      return { bytes: fakePng(), mime: 'image/png' };
    case 'slide-detailed':
      return { bytes: fakePdf(), mime: 'application/pdf' };
    case 'audio':
      return { bytes: fakeMp3(), mime: 'audio/mpeg' };
    default:
      return { bytes: fakeMp4(), mime: 'video/mp4' };
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Shared server plumbing

export type MediaRequest = RecordedRequest;

type Reply = { status: number; headers?: Record<string, string>; body: string | Buffer } | 'hang' | 'drop';
export type FakeFailure = number | 'timeout';

const json = (status: number, body: unknown, headers?: Record<string, string>): Reply => ({
  status,
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

const record = (value: unknown): Record<string, unknown> | undefined =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;

const nonEmpty = (value: unknown): value is string => typeof value === 'string' && value.trim().length > 0;

async function serve(
  handler: (request: MediaRequest, baseUrl: string) => Reply | Promise<Reply>,
): Promise<{ baseUrl: string; requests: MediaRequest[]; close(): Promise<void> }> {
  const requests: MediaRequest[] = [];
  let baseUrl = '';
  const server = createServer((req, res) => {
    recordRequest(req)
      .then((request) => {
        requests.push(request);
        return handler(request, baseUrl);
      })
      .then(
        (reply) => send(res, reply),
        (error: unknown) => send(res, json(500, { error: { message: `fake server error: ${String(error)}` } })),
      );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function send(res: ServerResponse, reply: Reply): void {
  if (reply === 'hang' || res.destroyed) return;
  if (reply === 'drop') {
    // Headers promise more than is sent, then the connection dies mid-body.
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': '100000' });
    res.write(Buffer.alloc(100));
    setTimeout(() => res.destroy(), 10);
    return;
  }
  res.writeHead(reply.status, reply.headers ?? {});
  res.end(reply.body);
}

// ---------------------------------------------------------------------------------------------------------------
// ElevenLabs-like voice server

export interface FakeVoiceServer {
  baseUrl: string;
  apiKey: string;
  requests: MediaRequest[];
  /** The audio every successful request answers. */
  audio: Buffer;
  /** The Content-Type of successful answers (default audio/mpeg). */
  contentType: string;
  /** The next `times` requests (after recording) fail with this status, or hang ('timeout'). */
  failNext(failure: FakeFailure, times?: number): void;
  close(): Promise<void>;
}

function voiceError(status: number, statusCode: string, message: string, headers?: Record<string, string>): Reply {
  return json(status, { detail: { status: statusCode, message } }, headers);
}

export async function startFakeVoiceServer(options: { apiKey?: string; audio?: Buffer } = {}): Promise<FakeVoiceServer> {
  const apiKey = options.apiKey ?? FAKE_VOICE_API_KEY;
  const audio = options.audio ?? fakeMp3();
  const failures: FakeFailure[] = [];
  let state: FakeVoiceServer;
  const server = await serve((request) => {
    const failure = failures.shift();
    if (failure === 'timeout') return 'hang';
    if (failure === 429) return voiceError(429, 'too_many_concurrent_requests', 'Too many concurrent requests', { 'retry-after': '1' });
    if (failure !== undefined) return voiceError(failure, 'internal_error', `Simulated failure ${failure}`);

    const url = new URL(request.path, 'http://fake');
    const tts = /^\/v1\/text-to-speech\/([^/]+)$/.exec(url.pathname);
    const dialogue = url.pathname === '/v1/text-to-dialogue';
    if (!tts && !dialogue) return voiceError(404, 'not_found', `No route ${url.pathname}`);
    if (request.method !== 'POST') return voiceError(405, 'method_not_allowed', 'Method not allowed');
    const key = request.headers['xi-api-key'];
    if (typeof key !== 'string' || key.length === 0) return voiceError(401, 'needs_authorization', 'Missing xi-api-key header');
    if (key !== apiKey) return voiceError(401, 'invalid_api_key', 'Invalid API key');
    const format = url.searchParams.get('output_format');
    if (format !== null && !/^mp3_\d+_\d+$/.test(format))
      return voiceError(422, 'invalid_output_format', `Unsupported output_format ${format}`);
    if (!String(request.headers['content-type'] ?? '').startsWith('application/json'))
      return voiceError(415, 'invalid_content_type', 'Expected JSON');
    const body = record(request.body);
    if (!body) return voiceError(400, 'invalid_body', 'Body must be a JSON object');
    if (body.model_id !== undefined && !nonEmpty(body.model_id)) return voiceError(422, 'invalid_model_id', 'model_id must be a string');
    if (body.language_code !== undefined && !/^[a-z]{2,3}$/.test(String(body.language_code)))
      return voiceError(422, 'invalid_language_code', 'language_code must be ISO 639-1');
    if (tts) {
      if (!nonEmpty(body.text)) return voiceError(422, 'invalid_text', 'text is required');
      if (body.text.length > 10_000) return voiceError(422, 'text_too_long', 'text is longer than 10,000 characters');
    } else {
      const inputs = Array.isArray(body.inputs) ? body.inputs : undefined;
      if (!inputs || inputs.length === 0) return voiceError(422, 'invalid_inputs', 'inputs must be a non-empty array');
      for (const entry of inputs) {
        const line = record(entry);
        if (!line || !nonEmpty(line.text) || !nonEmpty(line.voice_id))
          return voiceError(422, 'invalid_inputs', 'each input needs text and voice_id');
      }
    }
    return { status: 200, headers: { 'content-type': state.contentType, 'content-length': String(audio.length) }, body: audio };
  });
  state = {
    ...server,
    apiKey,
    audio,
    contentType: 'audio/mpeg',
    failNext(failure, times = 1) {
      for (let index = 0; index < times; index++) failures.push(failure);
    },
  };
  return state;
}

// ---------------------------------------------------------------------------------------------------------------
// Notebook job server

export interface FakeNotebookJob {
  id: string;
  kind: string;
  request: Record<string, unknown>;
  /** Polls answered so far. */
  polls: number;
  status: 'queued' | 'running' | 'succeeded' | 'failed';
  /** Set when the job was told to fail. */
  error: string | null;
  cancelled: boolean;
  downloads: number;
}

export type NotebookRoute = 'submit' | 'poll' | 'result' | 'any';

export interface FakeNotebookServer {
  baseUrl: string;
  apiKey: string;
  requests: MediaRequest[];
  jobs: FakeNotebookJob[];
  /** Polls until a job finishes (default 2: queued -> running -> succeeded on the 2nd poll). */
  pollsUntilDone: number;
  /** cost_cents reported in results; null leaves it out. Default 37. */
  costCents: number | null;
  /** Overrides the result URL of a job (e.g. another host). */
  resultUrl: ((job: FakeNotebookJob, baseUrl: string) => string) | null;
  /** Overrides the `mime` a finished job reports (null leaves it out); undefined reports the artefact's own. */
  resultMime: string | null | undefined;
  /** Overrides the Content-Type of result downloads ('' sends none); undefined sends the artefact's own. */
  resultContentType: string | undefined;
  /** The next `times` requests on `route` fail with this status (429 carries retry-after) or hang. */
  failNext(failure: FakeFailure, times?: number, route?: NotebookRoute): void;
  /** Jobs submitted from now on end `failed` with this error (null: succeed again). */
  failJobs(error: string | null): void;
  /** The next `times` result downloads fail: an HTTP status, 'drop' (connection dies mid-body) or 'empty'. */
  failResult(failure: number | 'drop' | 'empty', times?: number): void;
  close(): Promise<void>;
}

const NOTEBOOK_KINDS = ['infographic', 'slide-detailed', 'audio', 'video-explainer', 'video'];

export async function startFakeNotebookServer(options: { apiKey?: string; pollsUntilDone?: number } = {}): Promise<FakeNotebookServer> {
  const apiKey = options.apiKey ?? FAKE_NOTEBOOK_API_KEY;
  const failures: Array<{ failure: FakeFailure; route: NotebookRoute }> = [];
  const resultFailures: Array<number | 'drop' | 'empty'> = [];
  let jobError: string | null = null;
  const jobs: FakeNotebookJob[] = [];
  let state: FakeNotebookServer;

  const routeOf = (request: MediaRequest): NotebookRoute | null => {
    const path = new URL(request.path, 'http://fake').pathname;
    if (path === '/v1/jobs') return 'submit';
    if (/^\/v1\/jobs\/[^/]+$/.test(path)) return 'poll';
    if (/^\/v1\/results\/[^/]+$/.test(path)) return 'result';
    return null;
  };

  const server = await serve((request, baseUrl) => {
    const route = routeOf(request);
    const index = failures.findIndex((entry) => entry.route === 'any' || entry.route === route);
    if (index !== -1) {
      const [{ failure }] = failures.splice(index, 1);
      if (failure === 'timeout') return 'hang';
      return json(
        failure,
        { error: { message: failure === 429 ? 'Rate limit exceeded' : `Simulated failure ${failure}` } },
        failure === 429 ? { 'retry-after': '1' } : undefined,
      );
    }
    if (!route) return json(404, { error: { message: 'not found' } });
    const auth = request.headers.authorization;
    if (auth !== `Bearer ${apiKey}`) return json(401, { error: { message: 'invalid or missing bearer token' } });
    const path = new URL(request.path, 'http://fake').pathname;

    if (route === 'submit') {
      if (request.method !== 'POST') return json(405, { error: { message: 'method not allowed' } });
      if (!String(request.headers['content-type'] ?? '').startsWith('application/json'))
        return json(415, { error: { message: 'expected JSON' } });
      const body = record(request.body);
      if (!body) return json(400, { error: { message: 'body must be a JSON object' } });
      if (!NOTEBOOK_KINDS.includes(String(body.kind))) return json(400, { error: { message: `unknown kind ${String(body.kind)}` } });
      if (!nonEmpty(body.source_markdown)) return json(400, { error: { message: 'source_markdown is required' } });
      const opts = record(body.options);
      if (!opts || Object.values(opts).some((value) => typeof value !== 'string'))
        return json(400, { error: { message: 'options must be an object of strings' } });
      if (!nonEmpty(body.language)) return json(400, { error: { message: 'language is required' } });
      const job: FakeNotebookJob = {
        id: `job_${jobs.length + 1}`,
        kind: String(body.kind),
        request: body,
        polls: 0,
        status: 'queued',
        error: jobError,
        cancelled: false,
        downloads: 0,
      };
      jobs.push(job);
      return json(202, { id: job.id, status: job.status });
    }

    const id = decodeURIComponent(path.split('/').pop() ?? '');
    const job = jobs.find((entry) => entry.id === id);
    if (!job) return json(404, { error: { message: `no job ${id}` } });

    if (route === 'poll') {
      if (request.method === 'DELETE') {
        job.cancelled = true;
        return json(200, { id: job.id, status: job.status, cancelled: true });
      }
      if (request.method !== 'GET') return json(405, { error: { message: 'method not allowed' } });
      job.polls++;
      if (job.status === 'queued' || job.status === 'running') {
        if (job.polls >= state.pollsUntilDone) job.status = job.error ? 'failed' : 'succeeded';
        else job.status = 'running';
      }
      if (job.status === 'failed') return json(200, { id: job.id, status: 'failed', error: job.error });
      if (job.status !== 'succeeded') return json(200, { id: job.id, status: job.status });
      const artefact = fakeArtefact(job.kind);
      const mime = state.resultMime === undefined ? artefact.mime : state.resultMime;
      return json(200, {
        id: job.id,
        status: 'succeeded',
        result: {
          url: state.resultUrl ? state.resultUrl(job, baseUrl) : `${baseUrl}/v1/results/${job.id}`,
          ...(mime === null ? {} : { mime }),
          size: artefact.bytes.length,
          ...(state.costCents === null ? {} : { cost_cents: state.costCents }),
        },
      });
    }

    // route === 'result'
    if (request.method !== 'GET') return json(405, { error: { message: 'method not allowed' } });
    if (job.status !== 'succeeded') return json(409, { error: { message: 'job has no result yet' } });
    job.downloads++;
    const failure = resultFailures.shift();
    if (failure === 'drop') return 'drop';
    if (failure === 'empty') return { status: 200, headers: { 'content-type': fakeArtefact(job.kind).mime }, body: Buffer.alloc(0) };
    if (failure !== undefined) return json(failure, { error: { message: `Simulated result failure ${failure}` } });
    const artefact = fakeArtefact(job.kind);
    const contentType = state.resultContentType ?? artefact.mime;
    return {
      status: 200,
      headers: { ...(contentType ? { 'content-type': contentType } : {}), 'content-length': String(artefact.bytes.length) },
      body: artefact.bytes,
    };
  });

  state = {
    ...server,
    apiKey,
    jobs,
    pollsUntilDone: options.pollsUntilDone ?? 2,
    costCents: 37,
    resultUrl: null,
    resultMime: undefined,
    resultContentType: undefined,
    failNext(failure, times = 1, route = 'any') {
      for (let index = 0; index < times; index++) failures.push({ failure, route });
    },
    failJobs(error) {
      jobError = error;
    },
    failResult(failure, times = 1) {
      for (let index = 0; index < times; index++) resultFailures.push(failure);
    },
  };
  return state;
}
