/**
 * Regulatory calendar check: validates data/calendar/*.json with their review logs, enforces citation quality,
 * freshness and coverage, prints the jurisdiction x area matrix and lists entries that need a refresh.
 *
 *   node dist/scripts/calendar-check.js [--dir <calendar dir>] [--only <code>] [--today YYYY-MM-DD] [--max-age <days>]
 *                                       [--write-report] [--report <path>]
 *
 * Exit code 1 when the data is invalid (schema, cross-file rules or a rule below), 2 on a bad argument, 3 when it is
 * valid but a coverage target is not met (TARGET lines), 0 otherwise (stale entries and milestones inside the grace
 * period are warnings). The schema (applied by the loader at service
 * start) holds the plain facts about one field; the rules here need judgement, the review log or the whole calendar,
 * so a false alarm fails this check, never the service. docs/calendar.md explains every rule.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { CalendarEntry, CalendarFile, CalendarProblem, Milestone } from '../src/engine/calendar/calendar.types';
import { addMonths, daysBetween } from '../src/engine/analysis/dates';
import { defaultCalendarDir, findProjectRoot, formatProblem, readCalendarFiles } from '../src/engine/calendar/calendar.loader';
import { NEWS_HOSTS, foreignLocale, landingPageReason, normaliseUrl, publishedOn } from './calendar/citation-rules';
import { calendarShortfalls, coverageOf, jurisdictionCoverage, matrixLines } from './calendar/coverage';
import { REPORT_PATH, renderReport } from './calendar/report';
import { type ReviewLogFile, readReviewLog, reviewProblems } from './calendar/review-log';

export const DEFAULT_MAX_AGE_DAYS = 180;
/** Exit code when the data is valid but the coverage targets are not yet met. */
export const EXIT_TARGETS_UNMET = 3;
/** An `expected` milestone may sit this many days past the file's `as_of` before it must be confirmed or slipped. */
export const PASSED_GRACE_DAYS = 60;
/** A horizon calendar keeps instruments with a milestone no older than this before `as_of` (recent or coming). */
export const RELEVANCE_MONTHS = 12;
/** Two titles in one jurisdiction whose token Jaccard similarity reaches this are the same instrument twice. */
export const TITLE_SIMILARITY_THRESHOLD = 0.7;

/* Small helpers ----------------------------------------------------------------------------------------------- */

function isoDay(today: Date | string): string {
  if (typeof today === 'string') {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(today)) throw new Error(`invalid date '${today}' (expected YYYY-MM-DD)`);
    return today;
  }
  return today.toISOString().slice(0, 10);
}

const STOPWORDS = new Set(['a', 'an', 'and', 'as', 'at', 'by', 'for', 'from', 'in', 'of', 'on', 'or', 'the', 'to', 'under', 'with']);

export function titleTokens(title: string): Set<string> {
  return new Set(
    title
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter((t) => t && !STOPWORDS.has(t)),
  );
}

/** |A ∩ B| / |A ∪ B| of the two titles' word sets (1 for identical titles). */
export function titleSimilarity(a: string, b: string): number {
  const ta = titleTokens(a);
  const tb = titleTokens(b);
  const shared = [...ta].filter((t) => tb.has(t)).length;
  const union = ta.size + tb.size - shared;
  return union === 0 ? 0 : shared / union;
}

function lastDayOfMonth(iso: string): string {
  const [y, m] = iso.split('-').map(Number);
  return new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
}

/** The day a period of `precision` containing `iso` ends on (the date a period is stored as). */
export function periodEnd(iso: string, precision: string): string {
  const year = iso.slice(0, 4);
  const month = Number(iso.slice(5, 7));
  switch (precision) {
    case 'month':
      return lastDayOfMonth(iso);
    case 'quarter':
      return lastDayOfMonth(`${year}-${String(Math.ceil(month / 3) * 3).padStart(2, '0')}-01`);
    case 'half':
      return month <= 6 ? `${year}-06-30` : `${year}-12-31`;
    case 'year':
      return `${year}-12-31`;
    default:
      return iso;
  }
}

