import type { FetchPort } from '../../infra/providers/ports';
import type { SnapshotItem, VerifiedPage } from '../envelope.types';
import { truncate } from '../analysis/text';

/** Bounds of the final QA page reads: pages per scan, text kept per page for the models, time per page, reads at once. */
export const MAX_VERIFY_PAGES = 12;
export const VERIFY_PAGE_CHARS = 3000;
export const VERIFY_PAGE_TIMEOUT_MS = 20_000;
const PARALLEL_READS = 3;

export interface PageRead extends VerifiedPage {
  /** The page text (at most VERIFY_PAGE_CHARS), when it was read. */
  text?: string;
  title?: string | null;
}

/**
 * Reads the pages the items cite, in item rank order, each URL once and at most MAX_VERIFY_PAGES. A page that
 * cannot be read (refused address, HTTP error, timeout, no text) is recorded as `unreachable` with the reason: it
 * leaves its items unverified and never fails the scan. Only the scan's own cancellation propagates.
 */
export async function readCitedPages(
  fetch: FetchPort,
  items: readonly SnapshotItem[],
  signal?: AbortSignal,
): Promise<Map<string, PageRead>> {
  const urls = [...new Set(items.flatMap((item) => item.citations.map((c) => c.url)))];
  const reads = new Map<string, PageRead>();
  for (const url of urls.slice(MAX_VERIFY_PAGES)) {
    reads.set(url, { url, outcome: 'not_read', detail: `Not read: over the limit of ${MAX_VERIFY_PAGES} pages per scan.` });
  }
  const queue = urls.slice(0, MAX_VERIFY_PAGES);
  const worker = async () => {
    for (let url = queue.shift(); url !== undefined; url = queue.shift()) reads.set(url, await readOne(fetch, url, signal));
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL_READS, queue.length) }, worker));
  return reads;
}

async function readOne(fetch: FetchPort, url: string, signal?: AbortSignal): Promise<PageRead> {
  signal?.throwIfAborted();
  const timeout = AbortSignal.timeout(VERIFY_PAGE_TIMEOUT_MS);
  try {
    const page = await fetch.fetch(url, signal ? AbortSignal.any([signal, timeout]) : timeout);
    if (page.status < 200 || page.status >= 300) return { url, outcome: 'unreachable', detail: `HTTP ${page.status}.` };
    const text = page.text.replace(/\s+/g, ' ').trim();
    if (!text) return { url, outcome: 'unreachable', detail: 'The page has no readable text.' };
    return { url, outcome: 'read', detail: `Read ${text.length} characters.`, text: truncate(text, VERIFY_PAGE_CHARS), title: page.title };
  } catch (error) {
    if (signal?.aborted) throw error;
    const reason = timeout.aborted
      ? `no answer within ${VERIFY_PAGE_TIMEOUT_MS / 1000} s`
      : error instanceof Error
        ? error.message
        : String(error);
    return { url, outcome: 'unreachable', detail: `${reason.replace(/\.$/, '')}.` };
  }
}

/** The public record of a read (the text stays private). */
export function publicPage(read: PageRead): VerifiedPage {
  return { url: read.url, outcome: read.outcome, detail: read.detail };
}
