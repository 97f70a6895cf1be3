import { DEFAULT_TIMEOUT_MS, discardBody, errorDetail, networkError, parsePageUrl, readLimited, redact, timedSignal, trimBase } from '../http/provider-http';
import { FETCH_MAX_BYTES } from './direct-fetch.adapter';
import type { FetchPort, FetchedPage } from '../ports';
import { ProviderFailure, ProviderTransientError } from '../provider-errors';

export const READER_BASE_URL = 'https://r.jina.ai';

export interface ReaderFetchOptions {
  /** Optional: the reader service's base URL (not part of the app config); defaults to the public reader. */
  baseUrl?: string;
  /** Optional: sent as a Bearer token when set (the public reader works without one, at a lower rate limit). */
  apiKey?: string;
  timeoutMs?: number;
  maxBytes?: number;
}

/**
 * fetch-b: a "reader" proxy that fetches and renders the page itself: GET {base}/{url} answers plain text or markdown,
 * optionally preceded by `Title:` / `URL Source:` header lines and a `Markdown Content:` line.
 */
export class ReaderFetchAdapter implements FetchPort {
  readonly provider = 'fetch-b';
  private readonly baseUrl: string;

  constructor(private readonly options: ReaderFetchOptions = {}) {
    this.baseUrl = trimBase(options.baseUrl ?? READER_BASE_URL);
  }

  async fetch(url: string, signal?: AbortSignal): Promise<FetchedPage> {
    const target = parsePageUrl(this.provider, url).toString();
    const timed = timedSignal(this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS, signal);
    const secrets = [this.options.apiKey];
    let response: Response;
    let body: string;
    try {
      response = await fetch(`${this.baseUrl}/${target}`, {
        headers: {
          accept: 'text/plain, text/markdown;q=0.9',
          ...(this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {}),
        },
        signal: timed.signal,
      });
      if (response.status === 429 || response.status >= 500 || response.status === 401 || response.status === 403) {
        const detail = redact(errorDetail(await response.text()), secrets);
        const message = `${this.provider} HTTP ${response.status}${detail ? `: ${detail}` : ''}`;
        if (response.status === 401 || response.status === 403)
          throw new ProviderFailure(`${message}; check the reader API key`, this.provider, response.status);
        throw new ProviderTransientError(message, this.provider, response.status);
      }
      if (!response.ok) {
        await discardBody(response);
        return { url: target, status: response.status, title: null, text: '' };
      }
      const { bytes } = await readLimited(response, this.options.maxBytes ?? FETCH_MAX_BYTES);
      body = new TextDecoder('utf-8').decode(bytes);
    } catch (error) {
      throw networkError(this.provider, error, timed, secrets);
    }
    return { status: response.status, ...parseReaderText(body, target) };
  }
}

export function parseReaderText(body: string, requested: string): { url: string; title: string | null; text: string } {
  const lines = body.replace(/\r\n/g, '\n').split('\n');
  let title: string | null = null;
  let url = requested;
  let start = 0;
  for (let index = 0; index < Math.min(lines.length, 20); index += 1) {
    const line = lines[index];
    const header = /^(Title|URL Source|Published Time|Markdown Content|Warning):\s?(.*)$/.exec(line);
    if (!header) {
      if (line.trim() === '') continue;
      break;
    }
    if (header[1] === 'Title') title = header[2].trim() || null;
    if (header[1] === 'URL Source' && /^https?:\/\//.test(header[2].trim())) url = header[2].trim();
    start = index + 1;
    if (header[1] === 'Markdown Content') break;
  }
  return { url, title, text: lines.slice(start).join('\n').trim() };
}