/* Rules of one entry ------------------------------------------------------------------------------------------ */

function sourceProblems(entry: CalendarEntry, file: CalendarFile, push: (message: string) => void): void {
  for (const source of entry.sources) {
    const where = `source ${source.url}`;
    if (!source.url.startsWith('https://')) push(`${where}: must use https`);
    const landing = landingPageReason(source.url);
    if (landing) push(`${where}: ${landing}; cite the instrument or its own page`);
    if (publishedOn(source.url, NEWS_HOSTS)) push(`${where}: is a news site; cite the regulator or a law-firm or industry briefing`);
    const publisher = file.publishers[source.publisher];
    if (!publisher) {
      push(`${where}: publisher '${source.publisher}' is not listed in the file's publishers`);
    } else {
      if (!publishedOn(source.url, publisher.hosts)) {
        push(`${where}: publisher '${source.publisher}' does not publish there (expected ${publisher.hosts.join(', ')})`);
      }
      if ((source.kind ?? 'official') !== publisher.kind) push(`${where}: kind '${source.kind}' but publisher '${source.publisher}' is ${publisher.kind}`);
    }
    if (!source.published_at) push(`${where}: published_at is missing`);
    else if (source.published_at > entry.reviewed_on) {
      push(`${where}: published_at ${source.published_at} is after reviewed_on ${entry.reviewed_on}`);
    }
    const locale = foreignLocale(source.url);
    if (locale && !source.language) {
      push(`${where}: asks for locale '${locale}'; cite the English or locale-neutral page, or declare the document's language`);
    }
  }
}

function milestoneProblems(entry: CalendarEntry, asOf: string, push: (message: string) => void, warn: (message: string) => void): void {
  for (const m of entry.milestones) {
    const what = `milestone ${m.date} '${m.event}'`;
    const precision = m.precision ?? 'day';
    if (precision !== 'day' && periodEnd(m.date, precision) !== m.date) {
      push(`${what}: precision '${precision}' but not the last day of that period (${periodEnd(m.date, precision)})`);
    }
    if (m.confidence === 'speculative' && precision === 'day') {
      push(`${what}: a speculative date is our own estimate and cannot name a day; give its month, quarter, half or year`);
    }
    passedProblems(m, asOf, what, push, warn);
    for (const earlier of m.history ?? []) {
      if (earlier.date === m.date) push(`${what}: history repeats the current date`);
      if (earlier.source === m.source) push(`${what}: moved from ${earlier.date} but cites the same document; cite the amending or postponing one`);
    }
  }
}

function relevanceProblem(entry: CalendarEntry, asOf: string, push: (message: string) => void): void {
  const since = addMonths(asOf, -RELEVANCE_MONTHS);
  if (!entry.milestones.some((m) => m.date >= since)) {
    push(`no milestone since ${since}: a horizon calendar keeps instruments with a recent or coming milestone; add its next milestone or remove it`);
  }
}

function passedProblems(m: Milestone, asOf: string, what: string, push: (message: string) => void, warn: (message: string) => void): void {
  if (m.slipped) {
    if (m.date >= asOf) push(`${what}: marked slipped but not yet passed (as_of ${asOf})`);
    return;
  }
  if (m.date >= asOf || m.confidence === 'confirmed') return;
  const overdue = daysBetween(m.date, asOf);
  const message = `${what}: ${m.confidence}, ${overdue} days before as_of ${asOf}; confirm it happened or mark it slipped`;
  if (overdue > PASSED_GRACE_DAYS) push(message);
  else warn(message);
}

