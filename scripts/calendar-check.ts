/**
 * Regulatory calendar check: validates data/calendar/*.json, enforces citation quality and lists entries that need
 * a refresh.
 *
 *   node dist/scripts/calendar-check.js [--dir <calendar dir>] [--today YYYY-MM-DD] [--max-age <days>]
 *
 * Exit code 1 when the data is invalid (schema, cross-file rules or a quality rule below), 0 otherwise (stale or
 * expired entries are reported as warnings, not failures). The schema (applied by the loader at service start)
 * holds the rules that are plain facts about one field: https, a path after the host, publisher and published_at
 * present. The rules here need judgement or look across entries, so a false alarm fails this check, never the service.
 */
import type { CalendarEntry, CalendarFile, CalendarProblem, Calendar } from '../src/engine/calendar/calendar.types';
import { defaultCalendarDir, formatProblem, loadCalendar, readCalendarFiles } from '../src/engine/calendar/calendar.loader';

export const DEFAULT_MAX_AGE_DAYS = 180;
/** Two titles in one jurisdiction whose token Jaccard similarity reaches this are the same instrument twice. */
export const TITLE_SIMILARITY_THRESHOLD = 0.7;

/* Citation quality -------------------------------------------------------------------------------------------- */

/**
 * Every publisher named in the data, with where it publishes: a host (its subdomains match) or, on a shared portal,
 * host/path-prefix. A new publisher must be added here: it keeps a source's publisher and its address from naming
 * two different bodies.
 */
export const PUBLISHER_HOSTS: Readonly<Record<string, readonly string[]>> = {
  // Official journals and legislation registers
  'EUR-Lex': ['eur-lex.europa.eu'],
  'legislation.gov.uk': ['legislation.gov.uk'],
  'Federal Register': ['federalregister.gov'],
  'Congress.gov': ['congress.gov'],
  'Federal Register of Legislation': ['legislation.gov.au'],
  // Australia
  ASIC: ['asic.gov.au'],
  APRA: ['apra.gov.au'],
  RBA: ['rba.gov.au'],
  'Australian Treasury': ['treasury.gov.au'],
  "Attorney-General's Department": ['ag.gov.au'],
  // Brazil
  BCB: ['bcb.gov.br'],
  CVM: ['cvm.gov.br'],
  ANPD: ['gov.br/anpd'],
  'Senado Federal': ['senado.leg.br'],
  'Presidência da República': ['planalto.gov.br'],
  // Canada
  OSFI: ['osfi-bsif.gc.ca'],
  'Parliament of Canada': ['parl.ca'],
  'Department of Finance Canada': ['budget.canada.ca'],
  'Canada Gazette': ['gazette.gc.ca'],
  'Payments Canada': ['payments.ca'],
  // Switzerland
  'Fedlex (Swiss Federal Chancellery)': ['fedlex.admin.ch'],
  'Federal Council': ['news.admin.ch'],
  'State Secretariat for International Finance': ['sif.admin.ch'],
  FINMA: ['finma.ch'],
  SNB: ['snb.ch'],
  'Digital Switzerland (Federal Chancellery)': ['digital.swiss'],
  // China
  "People's Daily Online (Xinhua)": ['en.people.cn'],
  // EU
  'European Commission': ['ec.europa.eu', 'commission.europa.eu'],
  ECB: ['ecb.europa.eu'],
  'ECB Banking Supervision': ['bankingsupervision.europa.eu'],
  'Banque de France': ['banque-france.fr'],
  'Basel Committee on Banking Supervision': ['bis.org/bcbs'],
  // Hong Kong
  'Hong Kong e-Legislation (Department of Justice)': ['elegislation.gov.hk'],
  'HKSAR Government': ['info.gov.hk'],
  HKMA: ['hkma.gov.hk'],
  HKEX: ['hkex.com.hk'],
  SFC: ['sfc.hk'],
  // India
  MeitY: ['meity.gov.in'],
  RBI: ['rbi.org.in'],
  SEBI: ['sebi.gov.in'],
  // Japan, South Korea
  SSBJ: ['ssb-j.jp'],
  FSA: ['fsa.go.jp'],
  FSC: ['fsc.go.kr'],
  // Singapore
  MAS: ['mas.gov.sg'],
  PDPC: ['pdpc.gov.sg'],
  'BIS Innovation Hub': ['bis.org/about/bisih'],
  // UK
  FCA: ['fca.org.uk'],
  'Bank of England': ['bankofengland.co.uk'],
  'HM Treasury': ['gov.uk/government'],
  OFSI: ['gov.uk/government'],
  'Department for Business and Trade': ['gov.uk/government'],
  PSR: ['psr.org.uk'],
  // US
  SEC: ['sec.gov'],
  OCC: ['occ.gov'],
  FinCEN: ['fincen.gov'],
  'Federal Reserve': ['federalreserve.gov'],
  CFPB: ['consumerfinance.gov'],
  FINRA: ['finra.org'],
  FDIC: ['fdic.gov'],
  'eCFR (National Archives)': ['ecfr.gov'],
};

