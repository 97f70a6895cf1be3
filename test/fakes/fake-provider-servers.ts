/**
 * Test helper: loopback fakes of the provider APIs. Each validates requests the way the real API does (path,
 * method, auth header, required body fields) and answers in that vendor's wire format.
 */
import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { recordRequest, type RecordedRequest } from './recorded-request';

export type FakeKind = 'anthropic' | 'openai' | 'gemini' | 'cohere' | 'perplexity' | 'deepl' | 'reader' | 'web';

export const FAKE_API_KEY = 'fake-secret-key-0123456789abcdef';

export type { RecordedRequest } from './recorded-request';

export interface FakeSearchHit {
  url: string;
  title: string;
  snippet: string;
  date?: string;
}

export interface FakeReply {
  status?: number;
  headers?: Record<string, string>;
  /** Sent as JSON, replacing the default reply entirely. */
  json?: unknown;
  /** Sent as is. */
  raw?: string | Buffer;
  /** LLM kinds: the assistant text, wrapped in the vendor's response format. */
  text?: string;
  /** Search-capable kinds: the hits to report. */
  results?: FakeSearchHit[];
  /** Never answer (the client has to time out). */
  hang?: boolean;
  delayMs?: number;
}

/** Returns a reply to override the default one, or undefined to keep it. Runs after auth and validation passed. */
export type FakeHandler = (request: RecordedRequest) => FakeReply | undefined | Promise<FakeReply | undefined>;

export interface FakeProviderOptions {
  /** Expected key; null disables the check. Default FAKE_API_KEY, except reader and web which need none. */
  apiKey?: string | null;
}

export interface FakeProvider {
  kind: FakeKind;
  baseUrl: string;
  apiKey: string | null;
  requests: RecordedRequest[];
  /** The next `times` requests fail with this HTTP status, hang ('timeout') or get a 200 with a broken body ('malformed'). */
  failNext(status: number | 'timeout' | 'malformed', times?: number): void;
  close(): Promise<void>;
}

type Failure = number | 'timeout' | 'malformed';
type Reply = { status: number; headers?: Record<string, string>; body: string | Buffer } | 'hang';

