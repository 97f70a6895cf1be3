/**
 * Regulatory calendar check: validates data/calendar/*.json and lists entries that need a refresh.
 *
 *   node dist/scripts/calendar-check.js [--dir <calendar dir>] [--today YYYY-MM-DD] [--max-age <days>]
 *
 * Exit code 1 when the data is invalid (schema or cross-file rules), 0 otherwise
 * (stale or expired entries are reported as warnings, not failures).
 */
import { defaultCalendarDir, formatProblem, loadCalendar, validateCalendarFiles } from '../src/engine/calendar/calendar.loader';
import type { Calendar, CalendarEntry } from '../src/engine/calendar/calendar.types';

export const DEFAULT_MAX_AGE_DAYS = 180;

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
export function checkCalendar(
  calendar: Calendar,
  today: Date | string,
  maxAgeDays: number = DEFAULT_MAX_AGE_DAYS,
): CalendarCheckResult {
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
  const problems = validateCalendarFiles(args.dir);
  if (problems.length > 0) {
    log(`calendar-check: ${problems.length} problem(s) in ${args.dir}`);
    for (const p of problems) log(`  ERROR ${formatProblem(p)}`);
    return 1;
  }
  const calendar = loadCalendar(args.dir);
  const result = checkCalendar(calendar, args.today, args.maxAge);
  log(`calendar-check: ${result.total} entries valid (version ${calendar.version}, today ${result.today})`);
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