/** Path segments that name a language or an index page, not content. */
const LOCALE_SEGMENT = /^(en|eng|english|en-us|en-gb|fr|de|it|es|pt|pt-br|ja|jp|zh|zh-cn|ko|kr|csrc_en|home)$/i;
const INDEX_SEGMENT = /^(index|default|home|main|start)([._-](en|eng))?(\.(s?html?|aspx?|php|jsp|do))?$/i;
/** Last path segments of listing pages: a news room, a list of circulars, a search form. */
const GENERIC_SECTION =
  /^(news|newsroom|news-room|news-and-publications|news-and-media|press|press-releases|pressreleases|pressdetail|media-releases|media|publications|consultations|consultation|circulars|notifications|notices|rules-policy|rule-filings|documentation|laws-and-regulations|legislation|regulation|regulations|policy|guidance|search|buscanormas|sitemap|finma-circulars|finma-guidance|esma-news|policy-statements-and-announcements)$/;
/** Dynamic listing or search pages: a list/search/display/view script called without a document id. */
const LISTING_SCRIPT = /(list|search|display|view|user|results?)\.(aspx?|php|jsp|do|cfm)$/i;
/** Home pages of an organisation on a shared government portal (gov.uk, gov.br, canada.ca). */
const PORTAL_HOME: readonly [RegExp, RegExp][] = [
  [/(^|\.)gov\.uk$/, /^\/government\/organisations\/[^/]+\/?$/],
  [/(^|\.)gov\.br$/, /^\/[^/]+(\/(en|pt-br|es))?\/?$/],
  [/(^|\.)canada\.ca$/, /^\/(en|fr)\/[^/]+(\.html)?\/?$/],
];

/** Why `url` looks like a home page or a generic section landing page, or null when it names a document. */
export function landingPageReason(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'is not a valid URL';
  }
  const segments = parsed.pathname.split('/').filter((s) => s && !LOCALE_SEGMENT.test(s));
  if (segments.every((s) => INDEX_SEGMENT.test(s)) && !parsed.search) return 'is a home page';
  const host = parsed.hostname.toLowerCase();
  if (PORTAL_HOME.some(([h, p]) => h.test(host) && p.test(parsed.pathname))) return "is an organisation's home page";
  const last = (segments[segments.length - 1] ?? '').toLowerCase().replace(/\.(s?html?|aspx?|php|jsp|do)$/, '');
  if (GENERIC_SECTION.test(last) && !parsed.search) return `is a generic '${last}' landing page`;
  if (LISTING_SCRIPT.test(parsed.pathname) && !parsed.search) {
    return 'is a script page without a document id (a listing or search page)';
  }
  return null;
}

/**
 * Whether `url` is on one of the `allowed` places: a host (a subdomain matches too) or, on a shared government portal,
 * a host and path prefix such as `gov.br/anpd`.
 */
export function publishedOn(url: string, allowed: readonly string[]): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  const host = u.hostname.toLowerCase();
  return allowed.some((place) => {
    const [h, ...rest] = place.split('/');
    const onHost = host === h || host.endsWith(`.${h}`);
    return onHost && (rest.length === 0 || u.pathname.startsWith(`/${rest.join('/')}`));
  });
}

