/**
 * What a scan matched, counted over *every* matching instrument, not only the items the cap kept: the snapshot's
 * `_meta.matched_summary`. Artefacts draw their tiles, charts and "N of M shown" lines from it, so a board reads
 * "51 high / 100 medium / 26 low" for a scan that matched 177 instruments, never the 40 that fit on a page, and
 * every requested jurisdiction and area appears even when none of its instruments was kept. Pure.
 */
import type { DateConfidence, Impact } from '../calendar/calendar.types';
import type { ItemStage } from '../envelope.types';
import { isIsoDate, isoPeriod, type Precision } from './dates';

/** The facts of one matching instrument that the summary counts (an item, or a row the cap left out). */
export interface MatchedInstrument {
  id: string;
  title: string;
  jurisdiction: string;
  area: string;
  impact: Impact;
  stage: ItemStage;
  date_confidence: DateConfidence;
  key_date: string;
  key_date_precision?: Precision;
  /** What happens on the next key date. */
  milestone: string;
  /** Its milestones inside the window (the next key date included), for the quarter timeline. */
  window_milestones: readonly { date: string; precision?: Precision }[];
}

export interface MatchedCount {
  id: string;
  matched: number;
  shown: number;
  /** The matched ones by impact. */
  by_impact: Record<Impact, number>;
}

export interface QuarterCount {
  /** "2027-Q1". */
  quarter: string;
  /** Milestones dated (to the day, month or quarter) inside the quarter, across every matching instrument. */
  milestones: number;
  by_jurisdiction: Record<string, number>;
}

export interface MatchedSummary {
  /** Every matching instrument (= `_meta.matched_count`). */
  count: number;
  /** How many of them are the snapshot's items. */
  shown: number;
  by_impact: Record<Impact, number>;
  /** Confidence of each instrument's next key date. */
  by_date_confidence: Record<DateConfidence, number>;
  /** Stage of each instrument (only stages some instrument is at). */
  by_stage: Partial<Record<ItemStage, number>>;
  /** Every requested jurisdiction, in request order (0 when nothing matched), then any other. */
  by_jurisdiction: MatchedCount[];
  /** Every requested area, in request order, counting each instrument once under the area it is filed under. */
  by_area: MatchedCount[];
  /** Next key dates by year ("2027"). */
  by_year: { year: string; matched: number }[];
  /** Upcoming milestones by quarter and jurisdiction; milestones known only to a half-year or year are left out. */
  by_quarter: QuarterCount[];
  /** Milestones the quarter timeline leaves out because their date is known only to a half-year or a year. */
  undated_in_quarter: number;
}

function countRows(ids: readonly string[], all: readonly MatchedInstrument[], shown: ReadonlySet<string>, key: (m: MatchedInstrument) => string): MatchedCount[] {
  const empty = (id: string): MatchedCount => ({ id, matched: 0, shown: 0, by_impact: { high: 0, medium: 0, low: 0 } });
  const rows = new Map<string, MatchedCount>(ids.map((id) => [id, empty(id)]));
  for (const m of all) {
    const id = key(m);
    const row = rows.get(id) ?? rows.set(id, empty(id)).get(id)!;
    row.matched += 1;
    row.by_impact[m.impact] += 1;
    if (shown.has(m.id)) row.shown += 1;
  }
  return [...rows.values()];
}

/** Summary of `all` (every matching instrument, in rank order), of which `shownIds` are the snapshot's items. */
export function summariseMatched(
  all: readonly MatchedInstrument[],
  shownIds: ReadonlySet<string>,
  requested: { jurisdictions: readonly string[]; areas: readonly string[] },
): MatchedSummary {
  const byImpact: Record<Impact, number> = { high: 0, medium: 0, low: 0 };
  const byConfidence: Record<DateConfidence, number> = { confirmed: 0, expected: 0, speculative: 0 };
  const byStage: Partial<Record<ItemStage, number>> = {};
  const years = new Map<string, number>();
  const quarters = new Map<string, QuarterCount>();
  let undated = 0;
  for (const m of all) {
    byImpact[m.impact] += 1;
    byConfidence[m.date_confidence] += 1;
    byStage[m.stage] = (byStage[m.stage] ?? 0) + 1;
    // Items from other engines or old snapshots may lack a date: counted, but in no year or quarter.
    if (isIsoDate((m.key_date ?? '').slice(0, 10))) years.set(m.key_date.slice(0, 4), (years.get(m.key_date.slice(0, 4)) ?? 0) + 1);
    for (const milestone of m.window_milestones) {
      if (!isIsoDate(milestone.date)) continue;
      const precision = milestone.precision ?? 'day';
      if (precision === 'half' || precision === 'year') {
        undated += 1;
        continue;
      }
      const quarter = isoPeriod(milestone.date, 'quarter');
      const row = quarters.get(quarter) ?? quarters.set(quarter, { quarter, milestones: 0, by_jurisdiction: {} }).get(quarter)!;
      row.milestones += 1;
      row.by_jurisdiction[m.jurisdiction] = (row.by_jurisdiction[m.jurisdiction] ?? 0) + 1;
    }
  }
  return {
    count: all.length,
    shown: all.filter((m) => shownIds.has(m.id)).length,
    by_impact: byImpact,
    by_date_confidence: byConfidence,
    by_stage: byStage,
    by_jurisdiction: countRows(requested.jurisdictions, all, shownIds, (m) => m.jurisdiction),
    by_area: countRows(requested.areas, all, shownIds, (m) => m.area),
    by_year: [...years.entries()].map(([year, matched]) => ({ year, matched })).sort((a, b) => a.year.localeCompare(b.year)),
    by_quarter: [...quarters.values()].sort((a, b) => a.quarter.localeCompare(b.quarter)),
    undated_in_quarter: undated,
  };
}
