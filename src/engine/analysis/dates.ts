/**
 * Calendar-date helpers for the offline engine. Everything works on ISO calendar dates (YYYY-MM-DD) in
 * UTC day numbers: no time zones, no clock reads.
 */

const DAY_MS = 86_400_000;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

const MONTHS_LONG = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const MONTHS_SHORT = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

interface Ymd {
  y: number;
  m: number; // 1-12
  d: number;
}

function parse(iso: string): Ymd | null {
  const match = ISO_DATE.exec(iso);
  if (!match) return null;
  const y = Number(match[1]);
  const m = Number(match[2]);
  const d = Number(match[3]);
  if (m < 1 || m > 12 || d < 1 || d > daysInMonth(y, m)) return null;
  return { y, m, d };
}

function parseOrThrow(iso: string): Ymd {
  const ymd = parse(iso);
  if (!ymd) throw new RangeError(`invalid calendar date '${iso}' (expected YYYY-MM-DD)`);
  return ymd;
}

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

/** Number of days in month `m` (1-12) of year `y` (proleptic Gregorian). */
export function daysInMonth(y: number, m: number): number {
  return new Date(Date.UTC(y, m, 0)).getUTCDate();
}

/** True when `iso` is a real calendar date written YYYY-MM-DD. */
export function isIsoDate(iso: string): boolean {
  return parse(iso) !== null;
}

/**
 * Adds whole calendar months to an ISO date. When the day does not exist in the target month it is clamped
 * to that month's last day (2026-08-31 + 6 months = 2027-02-28; 2027-11-30 + 3 months = 2028-02-29), so
 * the result never spills into the following month.
 */
export function addMonths(iso: string, months: number): string {
  if (!Number.isInteger(months)) throw new RangeError(`months must be an integer, got ${months}`);
  const { y, m, d } = parseOrThrow(iso);
  const index = y * 12 + (m - 1) + months;
  const ny = Math.floor(index / 12);
  const nm = (index % 12) + 1;
  const nd = Math.min(d, daysInMonth(ny, nm));
  return `${pad(ny, 4)}-${pad(nm)}-${pad(nd)}`;
}

/** UTC day number of an ISO date (days since 1970-01-01). */
export function dayNumber(iso: string): number {
  const { y, m, d } = parseOrThrow(iso);
  return Date.UTC(y, m - 1, d) / DAY_MS;
}

/** ISO date of a UTC day number. */
export function fromDayNumber(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return dayNumber(to) - dayNumber(from);
}

/** "10 July 2027". */
export function formatLongDate(iso: string): string {
  const { y, m, d } = parseOrThrow(iso);
  return `${d} ${MONTHS_LONG[m - 1]} ${y}`;
}

/** "10 Jul 2027". */
export function formatShortDate(iso: string): string {
  const { y, m, d } = parseOrThrow(iso);
  return `${d} ${MONTHS_SHORT[m - 1]} ${y}`;
}

/** How exact a date is: `day`, or the period it stands for (see DatePrecision in calendar.types.ts). */
export type Precision = 'day' | 'month' | 'quarter' | 'half' | 'year';

/**
 * The period a date stands for: "10 July 2027" (long) or "10 Jul 2027" (short) for a day, then "July 2027" /
 * "Jul 2027", "Q3 2027", "H2 2027", "2027" for the coarser precisions.
 */
export function formatPeriod(iso: string, precision: Precision = 'day', style: 'long' | 'short' = 'long'): string {
  const { y, m, d } = parseOrThrow(iso);
  switch (precision) {
    case 'month':
      return `${(style === 'long' ? MONTHS_LONG : MONTHS_SHORT)[m - 1]} ${y}`;
    case 'quarter':
      return `Q${Math.ceil(m / 3)} ${y}`;
    case 'half':
      return `H${m <= 6 ? 1 : 2} ${y}`;
    case 'year':
      return String(y);
    default:
      return `${d} ${(style === 'long' ? MONTHS_LONG : MONTHS_SHORT)[m - 1]} ${y}`;
  }
}

/**
 * The precision a date is shown at: an estimate (`speculative`) is never shown as a day, whatever its source
 * said, because nobody has fixed that day; it is shown as its month.
 */
export function shownPrecision(confidence: string | undefined, precision: Precision | undefined): Precision {
  const given = precision ?? 'day';
  return confidence === 'speculative' && given === 'day' ? 'month' : given;
}

/**
 * A date as precise as it is known, for machines: "2027-07-10" for a day, "2027-07" for a month, "2027-Q3",
 * "2027-H2" and "2027" for the coarser periods (never a made-up last day of the period).
 */
export function isoPeriod(iso: string, precision: Precision = 'day'): string {
  const { y, m } = parseOrThrow(iso);
  switch (precision) {
    case 'month':
      return iso.slice(0, 7);
    case 'quarter':
      return `${y}-Q${Math.ceil(m / 3)}`;
    case 'half':
      return `${y}-H${m <= 6 ? 1 : 2}`;
    case 'year':
      return String(y);
    default:
      return iso.slice(0, 10);
  }
}

/** "July 2027". */
export function formatMonthYear(iso: string): string {
  const { y, m } = parseOrThrow(iso);
  return `${MONTHS_LONG[m - 1]} ${y}`;
}