const json = (status: number, body: unknown, headers?: Record<string, string>): Reply => ({
  status,
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

export const DEFAULT_FAKE_HITS: readonly FakeSearchHit[] = [
  {
    url: 'https://regulator.example/press/2025-01',
    title: 'Regulator publishes final rules',
    snippet: 'The final rules apply from 1 July 2026.',
    date: '2025-01-15',
  },
  {
    url: 'https://journal.example/l/2024-1624',
    title: 'Official Journal: Regulation 2024/1624',
    snippet: 'Regulation (EU) 2024/1624 of the European Parliament.',
    date: '2024-06-19',
  },
  { url: 'https://news.example/analysis', title: 'Analysis of the new regime', snippet: 'What firms need to do before the deadline.' },
];

const tokens = (text: string): number => Math.max(1, Math.ceil(text.length / 4));

export async function startFakeProvider(kind: FakeKind, handler?: FakeHandler, options: FakeProviderOptions = {}): Promise<FakeProvider> {
  const apiKey = options.apiKey === undefined ? (kind === 'reader' || kind === 'web' ? null : FAKE_API_KEY) : options.apiKey;
  const requests: RecordedRequest[] = [];
  const failures: Failure[] = [];

  const server = createServer((req, res) => {
    recordRequest(req)
      .then((recorded) => {
        requests.push(recorded);
        return respond(kind, recorded, req, apiKey, failures.shift(), handler);
      })
      .then(
        (reply) => send(res, reply),
        (error: unknown) => send(res, json(500, { message: `fake server error: ${String(error)}` })),
      );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    kind,
    baseUrl: `http://127.0.0.1:${port}`,
    apiKey,
    requests,
    failNext(status, times = 1) {
      for (let index = 0; index < times; index += 1) failures.push(status);
    },
    close() {
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

function send(res: ServerResponse, reply: Reply): void {
  if (reply === 'hang' || res.destroyed) return;
  res.writeHead(reply.status, reply.headers ?? {});
  res.end(reply.body);
}

async function respond(
  kind: FakeKind,
  request: RecordedRequest,
  req: IncomingMessage,
  apiKey: string | null,
  failure: Failure | undefined,
  handler: FakeHandler | undefined,
): Promise<Reply> {
  if (failure === 'timeout') return 'hang';
  if (failure === 'malformed') return { status: 200, headers: { 'content-type': 'application/json' }, body: '{"truncated": ' };
  if (failure !== undefined) return failureReply(kind, failure);
  const rejected = VALIDATORS[kind](request, apiKey, req);
  if (rejected) return rejected;
  const custom = handler ? await handler(request) : undefined;
  if (custom?.delayMs) await new Promise((resolve) => setTimeout(resolve, custom.delayMs));
  if (custom?.hang) return 'hang';
  if (custom?.json !== undefined) return json(custom.status ?? 200, custom.json, custom.headers);
  if (custom?.raw !== undefined) return { status: custom.status ?? 200, headers: custom.headers, body: custom.raw };
  return REPLIES[kind](request, custom ?? {});
}

function failureReply(kind: FakeKind, status: number): Reply {
  const message = status === 429 ? 'Rate limit exceeded, slow down' : `Simulated failure ${status}`;
  const headers = status === 429 ? { 'retry-after': '2' } : undefined;
  switch (kind) {
    case 'anthropic':
      return json(
        status,
        {
          type: 'error',
          error: { type: status === 429 ? 'rate_limit_error' : status === 529 ? 'overloaded_error' : 'api_error', message },
        },
        headers,
      );
    case 'openai':
    case 'perplexity':
      return json(status, { error: { message, type: status === 429 ? 'rate_limit_exceeded' : 'server_error', code: null } }, headers);
    case 'gemini':
      return json(status, { error: { code: status, message, status: status === 429 ? 'RESOURCE_EXHAUSTED' : 'INTERNAL' } }, headers);
    case 'cohere':
    case 'deepl':
      return json(status, { message }, headers);
    default:
      return { status, headers: { 'content-type': 'text/plain', ...headers }, body: message };
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Validation, per vendor

type Validator = (request: RecordedRequest, apiKey: string | null, req: IncomingMessage) => Reply | null;

const record = (value: unknown): Record<string, unknown> | undefined =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;

const isJson = (request: RecordedRequest): boolean => String(request.headers['content-type'] ?? '').startsWith('application/json');

function bearer(request: RecordedRequest): string | undefined {
  const header = request.headers.authorization;
  return header?.startsWith('Bearer ') ? header.slice('Bearer '.length) : undefined;
}

function unknownKeys(body: Record<string, unknown>, allowed: readonly string[]): string[] {
  return Object.keys(body).filter((key) => !allowed.includes(key));
}

function chatMessagesError(messages: unknown, roles: readonly string[]): string | null {
  if (!Array.isArray(messages) || messages.length === 0) return 'messages: at least one message is required';
  for (const [index, message] of messages.entries()) {
    const entry = record(message);
    if (!entry || typeof entry.role !== 'string' || !roles.includes(entry.role))
      return `messages[${index}].role: must be one of ${roles.join(', ')}`;
    if (typeof entry.content !== 'string' && !Array.isArray(entry.content)) return `messages[${index}].content: required`;
  }
  return null;
}

const ANTHROPIC_FIELDS = [
  'model',
  'max_tokens',
  'messages',
  'system',
  'temperature',
  'tools',
  'tool_choice',
  'stop_sequences',
  'top_p',
  'top_k',
  'metadata',
  'stream',
  'thinking',
  'service_tier',
];
const OPENAI_CHAT_FIELDS = [
  'model',
  'messages',
  'max_completion_tokens',
  'max_tokens',
  'temperature',
  'response_format',
  'top_p',
  'n',
  'stop',
  'seed',
  'reasoning_effort',
  'user',
  'stream',
  'tools',
  'tool_choice',
];
const GEMINI_FIELDS = ['contents', 'systemInstruction', 'generationConfig', 'tools', 'toolConfig', 'safetySettings', 'cachedContent'];
const GEMINI_GENERATION_FIELDS = [
  'maxOutputTokens',
  'temperature',
  'responseMimeType',
  'responseSchema',
  'topP',
  'topK',
  'thinkingConfig',
  'stopSequences',
  'candidateCount',
];
const PERPLEXITY_MODELS = ['sonar', 'sonar-pro', 'sonar-reasoning', 'sonar-reasoning-pro', 'sonar-deep-research'];
const DEEPL_TARGETS = [
  'AR',
  'BG',
  'CS',
  'DA',
  'DE',
  'EL',
  'EN-GB',
  'EN-US',
  'ES',
  'ET',
  'FI',
  'FR',
  'HU',
  'ID',
  'IT',
  'JA',
  'KO',
  'LT',
  'LV',
  'NB',
  'NL',
  'PL',
  'PT-BR',
  'PT-PT',
  'RO',
  'RU',
  'SK',
  'SL',
  'SV',
  'TR',
  'UK',
  'ZH',
  'ZH-HANS',
  'ZH-HANT',
];

const VALIDATORS: Record<FakeKind, Validator> = {
  anthropic(request, apiKey) {
    const error = (status: number, type: string, message: string): Reply => json(status, { type: 'error', error: { type, message } });
    if (request.method !== 'POST' || request.path !== '/v1/messages') return error(404, 'not_found_error', 'Not found');
    if (apiKey !== null && request.headers['x-api-key'] !== apiKey) return error(401, 'authentication_error', 'invalid x-api-key');
    if (!request.headers['anthropic-version']) return error(400, 'invalid_request_error', 'anthropic-version: header is required');
    const body = record(request.body);
    if (!isJson(request) || !body) return error(400, 'invalid_request_error', 'Request body must be JSON');
    const extra = unknownKeys(body, ANTHROPIC_FIELDS);
    if (extra.length > 0) return error(400, 'invalid_request_error', `${extra[0]}: Extra inputs are not permitted`);
    if (typeof body.model !== 'string' || body.model === '') return error(400, 'invalid_request_error', 'model: Field required');
    if (!Number.isInteger(body.max_tokens) || (body.max_tokens as number) < 1)
      return error(400, 'invalid_request_error', 'max_tokens: Field required');
    const messages = chatMessagesError(body.messages, ['user', 'assistant']);
    if (messages) return error(400, 'invalid_request_error', messages);
    if (body.system !== undefined && typeof body.system !== 'string' && !Array.isArray(body.system))
      return error(400, 'invalid_request_error', 'system: Input should be a valid string');
    if (body.temperature !== undefined && (typeof body.temperature !== 'number' || body.temperature < 0 || body.temperature > 1)) {
      return error(400, 'invalid_request_error', 'temperature: Input should be less than or equal to 1');
    }
    return null;
  },

  openai(request, apiKey) {
    const error = (status: number, message: string, code: string | null = null, param: string | null = null): Reply =>
      json(status, { error: { message, type: 'invalid_request_error', param, code } });
    const path = request.path;
    if (request.method !== 'POST' || (path !== '/v1/chat/completions' && path !== '/v1/responses'))
      return error(404, `Invalid URL (${request.method} ${path})`);
    if (apiKey !== null) {
      const provided = bearer(request);
      if (provided === undefined)
        return error(401, "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth.");
      // The real API echoes (part of) the key it was given: adapters must not pass that on.
      if (provided !== apiKey)
        return error(
          401,
          `Incorrect API key provided: ${provided}. You can find your API key at https://platform.openai.com/account/api-keys.`,
          'invalid_api_key',
        );
    }
    const body = record(request.body);
    if (!isJson(request) || !body) return error(400, 'We could not parse the JSON body of your request.');
    if (typeof body.model !== 'string' || body.model === '') return error(400, 'you must provide a model parameter', null, 'model');
    const reasoning = /^(gpt-5|o\d)/.test(body.model);
    const pro = /^(gpt-5[^-]*|o\d+)-pro(-|$)/.test(body.model);
    if (path === '/v1/responses') {
      if (body.input === undefined) return error(400, "Missing required parameter: 'input'.", 'missing_required_parameter', 'input');
      if (body.max_output_tokens !== undefined && (!Number.isInteger(body.max_output_tokens) || (body.max_output_tokens as number) < 16)) {
        return error(400, "Invalid 'max_output_tokens': integer below minimum value.", 'integer_below_min_value', 'max_output_tokens');
      }
      return null;
    }
    if (pro) return error(404, 'This model is only supported in v1/responses and not in v1/chat/completions.');
    const extra = unknownKeys(body, OPENAI_CHAT_FIELDS);
    if (extra.length > 0) return error(400, `Unrecognized request argument supplied: ${extra[0]}`);
    const messages = chatMessagesError(body.messages, ['system', 'developer', 'user', 'assistant']);
    if (messages) return error(400, messages, null, 'messages');
    if (reasoning && body.max_tokens !== undefined) {
      return error(
        400,
        "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
        'unsupported_parameter',
        'max_tokens',
      );
    }
    if (reasoning && body.temperature !== undefined && body.temperature !== 1) {
      return error(
        400,
        "Unsupported value: 'temperature' does not support this value with this model. Only the default (1) value is supported.",
        'unsupported_value',
        'temperature',
      );
    }
    if (record(body.response_format)?.type === 'json_object' && !/json/i.test(JSON.stringify(body.messages))) {
      return error(
        400,
        "'messages' must contain the word 'json' in some form, to use 'response_format' of type 'json_object'.",
        null,
        'messages',
      );
    }
    return null;
  },

  gemini(request, apiKey) {
    const error = (code: number, status: string, message: string, details?: unknown[]): Reply =>
      json(code, { error: { code, message, status, ...(details ? { details } : {}) } });
    const match = /^\/v1beta\/models\/([^/:?]+):generateContent$/.exec(request.path);
    if (request.method !== 'POST' || !match) return error(404, 'NOT_FOUND', `Requested entity was not found.`);
    if (apiKey !== null) {
      const provided = request.headers['x-goog-api-key'];
      if (provided === undefined) {
        return error(
          403,
          'PERMISSION_DENIED',
          "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.",
        );
      }
      if (provided !== apiKey) {
        return error(400, 'INVALID_ARGUMENT', 'API key not valid. Please pass a valid API key.', [
          { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID', domain: 'googleapis.com' },
        ]);
      }
    }
    const body = record(request.body);
    if (!body) return error(400, 'INVALID_ARGUMENT', 'Invalid JSON payload received.');
    const extra = unknownKeys(body, GEMINI_FIELDS);
    if (extra.length > 0)
      return error(400, 'INVALID_ARGUMENT', `Invalid JSON payload received. Unknown name "${extra[0]}": Cannot find field.`);
    const generation = record(body.generationConfig);
    const extraGeneration = generation ? unknownKeys(generation, GEMINI_GENERATION_FIELDS) : [];
    if (extraGeneration.length > 0) {
      return error(
        400,
        'INVALID_ARGUMENT',
        `Invalid JSON payload received. Unknown name "${extraGeneration[0]}" at 'generation_config': Cannot find field.`,
      );
    }
    const contents = body.contents;
    if (!Array.isArray(contents) || contents.length === 0)
      return error(400, 'INVALID_ARGUMENT', '* GenerateContentRequest.contents: contents is not specified');
    for (const [index, content] of contents.entries()) {
      const entry = record(content);
      if (!entry || (entry.role !== 'user' && entry.role !== 'model'))
        return error(400, 'INVALID_ARGUMENT', `Please use a valid role: user, model. (contents[${index}])`);
      const parts = entry.parts;
      if (!Array.isArray(parts) || parts.length === 0 || !parts.every((part) => typeof record(part)?.text === 'string')) {
        return error(400, 'INVALID_ARGUMENT', `* GenerateContentRequest.contents[${index}].parts: contents.parts must not be empty.`);
      }
    }
    return null;
  },

  cohere(request, apiKey) {
    const error = (status: number, message: string): Reply => json(status, { id: 'fake-error-id', message });
    if (request.method !== 'POST' || request.path !== '/v2/chat') return error(404, 'not found');
    if (apiKey !== null && bearer(request) !== apiKey) return error(401, 'invalid api token');
    const body = record(request.body);
    if (!isJson(request) || !body) return error(400, 'invalid request: body must be JSON');
    if (typeof body.model !== 'string' || body.model === '') return error(400, 'invalid request: model must be specified');
    const messages = chatMessagesError(body.messages, ['system', 'user', 'assistant', 'tool']);
    if (messages) return error(400, `invalid request: ${messages}`);
    if (body.stream === true) return error(400, 'invalid request: use /v2/chat with stream=false');
    if (body.response_format !== undefined && !['json_object', 'text'].includes(String(record(body.response_format)?.type))) {
      return error(400, 'invalid request: response_format.type must be one of text, json_object');
    }
    return null;
  },

  perplexity(request, apiKey) {
    const error = (status: number, message: string, type = 'invalid_request_error'): Reply =>
      json(status, { error: { message, type, code: status } });
    if (request.method !== 'POST' || request.path !== '/chat/completions') return error(404, 'Not Found');
    if (apiKey !== null && bearer(request) !== apiKey) return error(401, 'Invalid API key provided', 'invalid_api_key');
    const body = record(request.body);
    if (!isJson(request) || !body) return error(400, 'Invalid JSON body');
    if (typeof body.model !== 'string' || !PERPLEXITY_MODELS.includes(body.model)) {
      return error(
        400,
        `Invalid model '${String(body.model)}'. Permitted models can be found in the documentation at https://docs.perplexity.ai/guides/model-cards.`,
        'invalid_model',
      );
    }
    const messages = chatMessagesError(body.messages, ['system', 'user', 'assistant']);
    if (messages) return error(400, messages);
    const roles = (body.messages as Array<{ role: string }>)
      .map((message) => message.role)
      .filter((role, index, all) => !(role === 'system' && all.slice(0, index).every((r) => r === 'system')));
    const alternating =
      roles.every((role, index) => role === (index % 2 === 0 ? 'user' : 'assistant')) && roles[roles.length - 1] === 'user';
    if (!alternating)
      return error(400, 'After the (optional) system message(s), user and assistant roles should be alternating, ending with user.');
    return null;
  },

  deepl(request, apiKey) {
    const error = (status: number, message: string): Reply => json(status, { message });
    if (request.path !== '/v2/translate') return error(404, 'Not found');
    if (request.method !== 'POST') return error(405, 'Method not allowed');
    if (apiKey !== null && request.headers.authorization !== `DeepL-Auth-Key ${apiKey}`) {
      return error(403, 'Authorization failed. Please supply a valid DeepL-Auth-Key via the Authorization header.');
    }
    if (Buffer.byteLength(request.rawBody) > 128 * 1024) return error(413, 'Request Entity Too Large');
    const body = record(request.body);
    if (!isJson(request) || !body) return error(400, 'Invalid request: expected a JSON body');
    if (!Array.isArray(body.text) || body.text.length === 0 || !body.text.every((text) => typeof text === 'string'))
      return error(400, "Parameter 'text' not specified.");
    if (body.text.length > 50) return error(413, 'Too many texts: at most 50 per request');
    if (typeof body.target_lang !== 'string' || !DEEPL_TARGETS.includes(body.target_lang.toUpperCase()))
      return error(400, "Value for 'target_lang' not supported.");
    if (body.source_lang !== undefined && (typeof body.source_lang !== 'string' || !/^[A-Z]{2}$/i.test(body.source_lang)))
      return error(400, "Value for 'source_lang' not supported.");
    if (body.tag_handling !== undefined && body.tag_handling !== 'xml' && body.tag_handling !== 'html')
      return error(400, "Value for 'tag_handling' not supported.");
    if (body.tag_handling === 'xml' && !(body.text as string[]).every(isWellFormedXmlFragment))
      return error(400, 'Tag handling parsing failed, please check input.');
    if (
      body.model_type !== undefined &&
      !['quality_optimized', 'prefer_quality_optimized', 'latency_optimized'].includes(String(body.model_type))
    ) {
      return error(400, "Value for 'model_type' not supported.");
    }
    return null;
  },

  reader(request, apiKey) {
    if (request.method !== 'GET') return { status: 405, body: 'Method not allowed' };
    if (apiKey !== null && bearer(request) !== apiKey)
      return json(401, { code: 401, name: 'AuthenticationRequiredError', message: 'Invalid API key' });
    if (!/^\/https?:\/\//.test(request.path)) return json(400, { code: 400, name: 'ParamValidationError', message: 'Invalid URL' });
    return null;
  },

  web() {
    return null;
  },
};

/** Unescaped `&` or `<` that is not a tag is what makes DeepL's XML parser fail. */
function isWellFormedXmlFragment(text: string): boolean {
  const withoutTags = text.replace(/<\/?[a-zA-Z][\w-]*(\s+[\w-]+="[^"<>]*")*\s*\/?>/g, '');
  return !/[<>]/.test(withoutTags) && !/&(?!(amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);)/.test(withoutTags);
}

// ---------------------------------------------------------------------------------------------------------------
// Default replies, per vendor

type ReplyBuilder = (request: RecordedRequest, custom: FakeReply) => Reply;

function lastUserText(messages: unknown): string {
  if (!Array.isArray(messages)) return '';
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = record(messages[index]);
    if (message && message.role === 'user') return typeof message.content === 'string' ? message.content : JSON.stringify(message.content);
  }
  return '';
}

function cannedText(kind: FakeKind, prompt: string, wantsJson: boolean): string {
  return wantsJson ? JSON.stringify({ echo: prompt }) : `fake ${kind} reply: ${prompt}`;
}

const REPLIES: Record<FakeKind, ReplyBuilder> = {
  anthropic(request, custom) {
    const body = record(request.body)!;
    const prompt = lastUserText(body.messages);
    const system = typeof body.system === 'string' ? body.system : '';
    const usage = {
      input_tokens: tokens(system + JSON.stringify(body.messages)),
      output_tokens: 0,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
    };
    const common = { id: 'msg_fake0001', type: 'message', role: 'assistant', model: body.model, stop_sequence: null };
    const tools = Array.isArray(body.tools) ? body.tools : [];
    if (tools.some((tool) => String(record(tool)?.type).startsWith('web_search'))) {
      const hits = custom.results ?? [...DEFAULT_FAKE_HITS];
      const text = custom.text ?? `Found ${hits.length} sources.`;
      usage.output_tokens = tokens(text);
      return json(200, {
        ...common,
        content: [
          { type: 'server_tool_use', id: 'srvtoolu_fake', name: 'web_search', input: { query: prompt } },
          {
            type: 'web_search_tool_result',
            tool_use_id: 'srvtoolu_fake',
            content: hits.map((hit) => ({
              type: 'web_search_result',
              url: hit.url,
              title: hit.title,
              encrypted_content: 'ZmFrZQ==',
              page_age: hit.date ?? null,
            })),
          },
          {
            type: 'text',
            text,
            citations: hits.map((hit) => ({
              type: 'web_search_result_location',
              url: hit.url,
              title: hit.title,
              cited_text: hit.snippet,
              encrypted_index: 'ZmFrZQ==',
            })),
          },
        ],
        stop_reason: 'end_turn',
        usage: { ...usage, server_tool_use: { web_search_requests: 1 } },
      });
    }
    const text = custom.text ?? cannedText('anthropic', prompt, /json/i.test(system));
    usage.output_tokens = tokens(text);
    return json(200, { ...common, content: [{ type: 'text', text }], stop_reason: 'end_turn', usage });
  },

  openai(request, custom) {
    const body = record(request.body)!;
    if (request.path === '/v1/responses') {
      const input = body.input;
      const prompt = typeof input === 'string' ? input : lastUserText(input);
      const text = custom.text ?? cannedText('openai', prompt, record(record(body.text)?.format)?.type === 'json_object');
      return json(200, {
        id: 'resp_fake0001',
        object: 'response',
        created_at: 1735689600,
        status: 'completed',
        model: body.model,
        output: [
          { id: 'rs_fake', type: 'reasoning', summary: [] },
          {
            id: 'msg_fake',
            type: 'message',
            status: 'completed',
            role: 'assistant',
            content: [{ type: 'output_text', text, annotations: [] }],
          },
        ],
        usage: {
          input_tokens: tokens(JSON.stringify(input) + String(body.instructions ?? '')),
          output_tokens: tokens(text) + 64,
          total_tokens: 0,
        },
      });
    }
    const prompt = lastUserText(body.messages);
    const text = custom.text ?? cannedText('openai', prompt, record(body.response_format)?.type === 'json_object');
    const promptTokens = tokens(JSON.stringify(body.messages));
    return json(200, {
      id: 'chatcmpl-fake0001',
      object: 'chat.completion',
      created: 1735689600,
      model: body.model,
      choices: [{ index: 0, message: { role: 'assistant', content: text, refusal: null, annotations: [] }, finish_reason: 'stop' }],
      usage: { prompt_tokens: promptTokens, completion_tokens: tokens(text), total_tokens: promptTokens + tokens(text) },
      system_fingerprint: 'fp_fake',
    });
  },

  gemini(request, custom) {
    const body = record(request.body)!;
    const contents = body.contents as Array<{ role: string; parts: Array<{ text: string }> }>;
    const userTurns = contents.filter((content) => content.role === 'user');
    const prompt = userTurns.length > 0 ? userTurns[userTurns.length - 1].parts.map((part) => part.text).join('') : '';
    const grounded = Array.isArray(body.tools) && body.tools.some((tool) => record(tool)?.google_search !== undefined);
    const wantsJson = record(body.generationConfig)?.responseMimeType === 'application/json';
    const hits = custom.results ?? [...DEFAULT_FAKE_HITS];
    const text = custom.text ?? (grounded ? hits.map((hit) => hit.snippet).join(' ') : cannedText('gemini', prompt, wantsJson));
    let offset = 0;
    const supports = hits.map((hit, index) => {
      const segment = { startIndex: offset, endIndex: offset + hit.snippet.length, text: hit.snippet };
      offset += hit.snippet.length + 1;
      return { segment, groundingChunkIndices: [index], confidenceScores: [0.9] };
    });
    const promptTokens = tokens(JSON.stringify(contents) + JSON.stringify(body.systemInstruction ?? ''));
    return json(200, {
      candidates: [
        {
          content: { parts: [{ text }], role: 'model' },
          finishReason: 'STOP',
          index: 0,
          ...(grounded
            ? {
                groundingMetadata: {
                  webSearchQueries: [prompt],
                  groundingChunks: hits.map((hit) => ({ web: { uri: hit.url, title: new URL(hit.url).hostname } })),
                  groundingSupports: supports,
                },
              }
            : {}),
        },
      ],
      usageMetadata: {
        promptTokenCount: promptTokens,
        candidatesTokenCount: tokens(text),
        thoughtsTokenCount: 10,
        totalTokenCount: promptTokens + tokens(text) + 10,
      },
      modelVersion: /\/models\/([^/:]+):/.exec(request.path)?.[1],
      responseId: 'fake-response-0001',
    });
  },

  cohere(request, custom) {
    const body = record(request.body)!;
    const prompt = lastUserText(body.messages);
    const text = custom.text ?? cannedText('cohere', prompt, record(body.response_format)?.type === 'json_object');
    const input = tokens(JSON.stringify(body.messages));
    return json(200, {
      id: 'fake-chat-0001',
      finish_reason: 'COMPLETE',
      message: { role: 'assistant', content: [{ type: 'text', text }] },
      usage: {
        billed_units: { input_tokens: input, output_tokens: tokens(text) },
        tokens: { input_tokens: input + 200, output_tokens: tokens(text) + 2 },
      },
    });
  },

  perplexity(request, custom) {
    const body = record(request.body)!;
    const prompt = lastUserText(body.messages);
    const hits = custom.results ?? [...DEFAULT_FAKE_HITS];
    const text = custom.text ?? `${cannedText('perplexity', prompt, /json/i.test(JSON.stringify(body.messages)))} [1]`;
    const promptTokens = tokens(JSON.stringify(body.messages));
    return json(200, {
      id: 'fake-pplx-0001',
      model: body.model,
      created: 1735689600,
      object: 'chat.completion',
      usage: {
        prompt_tokens: promptTokens,
        completion_tokens: tokens(text),
        total_tokens: promptTokens + tokens(text),
        search_context_size: 'low',
      },
      citations: hits.map((hit) => hit.url),
      search_results: hits.map((hit) => ({
        title: hit.title,
        url: hit.url,
        date: hit.date ?? null,
        last_updated: hit.date ?? null,
        snippet: hit.snippet,
      })),
      choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: text } }],
    });
  },

  deepl(request) {
    const body = record(request.body)!;
    const target = String(body.target_lang).toUpperCase();
    const prefix = `[${target.split('-')[0]}] `;
    return json(200, {
      translations: (body.text as string[]).map((text) => ({
        detected_source_language: String(body.source_lang ?? 'EN').toUpperCase(),
        text: `${prefix}${text}`,
      })),
    });
  },

  reader(request, custom): Reply {
    const target = decodeURIComponent(request.path.slice(1));
    const text = custom.text ?? `Regulation text for ${target}.\n\nArticle 1\nThis Regulation applies from 1 July 2026.`;
    const title = `Page at ${new URL(target).pathname}`;
    return {
      status: 200,
      headers: { 'content-type': 'text/plain; charset=utf-8' },
      body: `Title: ${title}\n\nURL Source: ${target}\n\nMarkdown Content:\n${text}\n`,
    };
  },

  web(request, custom): Reply {
    const path = request.path;
    if (path === '/redirect') return { status: 302, headers: { location: '/page' }, body: '' };
    if (path === '/redirect-loop') return { status: 302, headers: { location: '/redirect-loop' }, body: '' };
    if (path === '/text')
      return { status: 200, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: custom.text ?? 'Plain text page.' };
    if (path === '/pdf') return { status: 200, headers: { 'content-type': 'application/pdf' }, body: '%PDF-1.7 fake' };
    if (path === '/' || path === '/page') {
      const paragraph = custom.text ?? 'The final rules apply from 1 July 2026 &amp; replace the interim regime.';
      return {
        status: 200,
        headers: { 'content-type': 'text/html; charset=utf-8' },
        body: `<!doctype html><html><head><title>Final rules &ndash; Regulator</title><style>body{color:red}</style><script>var secret = "<p>not text</p>";</script></head><body><nav>Home</nav><!-- hidden comment --><h1>Final rules</h1><p>${paragraph}</p><ul><li>First</li><li>Second</li></ul></body></html>`,
      };
    }
    return {
      status: 404,
      headers: { 'content-type': 'text/html' },
      body: '<html><head><title>Not found</title></head><body>Not found</body></html>',
    };
  },
};
