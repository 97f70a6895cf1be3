/**
 * The review log beside each calendar file (data/calendar/review/<code>.json): for every entry, the searches whose
 * results showed its sources, or the permanent address scheme a source was built from, and what each states. It is
 * maintenance data: the check reads it, the service never does, and nothing of it reaches a snapshot.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import Ajv from 'ajv';
import type { CalendarEntry, CalendarProblem } from '../../src/engine/calendar/calendar.types';
import { URL_SCHEMES, isEnglishVariant, normaliseUrl } from './citation-rules';

export interface ReviewCheck {
  /** The search query whose results showed `urls`. */
  query?: string;
  corpus?: 'pages' | 'docs' | 'issues' | 'code';
  /** Or the permanent address scheme `urls` were built from (a key of URL_SCHEMES). */
  scheme?: string;
  urls: string[];
  /** The url the search showed, when `urls` hold its English-locale variant (same path, locale segment en or none). */
  variant_of?: string;
  /** What the result or document states, with the dates it gives. */
  finding: string;
}

export interface EntryReview {
  id: string;
  reviewed_on: string;
  checks: ReviewCheck[];
  /** Why the entry cites no official source; listed in the calendar report. */
  official_source_exception?: string;
}

export interface ReviewLogFile {
  jurisdiction: string;
  reviews: EntryReview[];
}

export const REVIEW_DIR = 'review';

let validator: ReturnType<Ajv['compile']> | undefined;

function validate(schemaPath: string, data: unknown): string[] {
  validator ??= new Ajv({ allErrors: true, strict: false }).compile(JSON.parse(fs.readFileSync(schemaPath, 'utf8')) as object);
  if (validator(data)) return [];
  return (validator.errors ?? []).map((e) => `review log schema: ${e.instancePath || '/'} ${e.message ?? 'is invalid'}`);
}

/** The review log of calendar file `file` in `dir` (null when there is none), with its schema problems. */
export function readReviewLog(dir: string, file: string, schemaPath: string): { log: ReviewLogFile | null; problems: CalendarProblem[] } {
  const where = path.join(dir, REVIEW_DIR, file);
  const logFile = `${REVIEW_DIR}/${file}`;
  if (!fs.existsSync(where)) return { log: null, problems: [{ file: logFile, message: 'review log missing' }] };
  let data: unknown;
  try {
    data = JSON.parse(fs.readFileSync(where, 'utf8'));
  } catch (err) {
    return { log: null, problems: [{ file: logFile, message: `invalid JSON: ${(err as Error).message}` }] };
  }
  const messages = validate(schemaPath, data);
  if (messages.length > 0) return { log: null, problems: messages.map((message) => ({ file: logFile, message })) };
  return { log: data as ReviewLogFile, problems: [] };
}

/**
 * Rules tying a file's entries to its review log: every entry reviewed on its `reviewed_on`, every source url shown by
 * a recorded search or built from a named scheme that it follows, no review of an entry that does not exist.
 */
export function reviewProblems(file: string, entries: readonly CalendarEntry[], log: ReviewLogFile): CalendarProblem[] {
  const problems: CalendarProblem[] = [];
  const logFile = `${REVIEW_DIR}/${file}`;
  const byId = new Map<string, EntryReview>();
  for (const review of log.reviews) {
    if (byId.has(review.id)) problems.push({ file: logFile, entryId: review.id, message: 'reviewed twice' });
    byId.set(review.id, review);
  }
  const ids = new Set(entries.map((e) => e.id));
  for (const review of log.reviews) {
    if (!ids.has(review.id)) problems.push({ file: logFile, entryId: review.id, message: 'review of an entry that is not in the calendar' });
    for (const check of review.checks) {
      if (check.variant_of) {
        for (const url of check.urls) {
          if (!isEnglishVariant(url, check.variant_of)) {
            problems.push({ file: logFile, entryId: review.id, message: `${url} is not the English variant of ${check.variant_of}` });
          }
        }
      }
      if (!check.scheme) continue;
      const scheme = URL_SCHEMES[check.scheme];
      if (!scheme) {
        problems.push({ file: logFile, entryId: review.id, message: `unknown scheme '${check.scheme}' (${Object.keys(URL_SCHEMES).join(', ')})` });
        continue;
      }
      for (const url of check.urls) {
        if (!scheme.pattern.test(url)) problems.push({ file: logFile, entryId: review.id, message: `${url} does not follow the ${check.scheme} scheme` });
      }
    }
  }
  for (const entry of entries) {
    const push = (message: string) => problems.push({ file, entryId: entry.id, message });
    const review = byId.get(entry.id);
    if (!review) {
      push(`no review in ${logFile}: record the searches or schemes behind its sources`);
      continue;
    }
    if (review.reviewed_on !== entry.reviewed_on) push(`reviewed_on ${entry.reviewed_on} differs from its review log (${review.reviewed_on})`);
    // A result may show the http or www form of the address the entry cites over https.
    const shown = new Set(review.checks.flatMap((c) => c.urls.map(normaliseUrl)));
    for (const source of entry.sources) {
      if (!shown.has(normaliseUrl(source.url))) push(`source ${source.url}: no search result or scheme in ${logFile} shows it`);
    }
    const official = entry.sources.some((s) => (s.kind ?? 'official') === 'official');
    if (!official && !review.official_source_exception) {
      push(`no official source: cite the regulator, legislature or official journal, or record official_source_exception in ${logFile}`);
    }
    if (official && review.official_source_exception) push('official_source_exception recorded, but an official source is cited');
  }
  return problems;
}
