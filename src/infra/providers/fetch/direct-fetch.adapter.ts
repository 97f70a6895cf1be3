import { fetch, type Dispatcher } from 'undici';
import { DEFAULT_TIMEOUT_MS, discardBody, networkError, parsePageUrl, readLimited, timedSignal } from '../http/provider-http';
import { htmlToText } from './html-text';
import { createPageDispatcher, RefusedAddressError, type AddressPolicy, type Resolve } from '../http/page-dispatcher';
import type { FetchPort, FetchedPage } from '../ports';
import { nonPublicHostReason } from '../http/public-address';
import { ProviderFailure, ProviderTransientError } from '../provider-errors';

export const FETCH_MAX_BYTES = 2 * 1024 * 1024;
const MAX_REDIRECTS = 5;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const USER_AGENT = 'Mozilla/5.0 (compatible; RegScanBot/1.0; +https://example.invalid/bot)';

export interface DirectFetchOptions {
  timeoutMs?: number;
  maxBytes?: number;
  /**
   * Allows every address. Off in production so page URLs taken from search results cannot reach internal services
   * or cloud metadata endpoints (see public-address.ts); tests turn it on for their loopback fakes.
   */
  allowPrivateNetwork?: boolean;
  /** Egress proxy (FETCH_PROXY_URL). The proxy resolves names, so only literal addresses in URLs are refused here. */
  proxyUrl?: string;
  /** Name resolution; default dns.lookup. */
  resolve?: Resolve;
  /** Which resolved addresses are refused; default: all but public unicast. */
  refuseAddress?: AddressPolicy;
  userAgent?: string;
}

/** fetch-a: a direct HTTP GET of the page, redirects followed hop by hop, HTML reduced to text. */
export class DirectFetchAdapter implements FetchPort {
  readonly provider = 'fetch-a';

  private readonly dispatcher: Dispatcher;

  constructor(private readonly options: DirectFetchOptions = {}) {
    this.dispatcher = createPageDispatcher({
      proxyUrl: options.proxyUrl,
      resolve: options.resolve,
      refuseAddress: options.allowPrivateNetwork ? () => null : options.refuseAddress,
    });
  }

  async fetch(url: string, signal?: AbortSignal): Promise<FetchedPage> {
    let current = parsePageUrl(this.provider, url);
    const timed = timedSignal(this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS, signal);
    for (let hop = 0; ; hop += 1) {
      this.assertAllowed(current);
      let response: Response;
      try {
        response = await fetch(current, {
          dispatcher: this.dispatcher,
          redirect: 'manual',
          headers: {
            accept: 'text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.5',
            'accept-language': 'en',
            'user-agent': this.options.userAgent ?? USER_AGENT,
          },
          signal: timed.signal,
        });
      } catch (error) {
        const refused = [error, error instanceof Error ? error.cause : undefined].find((e) => e instanceof RefusedAddressError);
        throw refused ? this.refusal(refused.hostname, refused.reason) : networkError(this.provider, error, timed, []);
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
    const reason = this.options.allowPrivateNetwork ? null : nonPublicHostReason(url.hostname);
    if (reason) throw this.refusal(url.hostname, `not a public address (${reason})`);
  }

  private refusal(host: string, reason: string): ProviderFailure {
    return new ProviderFailure(`${this.provider}: refusing to fetch ${host}: ${reason}`, this.provider, null);
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
