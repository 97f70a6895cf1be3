/**
 * Test helper: a loopback fake of a self-hosted model server speaking the Chat Completions API, the way vLLM, Ollama
 * and LM Studio serve it under `/v1`, or the way Azure OpenAI serves it (deployment in the path, `api-version`
 * query, `api-key` header). It checks what the real servers check and records every request.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { recordRequest, type RecordedRequest } from './recorded-request';

export interface FakeOpenAiCompatibleOptions {
  style?: 'openai' | 'azure';
  /** The models served (azure: the deployment names); any other gets the server's 404. */
  models: string[];
  /** Required key (Bearer, or azure's api-key header); undefined: the server takes none, as local servers do. */
  apiKey?: string;
  /** Azure: the api-version the resource accepts. */
  apiVersion?: string;
  /** Answer `response_format: {type: "json_object"}` with a 400, as LM Studio does. */
  refuseJsonMode?: boolean;
  /** Leave `usage` out of replies, as some local servers do. */
  omitUsage?: boolean;
}

/** The assistant text for a request; undefined: a JSON echo of the last user message. */
export type FakeChatHandler = (request: RecordedRequest) => string | undefined;

export interface FakeOpenAiCompatible {
  /** What OPENAI_COMPATIBLE_BASE_URL is set to: `.../v1` (openai style) or the resource root (azure). */
  baseUrl: string;
  requests: RecordedRequest[];
  /** Every reply sent, with its request, the assistant text and the usage it reported (null when omitted). */
  replies: Array<{
    request: RecordedRequest;
    status: number;
    text: string | null;
    usage: { prompt_tokens: number; completion_tokens: number } | null;
  }>;
  close(): Promise<void>;
}

/** Whitespace-separated words and punctuation runs: near enough to a tokenizer for usage figures. */
const tokens = (text: string) => (text.match(/\w+|[^\s\w]+/g) ?? []).length;

export async function startFakeOpenAiCompatible(options: FakeOpenAiCompatibleOptions, handler: FakeChatHandler = () => undefined): Promise<FakeOpenAiCompatible> {
  const style = options.style ?? 'openai';
  const requests: RecordedRequest[] = [];
  const replies: FakeOpenAiCompatible['replies'] = [];

  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const serve = async (req: IncomingMessage, res: ServerResponse) => {
    const request = await recordRequest(req);
    requests.push(request);
    const fail = (status: number, body: unknown) => {
      replies.push({ request, status, text: null, usage: null });
      send(res, status, body);
    };
    const url = new URL(request.path, 'http://fake');
    let model: string;
    if (style === 'azure') {
      const match = /^\/openai\/deployments\/([^/]+)\/chat\/completions$/.exec(url.pathname);
      if (!match || request.method !== 'POST') return fail(404, { error: { code: '404', message: 'Resource not found' } });
      if (url.searchParams.get('api-version') !== (options.apiVersion ?? '2024-10-21')) {
        return fail(404, { error: { code: '404', message: 'Resource not found' } });
      }
      if (request.headers['api-key'] !== options.apiKey) {
        return fail(401, {
          error: { code: '401', message: 'Access denied due to invalid subscription key or wrong API endpoint.' },
        });
      }
      model = decodeURIComponent(match[1]);
      if (!options.models.includes(model)) {
        return fail(404, { error: { code: 'DeploymentNotFound', message: 'The API deployment for this resource does not exist.' } });
      }
    } else {
      if (url.pathname !== '/v1/chat/completions' || request.method !== 'POST') {
        return fail(404, { error: { message: `Not Found: ${request.method} ${url.pathname}`, type: 'NotFoundError', code: 404 } });
      }
      if (options.apiKey !== undefined && request.headers.authorization !== `Bearer ${options.apiKey}`) {
        return fail(401, { error: { message: 'Invalid API key', type: 'AuthenticationError', code: 401 } });
      }
      model = String((request.body as { model?: unknown } | undefined)?.model ?? '');
      if (!options.models.includes(model)) {
        return fail(404, { error: { message: `The model \`${model}\` does not exist.`, type: 'NotFoundError', code: 404 } });
      }
    }
    const body = request.body as { messages?: unknown; response_format?: { type?: string }; max_tokens?: unknown } | undefined;
    const messages = Array.isArray(body?.messages) ? (body.messages as Array<{ role?: unknown; content?: unknown }>) : [];
    const wellFormed = messages.length > 0 && messages.every((m) => typeof m.role === 'string' && typeof m.content === 'string');
    if (!request.headers['content-type']?.startsWith('application/json') || !wellFormed) {
      return fail(400, { error: { message: 'messages: a non-empty list of {role, content} is required', type: 'BadRequestError', code: 400 } });
    }
    if (body?.max_tokens !== undefined && (typeof body.max_tokens !== 'number' || body.max_tokens < 1)) {
      return fail(400, { error: { message: 'max_tokens must be a positive integer', type: 'BadRequestError', code: 400 } });
    }
    if (body?.response_format !== undefined && options.refuseJsonMode) {
      return fail(400, { error: "'response_format.type' must be 'json_schema' or 'text'" });
    }
    const lastUser = [...messages].reverse().find((m) => m.role === 'user')?.content as string;
    const text = handler(request) ?? JSON.stringify({ echo: lastUser });
    const usage = options.omitUsage
      ? null
      : { prompt_tokens: tokens(messages.map((m) => m.content).join('\n')), completion_tokens: tokens(text) };
    replies.push({ request, status: 200, text, usage });
    send(res, 200, {
      id: 'chatcmpl-fake-self-hosted',
      object: 'chat.completion',
      created: 1735689600,
      model,
      choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop', logprobs: null }],
      ...(usage ? { usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens } } : {}),
    });
  };

  const server = createServer((req, res) => {
    serve(req, res).catch((error: unknown) => send(res, 500, { error: { message: String(error) } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const root = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl: style === 'azure' ? root : `${root}/v1`,
    requests,
    replies,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
