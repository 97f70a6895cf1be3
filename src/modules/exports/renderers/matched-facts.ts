/**
 * The counts an artefact prints about what a scan matched: every tile, chart and "N of M shown" line reads them
 * from here, so they describe all M matching instruments (the engine's `_meta.matched_summary`), never only the
 * N items that fit. Snapshots without the summary (LLM runs, snapshots written before it existed) are counted
 * from their items, which are then everything that matched.
 */
import { type MatchedCount, type MatchedInstrument, type QuarterCount, summariseMatched } from '../../../engine/analysis/aggregates';
import type { DateConfidence, Impact } from '../../../engine/calendar/calendar.types';
import type { SnapshotItem } from '../../../engine/envelope.types';
import { countBy } from './item-grouping';
import type { RenderSnapshot } from './types';
import { isoPeriod } from '../../../engine/analysis/dates';

export type { MatchedCount, QuarterCount };

export interface MatchedFacts {
  /** Every matching instrument. */
  total: number;
  /**
   * How many instruments the counts below cover: `total`, or only the shown items when the snapshot records
   * how many matched but not their counts (written before `_meta.matched_summary` existed).
   */
  counted: number;
  /** How many of them are the snapshot's items. */
  shown: number;
  capped: boolean;
  byImpact: Record<Impact, number>;
  /** Instruments by stage (stages with none left out). */
  byStage: Map<string, number>;
  /** Every requested jurisdiction in request order (0 when nothing matched), then any other. */
  jurisdictions: MatchedCount[];
  /** Every requested area in request order, each instrument under the area it is filed under. */
  areas: MatchedCount[];
  /** Upcoming milestones by quarter and jurisdiction (empty when the snapshot does not record them). */
  quarters: QuarterCount[];
  /** Milestones known only to a half-year or year, which the quarters leave out. */
  undatedInQuarter: number;
}

const IMPACT_KEYS: readonly Impact[] = ['high', 'medium', 'low'];
const CONFIDENCES: readonly DateConfidence[] = ['confirmed', 'expected', 'speculative'];
const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value >= 0;

function impactRecord(value: unknown): Record<Impact, number> | null {
  if (!value || typeof value !== 'object') return null;
  const record = value as Record<string, unknown>;
  return IMPACT_KEYS.every((key) => isCount(record[key])) ? { high: record.high as number, medium: record.medium as number, low: record.low as number } : null;
}

function countRows(value: unknown): MatchedCount[] | null {
  if (!Array.isArray(value)) return null;
  const rows: MatchedCount[] = [];
  for (const row of value as Array<Record<string, unknown>>) {
    const byImpact = impactRecord(row?.by_impact);
    if (!row || typeof row.id !== 'string' || !isCount(row.matched) || !isCount(row.shown) || !byImpact) return null;
    rows.push({ id: row.id, matched: row.matched, shown: row.shown, by_impact: byImpact });
  }
  return rows;
}

function quarterRows(value: unknown): QuarterCount[] {
  if (!Array.isArray(value)) return [];
  return (value as Array<Record<string, unknown>>).filter(
    (row): row is Record<string, unknown> & QuarterCount =>
      !!row && typeof row.quarter === 'string' && /^\d{4}-Q[1-4]$/.test(row.quarter) && isCount(row.milestones) && !!row.by_jurisdiction && typeof row.by_jurisdiction === 'object',
  );
}

/** The items as the engine's summary counts them (their upcoming timeline as window milestones). */
function instrumentOf(item: SnapshotItem): MatchedInstrument {
  const upcoming = (item.timeline ?? []).filter((m) => m.status === 'upcoming');
  return { ...item, milestone: item.milestone ?? '', window_milestones: upcoming.map((m) => ({ date: m.date, precision: m.precision })) };
}

function stageCounts(value: unknown): Map<string, number> | null {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
  const entries = Object.entries(value as Record<string, unknown>);
  return entries.every(([, n]) => isCount(n)) ? new Map(entries as Array<[string, number]>) : null;
}

function stringList(value: unknown): string[] | null {
  return Array.isArray(value) && value.every((v) => typeof v === 'string') ? (value as string[]) : null;
}

