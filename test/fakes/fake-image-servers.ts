/**
 * Test helper: loopback fakes of the image APIs of the image exports, in the vendors' wire formats.
 * - openai: `POST /v1/images/generations` (Bearer key; model, prompt, n, size, quality, output_format...), answering
 *   `{created, data: [{b64_json}], usage: {input_tokens, input_tokens_details, output_tokens, total_tokens}, ...}`.
 * - gemini: `POST /v1beta/models/<image model>:generateContent` (x-goog-api-key; contents, generationConfig with
 *   responseModalities and imageConfig), answering `candidates[0].content.parts[].inlineData {mimeType, data}` and
 *   `usageMetadata`.
 * The service reaches the image API and the chat API of a vendor through one base URL, so every other request is
 * forwarded to `forwardTo` (an LLM fake of fake-provider-servers.ts playing the plan model).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { crc32, deflateSync } from 'node:zlib';
import { FAKE_API_KEY } from './fake-provider-servers';
import { recordRequest, type RecordedRequest } from './recorded-request';

export type FakeImageKind = 'openai' | 'gemini';

/** A real (tiny) PNG carrying `label` in a tEXt chunk, so a test can tell whose bytes it downloaded. */
export function fakePng(label: string): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(2, 0);
  header.writeUInt32BE(3, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB
  const rows = Buffer.concat(Array.from({ length: 3 }, () => Buffer.from([0, 255, 255, 255, 20, 40, 60])));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('tEXt', Buffer.from(`Comment\0${label}`, 'latin1')),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** What the next image request gets instead of the image: an HTTP status (the vendor's error body), or these bytes. */
type Override = { status: number } | { bytes: Buffer } | { held: Promise<void> };

export interface FakeImageServer {
  kind: FakeImageKind;
  baseUrl: string;
  /** The image requests received (forwarded requests are recorded by the LLM fake). */
  requests: RecordedRequest[];
  /** The PNG every image request gets. */
  png: Buffer;
  /** Usage reported for each image. */
  usage: { inputTokens: number; outputTokens: number };
  failNext(status: number, times?: number): void;
  /** The next image request gets `bytes` (base64-encoded as the vendor would) instead of the PNG. */
  sendNext(bytes: Buffer): void;
  /** The next image request is answered (with the PNG) only once `release()` is called: work in flight. */
  holdNext(): { release(): void };
  /** Image requests whose client hung up before the reply (an aborted call). */
  abandoned: number;
  close(): Promise<void>;
}

const OPENAI_FIELDS = [
  'prompt',
  'background',
  'model',
  'moderation',
  'n',
  'output_compression',
  'output_format',
  'partial_images',
  'quality',
  'response_format',
  'size',
  'stream',
  'style',
  'user',
];
const OPENAI_SIZES = ['auto', '1024x1024', '1536x1024', '1024x1536'];
const GEMINI_ASPECTS = ['1:1', '2:3', '3:2', '3:4', '4:3', '4:5', '5:4', '9:16', '16:9', '21:9'];

type Reply = { status: number; body: unknown };

const record = (value: unknown): Record<string, unknown> | undefined =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;

function openaiError(status: number, message: string, param: string | null = null): Reply {
  return { status, body: { error: { message, type: status >= 500 ? 'server_error' : 'invalid_request_error', param, code: null } } };
}

function geminiError(status: number, message: string): Reply {
  const label = status === 400 ? 'INVALID_ARGUMENT' : status === 403 ? 'PERMISSION_DENIED' : status === 404 ? 'NOT_FOUND' : 'INTERNAL';
  return { status, body: { error: { code: status, message, status: label } } };
}

function openaiImage(request: RecordedRequest, apiKey: string, png: Buffer, usage: FakeImageServer['usage']): Reply {
  if (request.headers.authorization !== `Bearer ${apiKey}`) return openaiError(401, 'Incorrect API key provided.');
  const body = record(request.body);
  if (!body) return openaiError(400, 'We could not parse the JSON body of your request.');
  const extra = Object.keys(body).filter((key) => !OPENAI_FIELDS.includes(key));
  if (extra.length > 0) return openaiError(400, `Unrecognized request argument supplied: ${extra[0]}`);
  if (typeof body.prompt !== 'string' || body.prompt === '') return openaiError(400, "Missing required parameter: 'prompt'.", 'prompt');
  if (body.prompt.length > 32000) return openaiError(400, "Invalid 'prompt': string too long.", 'prompt');
  if (typeof body.model !== 'string' || !/^gpt-image-/.test(body.model))
    return openaiError(400, `Invalid model ${String(body.model)}`, 'model');
  if (body.size !== undefined && !OPENAI_SIZES.includes(String(body.size)))
    return openaiError(400, `Invalid size ${String(body.size)}`, 'size');
  if (body.n !== undefined && (!Number.isInteger(body.n) || (body.n as number) < 1 || (body.n as number) > 10))
    return openaiError(400, 'Invalid n', 'n');
  if (body.response_format !== undefined) return openaiError(400, "Unknown parameter: 'response_format'.", 'response_format');
  return {
    status: 200,
    body: {
      created: 1764000000,
      background: 'opaque',
      data: [{ b64_json: png.toString('base64') }],
      output_format: body.output_format ?? 'png',
      quality: body.quality ?? 'auto',
      size: body.size ?? 'auto',
      usage: {
        input_tokens: usage.inputTokens,
        input_tokens_details: { image_tokens: 0, text_tokens: usage.inputTokens },
        output_tokens: usage.outputTokens,
        total_tokens: usage.inputTokens + usage.outputTokens,
      },
    },
  };
}

function geminiImage(request: RecordedRequest, apiKey: string, png: Buffer, usage: FakeImageServer['usage']): Reply {
  if (request.headers['x-goog-api-key'] !== apiKey) return geminiError(400, 'API key not valid. Please pass a valid API key.');
  const body = record(request.body);
  if (!body) return geminiError(400, 'Invalid JSON payload received.');
  const extra = Object.keys(body).filter((key) => !['contents', 'generationConfig', 'safetySettings', 'systemInstruction'].includes(key));
  if (extra.length > 0) return geminiError(400, `Invalid JSON payload received. Unknown name "${extra[0]}": Cannot find field.`);
  const contents = body.contents;
  const texts = Array.isArray(contents) ? contents.flatMap((content) => (record(content)?.parts as unknown[] | undefined) ?? []) : [];
  if (texts.length === 0 || !texts.every((part) => typeof record(part)?.text === 'string')) {
    return geminiError(400, '* GenerateContentRequest.contents: contents is not specified');
  }
  const generation = record(body.generationConfig);
  const modalities = generation?.responseModalities;
  if (!Array.isArray(modalities) || !modalities.includes('IMAGE'))
    return geminiError(400, 'This model only supports responseModalities IMAGE (and TEXT).');
  const aspect = record(generation?.imageConfig)?.aspectRatio;
  if (aspect !== undefined && !GEMINI_ASPECTS.includes(String(aspect)))
    return geminiError(400, `Unsupported aspect ratio ${String(aspect)}`);
  return {
    status: 200,
    body: {
      candidates: [
        {
          content: { parts: [{ inlineData: { mimeType: 'image/png', data: png.toString('base64') } }], role: 'model' },
          finishReason: 'STOP',
          index: 0,
        },
      ],
      usageMetadata: {
        promptTokenCount: usage.inputTokens,
        candidatesTokenCount: usage.outputTokens,
        totalTokenCount: usage.inputTokens + usage.outputTokens,
        promptTokensDetails: [{ modality: 'TEXT', tokenCount: usage.inputTokens }],
        candidatesTokensDetails: [{ modality: 'IMAGE', tokenCount: usage.outputTokens }],
      },
      modelVersion: 'gemini-2.5-flash-image',
      responseId: 'fake-image-response',
    },
  };
}

function isImageRequest(kind: FakeImageKind, request: RecordedRequest): boolean {
  if (kind === 'openai') return request.path === '/v1/images/generations';
  return /^\/v1beta\/models\/[^/:]*image[^/:]*:generateContent$/.test(request.path);
}

export async function startFakeImageServer(
  kind: FakeImageKind,
  options: { forwardTo?: string; apiKey?: string; usage?: FakeImageServer['usage'] } = {},
): Promise<FakeImageServer> {
  const apiKey = options.apiKey ?? FAKE_API_KEY;
  const requests: RecordedRequest[] = [];
  const overrides: Override[] = [];
  const png = fakePng(`fake ${kind} image`);
  const usage = options.usage ?? (kind === 'openai' ? { inputTokens: 900, outputTokens: 6240 } : { inputTokens: 700, outputTokens: 1290 });

  const state = { abandoned: 0 };
  const server = createServer((req, res) => {
    recordRequest(req)
      .then(async (recorded): Promise<{ status: number; headers: Record<string, string>; body: string }> => {
        if (!isImageRequest(kind, recorded)) {
          if (!options.forwardTo)
            return { status: 404, headers: { 'content-type': 'application/json' }, body: '{"error":{"message":"not found"}}' };
          const forwarded = await fetch(`${options.forwardTo}${recorded.path}`, {
            method: recorded.method,
            headers: Object.fromEntries(
              Object.entries(recorded.headers).filter(
                ([name, value]) => typeof value === 'string' && !['host', 'content-length', 'connection'].includes(name),
              ),
            ) as Record<string, string>,
            body: recorded.method === 'GET' ? undefined : recorded.rawBody,
          });
          return {
            status: forwarded.status,
            headers: { 'content-type': forwarded.headers.get('content-type') ?? 'application/json' },
            body: await forwarded.text(),
          };
        }
        requests.push(recorded);
        if (recorded.method !== 'POST') return { status: 405, headers: {}, body: '' };
        let override = overrides.shift();
        if (override && 'held' in override) {
          let hungUp = false;
          const closed = new Promise<void>((resolve) => res.once('close', () => resolve(void (hungUp = true))));
          await Promise.race([override.held, closed]);
          if (hungUp) {
            state.abandoned++;
            return { status: 499, headers: {}, body: '' };
          }
          override = undefined;
        }
        let reply: Reply;
        if (override && 'status' in override) {
          reply =
            kind === 'openai'
              ? openaiError(override.status, `Simulated failure ${override.status}`)
              : geminiError(override.status, `Simulated failure ${override.status}`);
        } else {
          const bytes = override && 'bytes' in override ? override.bytes : png;
          reply = kind === 'openai' ? openaiImage(recorded, apiKey, bytes, usage) : geminiImage(recorded, apiKey, bytes, usage);
        }
        return { status: reply.status, headers: { 'content-type': 'application/json' }, body: JSON.stringify(reply.body) };
      })
      .then(
        (reply) => {
          if (res.destroyed) return;
          res.writeHead(reply.status, reply.headers);
          res.end(reply.body);
        },
        (error: unknown) => {
          res.writeHead(500, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: { message: `fake server error: ${String(error)}` } }));
        },
      );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    kind,
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    png,
    usage,
    failNext(status, times = 1) {
      for (let index = 0; index < times; index++) overrides.push({ status });
    },
    sendNext(bytes) {
      overrides.push({ bytes });
    },
    holdNext() {
      let release = () => {};
      overrides.push({ held: new Promise<void>((resolve) => (release = resolve)) });
      return { release: () => release() };
    },
    get abandoned() {
      return state.abandoned;
    },
    close() {
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
