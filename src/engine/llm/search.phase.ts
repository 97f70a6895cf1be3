import { EngineFailure } from '../../domain/failures';
import type { ResolvedScanConfig } from '../../domain/scan-config.types';
import { ProviderTransientError } from '../../infra/providers/provider-errors';
import type { SearchPort, SearchResult } from '../../infra/providers/ports';
import { count, truncate } from '../analysis/text';
import type { LlmSession } from './llm-session';
import { asIsoDate } from './parse';
import type { NumberedSource } from './prompts';
import type { SourceBook } from './source-book';
import { hostOf, isHttpUrl } from './web-urls';

/** Caps (kept small: each query costs time and money). */
export const MAX_SEARCH_QUERIES = 8;
export const RESULTS_PER_QUERY = 5;
export const MAX_WEB_SOURCES = 24;

export interface SearchRole {
  port: SearchPort;
  modelId?: string;
  vendorModel?: string;
}

export interface SearchOutcome {
  queries: number;
  webSources: NumberedSource[];
  errors: string[];
  /** The progress message of the phase. */
  message: string;
}

/**
 * One query per jurisdiction x area (up to MAX_SEARCH_QUERIES); new http(s) results join the source book. A
 * transient failure retries the job; a permanent one loses that query only.
 */
export async function searchPhase(
  session: LlmSession,
  search: SearchRole | undefined,
  config: ResolvedScanConfig,
  window: { scanDate: string; windowEnd: string },
  book: SourceBook,
): Promise<SearchOutcome> {
  const errors: string[] = [];
  const webSources: NumberedSource[] = [];
  let queries = 0;
  if (!search) {
    return { queries, webSources, errors, message: 'No search provider: the analysis is grounded in the regulatory calendar' };
  }
  const year = window.scanDate.slice(0, 4);
  const years = window.windowEnd.slice(0, 4) === year ? year : `${year}-${window.windowEnd.slice(0, 4)}`;
  const planned: string[] = [];
  for (const jurisdiction of config.jurisdictions) {
    for (const area of config.areas) planned.push(`${area} regulation ${jurisdiction} upcoming deadlines ${years}`);
  }
  for (const query of planned.slice(0, MAX_SEARCH_QUERIES)) {
    session.signal?.throwIfAborted();
    let results: SearchResult[];
    try {
      const response = await search.port.search(query, { maxResults: RESULTS_PER_QUERY, model: search.vendorModel }, session.signal);
      session.charge(search.modelId, response.usage);
      results = response.results;
    } catch (error) {
      if (error instanceof ProviderTransientError || !(error instanceof EngineFailure)) throw error;
      errors.push(error.message);
      continue;
    } finally {
      queries++;
    }
    for (const result of results) {
      if (webSources.length >= MAX_WEB_SOURCES) break;
      if (!isHttpUrl(result.url) || book.has(result.url)) continue;
      webSources.push(
        book.add({
          url: result.url,
          title: result.title || hostOf(result.url),
          publisher: hostOf(result.url),
          publishedAt: asIsoDate(result.publishedAt) ?? null,
          snippet: truncate(result.snippet ?? '', 400),
        }),
      );
    }
  }
  if (queries > 0 && errors.length === queries) session.notes.push('every search query failed; the analysis used the calendar only');
  const message = `Ran ${count(queries, 'search query', 'search queries')} with ${search.port.provider}: ${count(webSources.length, 'web source')}`;
  return { queries, webSources, errors, message };
}
