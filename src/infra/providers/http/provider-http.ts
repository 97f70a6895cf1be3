import { ProviderFailure, ProviderTransientError } from '../provider-errors';

export const DEFAULT_TIMEOUT_MS = 60_000;

export interface AdapterOptions {
  apiKey: string;
  /** Overrides the vendor's public base URL (tests point it at a loopback fake). */
  baseUrl?: string;
  timeoutMs?: number;
}

export function trimBase(url: string): string {
  return url.replace(/\/+$/, '');
}

export function redact(text: string, secrets: readonly (string | undefined)[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret && secret.length >= 4) out = out.split(secret).join('[redacted]');
  }
  return out;
}

export interface TimedSignal {
  signal: AbortSignal;
  timeout: AbortSignal;
  caller?: AbortSignal;
  timeoutMs: number;
}

export function timedSignal(timeoutMs: number, caller?: AbortSignal): TimedSignal {
  const timeout = AbortSignal.timeout(timeoutMs);
  return { signal: caller ? AbortSignal.any([caller, timeout]) : timeout, timeout, caller, timeoutMs };
}

/** Maps an exception from fetch or from reading its body. A caller's own abort is passed through untouched. */
export function networkError(provider: string, error: unknown, timed: TimedSignal, secrets: readonly (string | undefined)[]): Error {
  if (timed.caller?.aborted) {
    const reason: unknown = timed.caller.reason;
    return reason instanceof Error ? reason : new Error(`${provider} request aborted`);
  }
  if (timed.timeout.aborted) {
    return new ProviderTransientError(`${provider} request timed out after ${Math.round(timed.timeoutMs / 100) / 10} s`, provider, null);
  }
  if (error instanceof ProviderTransientError || error instanceof ProviderFailure) return error;
  const cause = error instanceof Error ? ((error.cause as { code?: string; message?: string } | undefined) ?? error) : undefined;
  const detail = cause ? ((cause as { code?: string }).code ?? (cause as { message?: string }).message ?? '') : String(error);
  return new ProviderTransientError(redact(`${provider} network error${detail ? `: ${detail}` : ''}`, secrets), provider, null);
}

export function isTransientStatus(status: number): boolean {
  return status === 408 || status === 425 || status === 429 || status >= 500;
}

function retryAfterMs(header: string | null): number | null {
  if (!header) return null;
  if (/^\d+(\.\d+)?$/.test(header.trim())) return Math.round(Number(header) * 1000);
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}

/** Pulls the human-readable part out of the error shapes the six vendors use. */
export function errorDetail(body: string): string {
  let detail = body.trim();
  try {
    const parsed = JSON.parse(body) as unknown;
    const pick = (value: unknown): string | undefined => {
      if (typeof value === 'string') return value;
      if (value && typeof value === 'object') {
        const record = value as Record<string, unknown>;
        return pick(record.message) ?? pick(record.error) ?? pick(record.detail);
      }
      return undefined;
    };
    detail = pick(parsed) ?? detail;
  } catch {
    // Not JSON (proxies answer in HTML or plain text): keep the raw body.
  }
  detail = detail
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return detail.length > 300 ? `${detail.slice(0, 297)}...` : detail;
}

export interface HttpErrorContext {
  provider: string;
  status: number;
  body: string;
  headers: Headers;
  secrets: readonly (string | undefined)[];
  /** Environment variable to name when the key is rejected. */
  envKey?: string;
  /** What was asked for, e.g. `model gpt-5-mini`, to make 404s actionable. */
  subject?: string;
}

export function httpError(context: HttpErrorContext): Error {
  const { provider, status, secrets } = context;
  const detail = redact(errorDetail(context.body), secrets);
  const suffix = detail ? `: ${detail}` : '';
  if (isTransientStatus(status)) {
    return new ProviderTransientError(
      `${provider} HTTP ${status}${suffix}`,
      provider,
      status,
      retryAfterMs(context.headers.get('retry-after')),
    );
  }
  // Gemini answers a wrong key with 400 API_KEY_INVALID rather than 401.
  if (status === 401 || status === 403 || (status === 400 && /API_KEY_INVALID|api key not valid/i.test(context.body))) {
    const hint = context.envKey ? ` Check ${context.envKey}.` : '';
    return new ProviderFailure(`${provider} rejected the API key or its permissions (HTTP ${status})${suffix}.${hint}`, provider, status);
  }
  if (status === 404) {
    const subject = context.subject ? ` for ${context.subject}` : '';
    return new ProviderFailure(`${provider} returned HTTP 404${subject}${suffix}; check the model id and base URL.`, provider, status);
  }
  return new ProviderFailure(`${provider} rejected the request (HTTP ${status})${suffix}`, provider, status);
}

/** A request to a provider: a JSON body (if any), its credentials to redact from errors, a timeout. */
export interface ProviderRequest {
  provider: string;
  url: string;
  method?: 'GET' | 'POST';
  headers: Record<string, string>;
  /** Sent as JSON. */
  body?: unknown;
  timeoutMs: number;
  signal?: AbortSignal;
  secrets: readonly (string | undefined)[];
}

export interface JsonRequest extends ProviderRequest {
  /** The environment variable of the key, named when the provider refuses it. */
  envKey?: string;
  /** What was asked for (`model x`), named in a 404. */
  subject?: string;
  /** Most bytes of the body read (default JSON_BODY_MAX_BYTES); past it, BodyTooLargeError. */
  maxBytes?: number;
}

/** Room for the largest JSON a vendor sends: a base64 image of a full page is a few MB. */
export const JSON_BODY_MAX_BYTES = 32 * 1024 * 1024;

