/**
 * Offline selection: which calendar entries a scan reports, and in what order.
 *
 * An entry is selected when
 *   1. its jurisdiction is one of the requested jurisdictions (names resolved through matching.ts),
 *   2. it shares at least one area with the requested areas, and
 *   3. at least one of its key dates falls inside the window [scanDate, scanDate + horizon months]
 *      (both ends inclusive; month arithmetic clamps to month end, see dates.addMonths).
 *
 * The item's `area` is the requested area most central to the instrument: the first of the entry's own areas
 * (listed main area first) that was requested, so a capital-markets rule that also touches resilience is filed
 * under resilience only when resilience is what was asked for and its main area was not.
 *
 * The item's "next key date" (the milestone that leads it) is the earliest *firm* milestone inside the window
 * that has not slipped, or the earliest one when none is firm: a year-only placeholder ("expected 2026") never
 * hides a fixed date that follows it, and a passed date is never presented as upcoming. Every other milestone
 * in the window stays on the item's timeline. Milestones dated before the scan that the calendar does not record
 * as having happened (marked `slipped`, or expected and not yet confirmed) are kept apart as `unresolved`, so
 * that the item can say they slipped instead of hiding them.
 *
 * Ranking: centrality first (an instrument whose main area was requested before one whose second-listed area
 * was, before one that only carries a requested area as its third tag), so the lead item is always one that
 * is about what was asked; then impact (high > medium > low); then firm dates before approximate ones (a firm
 * date is a day or month fixed or announced by the authority; a quarter, half-year or year, or our own
 * estimate, is approximate, so a placeholder never outranks a real deadline); then next key date ascending;
 * then that date's confidence (confirmed > expected > speculative); then entry id. The list is capped at
 * MAX_SELECTED_ITEMS (40) so that a briefing stays readable; the cap keeps the highest-ranked entries and
 * `selectEntriesWithStats` reports how many matched before the cap.
 */
import type { Calendar, CalendarEntry, DateConfidence, Impact, Milestone } from '../calendar/calendar.types';
import { addMonths, isIsoDate } from './dates';
import { resolveAreas, resolveJurisdictions } from './matching';

/** Default cap on selected entries per scan (keeps the briefing readable). */
export const MAX_SELECTED_ITEMS = 40;
/** The order the cap keeps instruments in, as `_meta.selection` states it. */
export const SELECTION_ORDER =
  "centrality (instruments whose main area was requested first, then those where it is the second, then the third of their areas), then impact (high first), then firm dates (a day or month fixed or announced) before approximate ones (a quarter, half-year, year or estimate), then next key date (earliest first), then date confidence (confirmed, expected, speculative), then id; an item's next key date is its earliest firm milestone in the window, or its earliest milestone when none is firm";

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
  /** Area id: the requested area most central to the entry (the first of its own areas that was requested). */
  area: string;
  /** Position of `area` among the entry's areas: 0 when its main area was requested. */
  centrality: number;
  /** The milestone that leads the item: the earliest firm one inside the window, else the earliest (never before the scan date). */
  nextKeyDate: Milestone;
  /** Every milestone inside the window, ascending. */
  windowDates: Milestone[];
  /** Milestones dated before the scan date that are not confirmed as having happened (slipped or unconfirmed). */
  unresolved: Milestone[];
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

const byDate = (a: Milestone, b: Milestone) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0);

/** Milestones of `entry` inside [from, to] (inclusive) that have not slipped, ascending by date. */
export function milestonesInWindow(entry: CalendarEntry, from: string, to: string): Milestone[] {
  return entry.milestones.filter((k) => !k.slipped && k.date >= from && k.date <= to).sort(byDate);
}

/** Milestones of `entry` dated before `scanDate` that the calendar does not record as having happened, ascending. */
export function unresolvedMilestones(entry: CalendarEntry, scanDate: string): Milestone[] {
  return entry.milestones.filter((k) => k.date < scanDate && (k.slipped || k.confidence !== 'confirmed')).sort(byDate);
}

/** True when a key date is a day or month the authority fixed or announced (not a period or our estimate). */
export function isFirmMilestone(keyDate: Milestone): boolean {
  const precision = keyDate.precision ?? 'day';
  return (precision === 'day' || precision === 'month') && keyDate.confidence !== 'speculative';
}

/** The milestone that leads an item: the earliest firm one of `windowDates` (ascending), else the earliest. */
export function leadMilestone(windowDates: readonly Milestone[]): Milestone | undefined {
  return windowDates.find(isFirmMilestone) ?? windowDates[0];
}

/** Ranking comparator (see the module comment). */
export function compareSelected(a: SelectedEntry, b: SelectedEntry): number {
  return (
    a.centrality - b.centrality ||
    IMPACT_RANK[a.entry.impact] - IMPACT_RANK[b.entry.impact] ||
    Number(!isFirmMilestone(a.nextKeyDate)) - Number(!isFirmMilestone(b.nextKeyDate)) ||
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
  const requestedAreas = new Set(areas.ids);
  const maxItems = criteria.maxItems ?? MAX_SELECTED_ITEMS;

  const matched: SelectedEntry[] = [];
  for (const entry of calendar.entries) {
    if (!jurisdictionSet.has(entry.jurisdiction)) continue;
    const centrality = entry.areas.findIndex((id) => requestedAreas.has(id));
    if (centrality < 0) continue;
    const windowDates = milestonesInWindow(entry, criteria.scanDate, end);
    const nextKeyDate = leadMilestone(windowDates);
    if (!nextKeyDate) continue;
    const area = entry.areas[centrality];
    matched.push({ entry, area, centrality, nextKeyDate, windowDates, unresolved: unresolvedMilestones(entry, criteria.scanDate) });
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