/** A URL reduced to what identifies the document: host without www, path without trailing slash, query. */
export function normaliseUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname.toLowerCase().replace(/^www\./, '')}${u.pathname.replace(/\/+$/, '')}${u.search}`;
  } catch {
    return url;
  }
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

const QUARTER_ENDS = /-(03-31|06-30|09-30|12-31)$/;

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

function sourceProblems(entry: CalendarEntry, push: (message: string) => void): void {
  for (const source of entry.sources) {
    const where = `source ${source.url}`;
    if (!source.url.startsWith('https://')) push(`${where}: must use https`);
    const landing = landingPageReason(source.url);
    if (landing) push(`${where}: ${landing}; cite the instrument or its own page`);
    const places = PUBLISHER_HOSTS[source.publisher];
    if (!places) {
      push(`${where}: publisher '${source.publisher}' is not in PUBLISHER_HOSTS (scripts/calendar-check.ts)`);
    } else if (!publishedOn(source.url, places)) {
      push(`${where}: publisher '${source.publisher}' does not publish there (expected ${places.join(', ')})`);
    }
    if (!source.published_at) push(`${where}: published_at is missing`);
    else if (source.published_at > entry.last_verified) {
      push(`${where}: published_at ${source.published_at} is after last_verified ${entry.last_verified}`);
    }
  }
}

function keyDateProblems(entry: CalendarEntry, push: (message: string) => void): void {
  for (const k of entry.key_dates) {
    if (!k.precision && k.confidence !== 'confirmed' && QUARTER_ENDS.test(k.date)) {
      push(
        `key date ${k.date} (${k.confidence}) sits on a period end: say what it stands for with "precision" (month, quarter, half, year) or "day"`,
      );
    } else if (k.precision && k.precision !== 'day' && periodEnd(k.date, k.precision) !== k.date) {
      push(`key date ${k.date} has precision '${k.precision}' but is not the last day of that period (${periodEnd(k.date, k.precision)})`);
    }
  }
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
      const dates = new Set(a.key_dates.map((k) => k.date));
      const sharedDate = b.key_dates.find((k) => dates.has(k.date))?.date;
      const similarity = titleSimilarity(a.title, b.title);
      let why = '';
      if (sharedUrl && sharedDate) why = `shares source ${sharedUrl} and key date ${sharedDate}`;
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

/** Citation-quality problems of schema-valid calendar files (empty when every rule holds). */
export function qualityProblems(files: { file: string; data: CalendarFile }[]): CalendarProblem[] {
  const problems: CalendarProblem[] = [];
  const located = files.flatMap(({ file, data }) => data.entries.map((entry) => ({ file, entry })));
  for (const { file, entry } of located) {
    const push = (message: string) => problems.push({ file, entryId: entry.id, message });
    sourceProblems(entry, push);
    keyDateProblems(entry, push);
  }
  problems.push(...duplicateProblems(located));
  return problems;
}

/* Freshness (warnings) ---------------------------------------------------------------------------------------- */

export interface StaleEntry {
  id: string;
  last_verified: string;
  age_days: number;
}

export interface ExpiredEntry {
  id: string;
  last_date: string;
}

export interface CalendarCheckResult {
  today: string;
  total: number;
  /** Entries whose last_verified is older than maxAgeDays. */
  stale: StaleEntry[];
  /** Entries whose key dates are all before today. */
  expired: ExpiredEntry[];
}

const DAY_MS = 86_400_000;

function toUtcDay(iso: string): number {
  const [y, m, d] = iso.split('-').map(Number);
  return Date.UTC(y, m - 1, d) / DAY_MS;
}

function isoDay(today: Date | string): string {
  if (typeof today === 'string') {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(today)) throw new Error(`invalid date '${today}' (expected YYYY-MM-DD)`);
    return today;
  }
  return today.toISOString().slice(0, 10);
}

function lastDate(entry: CalendarEntry): string {
  return entry.key_dates.reduce((max, k) => (k.date > max ? k.date : max), '');
}

/** Pure check of a loaded calendar against `today`: stale and expired entries, sorted by id. */
export function checkCalendar(calendar: Calendar, today: Date | string, maxAgeDays: number = DEFAULT_MAX_AGE_DAYS): CalendarCheckResult {
  const day = isoDay(today);
  const todayN = toUtcDay(day);
  const stale: StaleEntry[] = [];
  const expired: ExpiredEntry[] = [];
  for (const entry of calendar.entries) {
    const age = todayN - toUtcDay(entry.last_verified);
    if (age > maxAgeDays) stale.push({ id: entry.id, last_verified: entry.last_verified, age_days: age });
    const last = lastDate(entry);
    if (last < day) expired.push({ id: entry.id, last_date: last });
  }
  stale.sort((a, b) => a.id.localeCompare(b.id));
  expired.sort((a, b) => a.id.localeCompare(b.id));
  return { today: day, total: calendar.entries.length, stale, expired };
}

/* CLI --------------------------------------------------------------------------------------------------------- */

interface CliArgs {
  dir: string;
  today: string;
  maxAge: number;
}

function parseArgs(argv: string[]): CliArgs {
  const args: CliArgs = { dir: defaultCalendarDir(), today: isoDay(new Date()), maxAge: DEFAULT_MAX_AGE_DAYS };
  for (let i = 0; i < argv.length; i++) {
    const value = argv[i + 1];
    switch (argv[i]) {
      case '--dir':
        args.dir = value;
        i++;
        break;
      case '--today':
        args.today = isoDay(value);
        i++;
        break;
      case '--max-age':
        args.maxAge = Number(value);
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
  const { files, problems } = readCalendarFiles(args.dir);
  problems.push(...qualityProblems(files));
  if (problems.length > 0) {
    log(`calendar-check: ${problems.length} problem(s) in ${args.dir}`);
    for (const p of problems) log(`  ERROR ${formatProblem(p)}`);
    return 1;
  }
  const calendar = loadCalendar(args.dir);
  const result = checkCalendar(calendar, args.today, args.maxAge);
  const sources = calendar.entries.reduce((n, e) => n + e.sources.length, 0);
  log(`calendar-check: ${result.total} entries and ${sources} sources valid (version ${calendar.version}, today ${result.today})`);
  if (result.stale.length > 0) {
    log(`  ${result.stale.length} entr${result.stale.length === 1 ? 'y' : 'ies'} last verified more than ${args.maxAge} days ago:`);
    for (const s of result.stale) log(`    STALE ${s.id} (last_verified ${s.last_verified}, ${s.age_days} days)`);
  }
  if (result.expired.length > 0) {
    log(`  ${result.expired.length} entr${result.expired.length === 1 ? 'y' : 'ies'} with every key date passed:`);
    for (const e of result.expired) log(`    EXPIRED ${e.id} (last key date ${e.last_date})`);
  }
  if (result.stale.length === 0 && result.expired.length === 0) log('  nothing to refresh');
  return 0;
}

if (require.main === module) {
  process.exitCode = main();
}
