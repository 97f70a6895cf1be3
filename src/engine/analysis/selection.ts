/**
 * Offline selection: which calendar entries a scan reports, and in what order.
 *
 * An entry is selected when
 *   1. its jurisdiction is one of the requested jurisdictions (names resolved through matching.ts),
 *   2. it shares at least one area with the requested areas, and
 *   3. at least one of its key dates falls inside the window [scanDate, scanDate + horizon months]
 *      (both ends inclusive; month arithmetic clamps to month end, see dates.addMonths).
 *
 * The item's "next key date" is the earliest key date inside the window, so a passed date is never
 * presented as upcoming. Ranking: impact (high > medium > low), then firm dates before approximate ones (a
 * firm date is a day or month fixed or announced by the authority; a quarter, half-year or year, or our own
 * estimate, is approximate, so a placeholder never outranks a real deadline), then next key date ascending,
 * then that date's confidence (confirmed > expected > speculative), then entry id. The list is capped at
 * MAX_SELECTED_ITEMS (40) so that a briefing stays readable; the cap keeps the highest-ranked entries and
 * `selectEntriesWithStats` reports how many matched before the cap.
 */
import type { Calendar, CalendarEntry, DateConfidence, Impact, KeyDate } from '../calendar/calendar.types';
import { addMonths, isIsoDate } from './dates';
import { resolveAreas, resolveJurisdictions } from './matching';

/** Default cap on selected entries per scan (keeps the briefing readable). */
export const MAX_SELECTED_ITEMS = 40;
/** The order the cap keeps instruments in, as `_meta.selection` states it. */
export const SELECTION_ORDER =
  'impact (high first), then firm dates (a day or month fixed or announced) before approximate ones (a quarter, half-year, year or estimate), then next key date (earliest first), then date confidence (confirmed, expected, speculative), then id';

export interface SelectionCriteria {
  jurisdictions: string[];
  areas: string[];
  horizonMonths: number;
  /** The scan date (the real current date), YYYY-MM-DD. */
  scanDate: string;
  /** Cap on selected entries; defaults to MAX_SELECTED_ITEMS. */
  maxItems?: number;
}

export interface SelectedEntry {
  entry: CalendarEntry;
  /** Area id: the first requested area (in request order) that the entry carries. */
  area: string;
  /** Earliest key date inside the window (never before the scan date). */
  nextKeyDate: KeyDate;
  /** Every key date inside the window, ascending. */
  windowDates: KeyDate[];
}

export interface SelectionResult {
  selected: SelectedEntry[];
  /** Every matching entry in rank order, `selected` first: the cap keeps `matched.slice(0, selected.length)`. */
  matched: SelectedEntry[];
  /** Entries that matched before the cap was applied. */
  matchedCount: number;
  /** True when the cap dropped entries. */
  capped: boolean;
  /** Last day of the window (inclusive). */
  windowEnd: string;
  matchedJurisdictions: string[];
  unmatchedJurisdictions: string[];
  matchedAreas: string[];
  unmatchedAreas: string[];
}

export const IMPACT_RANK: Readonly<Record<Impact, number>> = { high: 0, medium: 1, low: 2 };
export const CONFIDENCE_RANK: Readonly<Record<DateConfidence, number>> = { confirmed: 0, expected: 1, speculative: 2 };

/** Last day (inclusive) of the scan window. Throws RangeError on an invalid date or horizon. */
export function windowEnd(scanDate: string, horizonMonths: number): string {
  if (!isIsoDate(scanDate)) throw new RangeError(`invalid scan date '${scanDate}' (expected YYYY-MM-DD)`);
  if (!Number.isInteger(horizonMonths) || horizonMonths < 0) {
    throw new RangeError(`horizon must be a non-negative whole number of months, got ${horizonMonths}`);
  }
  return addMonths(scanDate, horizonMonths);
}

/** Key dates of `entry` inside [from, to] (inclusive), ascending by date. */
export function keyDatesInWindow(entry: CalendarEntry, from: string, to: string): KeyDate[] {
  return entry.key_dates.filter((k) => k.date >= from && k.date <= to).sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
}

/** Ranking comparator (see the module comment). */
/** True when a key date is a day or month the authority fixed or announced (not a period or our estimate). */
export function isFirmKeyDate(keyDate: KeyDate): boolean {
  const precision = keyDate.precision ?? 'day';
  return (precision === 'day' || precision === 'month') && keyDate.confidence !== 'speculative';
}

export function compareSelected(a: SelectedEntry, b: SelectedEntry): number {
  return (
    IMPACT_RANK[a.entry.impact] - IMPACT_RANK[b.entry.impact] ||
    Number(!isFirmKeyDate(a.nextKeyDate)) - Number(!isFirmKeyDate(b.nextKeyDate)) ||
    (a.nextKeyDate.date < b.nextKeyDate.date ? -1 : a.nextKeyDate.date > b.nextKeyDate.date ? 1 : 0) ||
    CONFIDENCE_RANK[a.nextKeyDate.confidence] - CONFIDENCE_RANK[b.nextKeyDate.confidence] ||
    (a.entry.id < b.entry.id ? -1 : a.entry.id > b.entry.id ? 1 : 0)
  );
}

/** Selection with the facts the composer reports in `_meta` (resolved and unmatched names, cap). */
export function selectEntriesWithStats(calendar: Calendar, criteria: SelectionCriteria): SelectionResult {
  const end = windowEnd(criteria.scanDate, criteria.horizonMonths);
  const jurisdictions = resolveJurisdictions(criteria.jurisdictions ?? []);
  const areas = resolveAreas(criteria.areas ?? []);
  const jurisdictionSet = new Set(jurisdictions.ids);
  const maxItems = criteria.maxItems ?? MAX_SELECTED_ITEMS;

  const matched: SelectedEntry[] = [];
  for (const entry of calendar.entries) {
    if (!jurisdictionSet.has(entry.jurisdiction)) continue;
    const area = areas.ids.find((id) => entry.areas.includes(id));
    if (!area) continue;
    const windowDates = keyDatesInWindow(entry, criteria.scanDate, end);
    if (windowDates.length === 0) continue;
    matched.push({ entry, area, nextKeyDate: windowDates[0], windowDates });
  }
  matched.sort(compareSelected);
  const selected = matched.slice(0, Math.max(0, maxItems));
  return {
    selected,
    matched,
    matchedCount: matched.length,
    capped: selected.length < matched.length,
    windowEnd: end,
    matchedJurisdictions: jurisdictions.ids,
    unmatchedJurisdictions: jurisdictions.unmatched,
    matchedAreas: areas.ids,
    unmatchedAreas: areas.unmatched,
  };
}

/** Selected and ranked calendar entries for a scan (capped at `maxItems`, default MAX_SELECTED_ITEMS). */
export function selectEntries(calendar: Calendar, criteria: SelectionCriteria): SelectedEntry[] {
  return selectEntriesWithStats(calendar, criteria).selected;
}