function duplicateProblems(located: { file: string; entry: CalendarEntry }[]): CalendarProblem[] {
  const problems: CalendarProblem[] = [];
  for (let i = 0; i < located.length; i++) {
    for (let j = i + 1; j < located.length; j++) {
      const a = located[i].entry;
      const b = located[j].entry;
      if (a.jurisdiction !== b.jurisdiction) continue;
      const urls = new Set(a.sources.map((s) => normaliseUrl(s.url)));
      const sharedUrl = b.sources.find((s) => urls.has(normaliseUrl(s.url)))?.url;
      const dates = new Set(a.milestones.map((k) => k.date));
      const sharedDate = b.milestones.find((k) => dates.has(k.date))?.date;
      const similarity = titleSimilarity(a.title, b.title);
      let why = '';
      if (sharedUrl && sharedDate) why = `shares source ${sharedUrl} and milestone date ${sharedDate}`;
      else if (similarity >= TITLE_SIMILARITY_THRESHOLD) why = `has a near-identical title (similarity ${similarity.toFixed(2)})`;
      if (why) {
        problems.push({
          file: located[j].file,
          entryId: b.id,
          message: `near-duplicate of ${a.id} (${located[i].file}): ${why}; merge them or cite what makes them distinct`,
        });
      }
    }
  }
  return problems;
}

export interface QualityResult {
  problems: CalendarProblem[];
  warnings: CalendarProblem[];
}

/** Citation, milestone and freshness problems of schema-valid calendar files, and the warnings short of a problem. */
export function qualityProblems(files: { file: string; data: CalendarFile }[]): QualityResult {
  const problems: CalendarProblem[] = [];
  const warnings: CalendarProblem[] = [];
  const located = files.flatMap(({ file, data }) => data.entries.map((entry) => ({ file, data, entry })));
  for (const { file, data, entry } of located) {
    const push = (message: string) => problems.push({ file, entryId: entry.id, message });
    const warn = (message: string) => warnings.push({ file, entryId: entry.id, message });
    if (entry.reviewed_on > data.as_of) push(`reviewed_on ${entry.reviewed_on} is after the file's as_of ${data.as_of}`);
    sourceProblems(entry, data, push);
    milestoneProblems(entry, data.as_of, push, warn);
    relevanceProblem(entry, data.as_of, push);
  }
  for (const { file, data } of files) {
    for (const [name, publisher] of Object.entries(data.publishers)) {
      if (publisher.hosts.some((h) => publishedOn(`https://${h}/`, NEWS_HOSTS))) {
        problems.push({ file, message: `publisher '${name}' is a news site` });
      }
    }
  }
  problems.push(...duplicateProblems(located));
  return { problems, warnings };
}

/* Staleness against today (warnings) -------------------------------------------------------------------------- */

export interface StaleEntry {
  id: string;
  reviewed_on: string;
  age_days: number;
}

/** Entries reviewed more than `maxAgeDays` before `today`, sorted by id. */
export function staleEntries(entries: readonly CalendarEntry[], today: Date | string, maxAgeDays: number = DEFAULT_MAX_AGE_DAYS): StaleEntry[] {
  const day = isoDay(today);
  return entries
    .map((e) => ({ id: e.id, reviewed_on: e.reviewed_on, age_days: daysBetween(e.reviewed_on, day) }))
    .filter((s) => s.age_days > maxAgeDays)
    .sort((a, b) => a.id.localeCompare(b.id));
}

/* CLI --------------------------------------------------------------------------------------------------------- */

interface CliArgs {
  dir: string;
  only?: string;
  today: string;
  maxAge: number;
  writeReport: boolean;
  /** Where the report lives (docs/calendar-report.md of this project by default). */
  report: string;
}

function parseArgs(argv: string[]): CliArgs {
  const args: CliArgs = {
    dir: defaultCalendarDir(),
    today: isoDay(new Date()),
    maxAge: DEFAULT_MAX_AGE_DAYS,
    writeReport: false,
    report: path.join(findProjectRoot(), REPORT_PATH),
  };
  for (let i = 0; i < argv.length; i++) {
    const value = argv[i + 1];
    switch (argv[i]) {
      case '--dir':
        args.dir = value;
        i++;
        break;
      case '--only':
        if (!/^[a-z]{2}$/.test(value ?? '')) throw new Error(`--only takes a file code such as 'kr', got '${value}'`);
        args.only = value;
        i++;
        break;
      case '--today':
        args.today = isoDay(value);
        i++;
        break;
      case '--max-age':
        args.maxAge = Number(value);
        if (!Number.isInteger(args.maxAge) || args.maxAge < 0) throw new Error(`--max-age takes a whole number of days, got '${value}'`);
        i++;
        break;
      case '--write-report':
        args.writeReport = true;
        break;
      case '--report':
        if (!value) throw new Error('--report takes a file path');
        args.report = value;
        i++;
        break;
      default:
        throw new Error(`unknown argument '${argv[i]}'`);
    }
  }
  return args;
}

