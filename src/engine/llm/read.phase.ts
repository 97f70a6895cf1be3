import type { FetchPort } from '../../infra/providers/ports';
import { count, truncate } from '../analysis/text';
import type { NumberedSource } from './prompts';
import { hostOf } from './web-urls';

/** Caps (kept small: each page read costs time). */
export const MAX_PAGE_READS = 5;
export const EXCERPT_CHARS = 1200;

export interface ReadOutcome {
  pagesRead: number;
  errors: string[];
  message: string;
}

/** Reads the first web sources' pages and keeps an excerpt of each as evidence for the analyst. */
export async function readPhase(
  fetch: FetchPort | undefined,
  webSources: readonly NumberedSource[],
  signal?: AbortSignal,
): Promise<ReadOutcome> {
  let pagesRead = 0;
  const errors: string[] = [];
  if (!fetch) return { pagesRead, errors, message: 'No page reads configured' };
  if (webSources.length === 0) return { pagesRead, errors, message: 'No web source to read' };
  const attempted = webSources.slice(0, MAX_PAGE_READS);
  for (const source of attempted) {
    signal?.throwIfAborted();
    try {
      const page = await fetch.fetch(source.url, signal);
      const text = page.text.replace(/\s+/g, ' ').trim();
      if (text) {
        source.excerpt = truncate(text, EXCERPT_CHARS);
        pagesRead++;
      } else {
        errors.push(`${source.url}: ${page.status >= 200 && page.status < 300 ? 'no readable text' : `HTTP ${page.status}`}`);
      }
      if (page.title && (source.title === hostOf(source.url) || !source.title)) source.title = page.title;
    } catch (error) {
      if (signal?.aborted) throw error;
      errors.push(`${source.url}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return {
    pagesRead,
    errors,
    message: `Read ${pagesRead} of ${count(attempted.length, 'web source page')} through ${fetch.provider}${errors.length ? ` (${errors.length} unreadable)` : ''}`,
  };
}