export function matchedFacts(snapshot: RenderSnapshot): MatchedFacts {
  const items = snapshot.data?.items ?? [];
  const meta = (snapshot.data?._meta ?? {}) as Record<string, unknown>;
  const summary = (meta.matched_summary ?? null) as Record<string, unknown> | null;
  const byImpact = impactRecord(summary?.by_impact);
  const jurisdictions = countRows(summary?.by_jurisdiction);
  const areas = countRows(summary?.by_area);
  if (summary && isCount(summary.count) && summary.count >= items.length && byImpact && jurisdictions && areas) {
    return {
      total: summary.count,
      counted: summary.count,
      shown: items.length,
      capped: summary.count > items.length,
      byImpact,
      byStage: stageCounts(summary.by_stage) ?? countBy(items, (item) => item.stage),
      jurisdictions,
      areas,
      quarters: quarterRows(summary.by_quarter),
      undatedInQuarter: isCount(summary.undated_in_quarter) ? summary.undated_in_quarter : 0,
    };
  }
  // No summary: count the items with the engine's own summary (items of unknown impact or confidence left out).
  const counted = items.filter((item) => IMPACT_KEYS.includes(item.impact) && CONFIDENCES.includes(item.date_confidence));
  const requested = {
    jurisdictions: stringList(meta.matched_jurisdictions) ?? snapshot.config?.jurisdictions ?? [],
    areas: stringList(meta.matched_areas) ?? snapshot.config?.areas ?? [],
  };
  const own = summariseMatched(counted.map(instrumentOf), new Set(counted.map((item) => item.id)), requested);
  const matchedCount = isCount(meta.matched_count) ? Math.max(meta.matched_count, items.length) : items.length;
  return {
    total: matchedCount,
    counted: items.length,
    shown: items.length,
    capped: matchedCount > items.length,
    byImpact: own.by_impact,
    byStage: new Map(Object.entries(own.by_stage)),
    jurisdictions: own.by_jurisdiction,
    areas: own.by_area,
    quarters: own.by_quarter,
    undatedInQuarter: own.undated_in_quarter,
  };
}

/** "0 of 7 shown" when the cap left some of the row's instruments out; "12" when all are shown. */
export function shownOf(row: MatchedCount): string {
  return row.shown < row.matched ? `${row.shown} of ${row.matched} shown` : String(row.matched);
}

/** "Singapore: 0 of 7 shown", or "EU: 12" when all are shown. */
export function shownOfLine(row: MatchedCount): string {
  return `${row.id}: ${shownOf(row)}`;
}

/**
 * The first tile's label, for the value `facts.counted`: "Matching instruments", "Matching, 40 shown" when the cap
 * left some out, or "Shown, of 240 matching" when only the shown ones were counted.
 */
export function totalTileLabel(facts: MatchedFacts): string {
  if (facts.counted < facts.total) return `Shown, of ${facts.total} matching`;
  return facts.capped ? `Matching, ${facts.shown} shown` : 'Matching instruments';
}

/** Every quarter from the one holding `from` to the one holding `to`, as "2027-Q1". */
export function quartersBetween(from: string, to: string): string[] {
  const quarters: string[] = [];
  let year = Number(from.slice(0, 4));
  let quarter = Math.ceil(Number(from.slice(5, 7)) / 3);
  const last = isoPeriod(to, 'quarter');
  for (let guard = 0; guard < 80; guard++) {
    const label = `${year}-Q${quarter}`;
    quarters.push(label);
    if (label === last) break;
    quarter += 1;
    if (quarter > 4) {
      quarter = 1;
      year += 1;
    }
  }
  return quarters;
}

export interface TimelineRow {
  jurisdiction: string;
  /** Milestones in each quarter, in the order of the quarters asked for. */
  counts: number[];
  /** "7 of 63 shown", or "12" when every matching instrument of the jurisdiction is shown. */
  shownOf: string;
}

/**
 * The grid's rows: every requested jurisdiction in request order (also one with nothing in any quarter, so none
 * silently disappears), then any other with a milestone, each with its counts and how many of its instruments
 * the artefact shows.
 */
export function timelineRows(facts: MatchedFacts, quarters: readonly string[]): TimelineRow[] {
  const byQuarter = new Map(facts.quarters.map((row) => [row.quarter, row.by_jurisdiction]));
  return facts.jurisdictions.map((row) => ({
    jurisdiction: row.id,
    counts: quarters.map((q) => byQuarter.get(q)?.[row.id] ?? 0),
    shownOf: shownOf(row),
  }));
}

/** "Q1 27": a quarter's column label. */
export function quarterLabel(quarter: string): string {
  const [year, q] = quarter.split('-');
  return `${q} ${year!.slice(2)}`;
}

/** The note under every timeline grid. */
export function timelineNote(total: number, shown: number, undated: number): string {
  const scope = shown < total ? ` (not only the ${shown} items shown)` : '';
  const placed = `Every milestone of the ${total} matching instrument${total === 1 ? '' : 's'} by quarter and jurisdiction${scope}.`;
  return undated > 0 ? `${placed} ${undated} more known only to a half-year or a year are not placed.` : placed;
}