/** Runs the CLI; returns the exit code. */
export function main(argv: string[] = process.argv.slice(2), log: (line: string) => void = console.log): number {
  let args: CliArgs;
  try {
    args = parseArgs(argv);
  } catch (err) {
    log(`calendar-check: ${(err as Error).message}`);
    return 2;
  }
  const schemaPath = path.join(findProjectRoot(), 'data', 'calendar-review.schema.json');
  const read = readCalendarFiles(args.dir);
  const problems = read.problems.filter((p) => !args.only || p.file === `${args.only}.json` || !p.file.endsWith('.json'));
  const files = read.files.filter(({ file }) => !args.only || file === `${args.only}.json`);
  if (args.only && files.length === 0 && problems.length === 0) problems.push({ file: `${args.only}.json`, message: 'no such calendar file' });

  const withLogs = files.map(({ file, data }) => {
    const { log: reviewLog, problems: logProblems } = readReviewLog(args.dir, file, schemaPath);
    problems.push(...logProblems);
    if (reviewLog) problems.push(...reviewProblems(file, data.entries, reviewLog));
    return { file, data, log: reviewLog as ReviewLogFile | null };
  });
  const quality = qualityProblems(files);
  problems.push(...quality.problems);
  const summary = coverageOf(files);
  const shortfalls: CalendarProblem[] = [];
  for (const j of summary.jurisdictions) {
    const coverage = jurisdictionCoverage(j);
    problems.push(...coverage.problems);
    shortfalls.push(...coverage.shortfalls);
  }
  const whole = !args.only;
  if (whole) shortfalls.push(...calendarShortfalls(summary));

  for (const line of matrixLines(summary)) log(`  ${line}`);
  log(
    `  ${summary.entries} entries; ${summary.forwardMilestones} forward milestones, ${summary.farMilestones} in 2028 or later; ${summary.sanctionsEntries} Sanctions entries ('-': recorded coverage gap)`,
  );
  if (whole) {
    const report = renderReport(withLogs, summary, shortfalls);
    if (args.writeReport) {
      fs.writeFileSync(args.report, report);
      log(`  wrote ${args.report}`);
    } else if (!fs.existsSync(args.report) || fs.readFileSync(args.report, 'utf8') !== report) {
      problems.push({ file: REPORT_PATH, message: 'out of date: run npm run calendar:check -- --write-report' });
    }
  }
  for (const w of quality.warnings) log(`  WARN ${formatProblem(w)}`);
  const stale = staleEntries(files.flatMap(({ data }) => data.entries), args.today, args.maxAge);
  for (const s of stale) log(`  STALE ${s.id} (reviewed_on ${s.reviewed_on}, ${s.age_days} days before ${args.today})`);
  for (const s of shortfalls) log(`  TARGET ${formatProblem(s)}`);
  if (problems.length > 0) {
    log(`calendar-check: ${problems.length} problem(s) in ${args.dir}${args.only ? ` (${args.only})` : ''}`);
    for (const p of problems) log(`  ERROR ${formatProblem(p)}`);
    return 1;
  }
  const sources = files.reduce((n, { data }) => n + data.entries.reduce((m, e) => m + e.sources.length, 0), 0);
  log(`calendar-check: ${summary.entries} entries and ${sources} sources valid${args.only ? ` (${args.only} only)` : ''}`);
  if (shortfalls.length > 0) {
    log(`calendar-check: ${shortfalls.length} coverage target(s) not met (TARGET lines above; listed in ${REPORT_PATH})`);
    return EXIT_TARGETS_UNMET;
  }
  return 0;
}

if (require.main === module) {
  process.exitCode = main();
}
