import { isIP } from 'node:net';
import {
  DEFAULT_TIMEOUT_MS,
  ProviderFailure,
  ProviderTransientError,
  discardBody,
  networkError,
  parsePageUrl,
  readLimited,
  timedSignal,
} from './http';
import { htmlToText } from './html-text';
import type { FetchPort, FetchedPage } from './ports';

export const FETCH_MAX_BYTES = 2 * 1024 * 1024;
const MAX_REDIRECTS = 5;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const USER_AGENT = 'Mozilla/5.0 (compatible; RegScanBot/1.0; +https://example.invalid/bot)';

export interface DirectFetchOptions {
  timeoutMs?: number;
  maxBytes?: number;
  /**
   * Allows loopback, private and link-local hosts. Off in production so page URLs taken from search results cannot
   * reach internal services or cloud metadata endpoints; tests turn it on for their loopback fakes. Only literal
   * addresses and `localhost` are checked (no DNS resolution).
   */
  allowPrivateNetwork?: boolean;
  userAgent?: string;
}

/** fetch-a: a direct HTTP GET of the page, redirects followed hop by hop, HTML reduced to text. */
export class DirectFetchAdapter implements FetchPort {
  readonly provider = 'fetch-a';

  constructor(private readonly options: DirectFetchOptions = {}) {}

  async fetch(url: string, signal?: AbortSignal): Promise<FetchedPage> {
    let current = parsePageUrl(this.provider, url);
    const timed = timedSignal(this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS, signal);
    for (let hop = 0; ; hop += 1) {
      this.assertAllowed(current);
      let response: Response;
      try {
        response = await fetch(current, {
          redirect: 'manual',
          headers: {
            accept: 'text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.5',
            'accept-language': 'en',
            'user-agent': this.options.userAgent ?? USER_AGENT,
          },
          signal: timed.signal,
        });
      } catch (error) {
        throw networkError(this.provider, error, timed, []);
      }
      const location = response.headers.get('location');
      if (REDIRECT_STATUSES.has(response.status) && location) {
        await discardBody(response);
        if (hop >= MAX_REDIRECTS)
          throw new ProviderFailure(`${this.provider}: more than ${MAX_REDIRECTS} redirects from ${url}`, this.provider, response.status);
        current = parsePageUrl(this.provider, new URL(location, current).toString());
        continue;
      }
      if (response.status === 429 || response.status >= 500) {
        await discardBody(response);
        throw new ProviderTransientError(`${this.provider} HTTP ${response.status} from ${current.host}`, this.provider, response.status);
      }
      const finalUrl = current.toString();
      const contentType = (response.headers.get('content-type') ?? '').toLowerCase();
      if (!response.ok || !isTextual(contentType)) {
        await discardBody(response);
        return { url: finalUrl, status: response.status, title: null, text: '' };
      }
      let bytes: Uint8Array;
      try {
        ({ bytes } = await readLimited(response, this.options.maxBytes ?? FETCH_MAX_BYTES));
      } catch (error) {
        throw networkError(this.provider, error, timed, []);
      }
      const body = decode(bytes, contentType);
      if (isHtml(contentType, body)) return { url: finalUrl, status: response.status, ...htmlToText(body) };
      return { url: finalUrl, status: response.status, title: null, text: body.trim() };
    }
  }

  private assertAllowed(url: URL): void {
    if (this.options.allowPrivateNetwork || !isPrivateHost(url.hostname)) return;
    throw new ProviderFailure(`${this.provider}: refusing to fetch a private or loopback address (${url.hostname})`, this.provider, null);
  }
}

function isTextual(contentType: string): boolean {
  if (contentType === '') return true;
  return /^(text\/|application\/(xhtml\+xml|xml|json|ld\+json|rss\+xml|atom\+xml)\b)/.test(contentType);
}

function isHtml(contentType: string, body: string): boolean {
  if (contentType.startsWith('text/html') || contentType.startsWith('application/xhtml')) return true;
  return contentType === '' && /^\s*(<!doctype html|<html\b)/i.test(body.slice(0, 1024));
}

function decode(bytes: Uint8Array, contentType: string): string {
  const declared = /charset=["']?([\w.:-]+)/i.exec(contentType)?.[1];
  const sniffed =
    declared ?? /<meta[^<>]{0,200}charset=["']?([\w.:-]+)/i.exec(Buffer.from(bytes.subarray(0, 2048)).toString('latin1'))?.[1];
  try {
    return new TextDecoder(sniffed ?? 'utf-8').decode(bytes);
  } catch {
    return new TextDecoder('utf-8').decode(bytes);
  }
}

export function isPrivateHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.internal')) return true;
  if (isIP(host) === 4) {
    const [a, b] = host.split('.').map(Number);
    return (
      a === 0 ||
      a === 10 ||
      a === 127 ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      (a === 100 && b >= 64 && b <= 127)
    );
  }
  if (isIP(host) === 6) {
    if (host === '::1' || host === '::') return true;
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(host);
    if (mapped) return isPrivateHost(mapped[1]);
    return /^(fc|fd|fe8|fe9|fea|feb)/.test(host);
  }
  return false;
}