/** Sends a request with a JSON body (if any) under the request's timeout; network failures are mapped. */
async function send(
  request: ProviderRequest,
  accept: Record<string, string>,
  timed: TimedSignal,
): Promise<Response> {
  try {
    return await fetch(request.url, {
      method: request.method ?? 'POST',
      headers: {
        ...accept,
        ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...request.headers,
      },
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
      signal: timed.signal,
    });
  } catch (error) {
    throw networkError(request.provider, error, timed, request.secrets);
  }
}

export async function requestJson(request: JsonRequest): Promise<unknown> {
  const { provider, secrets } = request;
  const timed = timedSignal(request.timeoutMs, request.signal);
  const response = await send(request, { accept: 'application/json' }, timed);
  const maxBytes = request.maxBytes ?? JSON_BODY_MAX_BYTES;
  let body: { bytes: Uint8Array; truncated: boolean };
  try {
    body = await readLimited(response, maxBytes);
  } catch (error) {
    throw networkError(provider, error, timed, secrets);
  }
  if (body.truncated) {
    throw new BodyTooLargeError(`${provider} returned more than ${maxBytes} bytes (HTTP ${response.status})`, provider, response.status);
  }
  const text = Buffer.from(body.bytes.buffer, body.bytes.byteOffset, body.bytes.byteLength).toString('utf8');
  if (!response.ok) {
    throw httpError({
      provider,
      status: response.status,
      body: text,
      headers: response.headers,
      secrets,
      envKey: request.envKey,
      subject: request.subject,
    });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ProviderFailure(`${provider} returned a body that is not valid JSON (HTTP ${response.status})`, provider, response.status);
  }
}

/** Thrown by adapters when a 2xx body lacks the fields the vendor documents. */
/** requestJson for APIs that always answer a JSON object. */
export async function requestJsonObject(request: JsonRequest): Promise<Record<string, unknown>> {
  const record = asRecord(await requestJson(request));
  if (!record) throw malformed(request.provider, 'expected a JSON object');
  return record;
}

export function malformed(provider: string, what: string): ProviderFailure {
  return new ProviderFailure(`${provider} returned a malformed response: ${what}`, provider, null);
}

export function asRecord(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

export function asArray(value: unknown): unknown[] | undefined {
  return Array.isArray(value) ? value : undefined;
}

export function asCount(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0;
}

export const JSON_INSTRUCTION = 'Reply with a single valid JSON object and nothing else: no prose, no code fences.';

export function withJsonInstruction(system: string | undefined, json: boolean | undefined): string | undefined {
  if (!json) return system;
  return system ? `${system}\n\n${JSON_INSTRUCTION}` : JSON_INSTRUCTION;
}

/** Reads at most `maxBytes` of a body and drops the rest; `truncated` says whether anything was dropped. */
export async function readLimited(response: Response, maxBytes: number): Promise<{ bytes: Uint8Array; truncated: boolean }> {
  if (!response.body) return { bytes: new Uint8Array(0), truncated: false };
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  let truncated = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (total + value.byteLength > maxBytes) {
      chunks.push(value.subarray(0, maxBytes - total));
      total = maxBytes;
      truncated = true;
      await reader.cancel().catch(() => undefined);
      break;
    }
    chunks.push(value);
    total += value.byteLength;
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { bytes, truncated };
}

export async function discardBody(response: Response): Promise<void> {
  await response.body?.cancel().catch(() => undefined);
}

/** Parses a page URL, accepting only http and https. */
export function parsePageUrl(provider: string, url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ProviderFailure(`${provider}: not a valid URL: ${url.slice(0, 200)}`, provider, null);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new ProviderFailure(`${provider}: only http and https URLs can be fetched, got ${parsed.protocol}`, provider, null);
  }
  return parsed;
}

/**
 * A binary response (audio, video, documents) with the same error mapping as requestJson, except that 401 / 403
 * carry `authMessage` (never the key). At most `maxBytes` are read.
 */
export interface BytesRequest extends ProviderRequest {
  /** Message for 401 / 403, e.g. "the voice integration rejected its API key". */
  authMessage: string;
  maxBytes: number;
}

export interface BytesResponse {
  bytes: Buffer;
  /** Lower-cased media type without parameters ('' when absent). */
  contentType: string;
  status: number;
}

/** Thrown when the body exceeds `maxBytes`. */
export class BodyTooLargeError extends ProviderFailure {}

export async function requestBytes(request: BytesRequest): Promise<BytesResponse> {
  const { provider, secrets } = request;
  const timed = timedSignal(request.timeoutMs, request.signal);
  const response = await send(request, {}, timed);
  if (!response.ok) {
    let text = '';
    try {
      const { bytes } = await readLimited(response, 64 * 1024);
      text = Buffer.from(bytes).toString('utf8');
    } catch (error) {
      throw networkError(provider, error, timed, secrets);
    }
    if (response.status === 401 || response.status === 403) {
      throw new ProviderFailure(`${request.authMessage} (HTTP ${response.status})`, provider, response.status);
    }
    throw httpError({ provider, status: response.status, body: text, headers: response.headers, secrets });
  }
  let body: { bytes: Uint8Array; truncated: boolean };
  try {
    body = await readLimited(response, request.maxBytes);
  } catch (error) {
    throw networkError(provider, error, timed, secrets);
  }
  if (body.truncated) {
    throw new BodyTooLargeError(redact(`${provider} returned more than ${request.maxBytes} bytes`, secrets), provider, response.status);
  }
  const contentType = (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  return { bytes: Buffer.from(body.bytes.buffer, body.bytes.byteOffset, body.bytes.byteLength), contentType, status: response.status };
}
