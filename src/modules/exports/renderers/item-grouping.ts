/** Ordering and grouping of snapshot items shared by the renderers. */
import type { Citation, SnapshotItem, SnapshotTrend } from '../../../engine/envelope.types';
import type { RenderSnapshot } from './types';
import { scanDateOf } from './render-dates';
import { isFirmDate } from './render-facts';

const IMPACT_RANK: Readonly<Record<string, number>> = { high: 0, medium: 1, low: 2 };

/** Key date order; an item with no date goes last, not first. */
export function sortItems(items: readonly SnapshotItem[]): SnapshotItem[] {
  return [...items].sort(
    (a, b) =>
      (a.key_date || '\uffff').localeCompare(b.key_date || '\uffff') ||
      (IMPACT_RANK[a.impact] ?? 9) - (IMPACT_RANK[b.impact] ?? 9) ||
      (a.title ?? '').localeCompare(b.title ?? ''),
  );
}

export interface JurisdictionSection {
  jurisdiction: string;
  items: SnapshotItem[];
}

/**
 * Items grouped by jurisdiction. Sections follow the scan config's jurisdiction order (matched case-insensitively),
 * then any other jurisdiction alphabetically; items within a section by key date, then impact, then title.
 */
export function groupByJurisdiction(snapshot: RenderSnapshot): JurisdictionSection[] {
  const groups = new Map<string, SnapshotItem[]>();
  for (const item of snapshot.data?.items ?? []) {
    const key = item.jurisdiction || 'Other';
    const list = groups.get(key);
    if (list) list.push(item);
    else groups.set(key, [item]);
  }
  const requested = (snapshot.config?.jurisdictions ?? []).map((name) => name.toLowerCase());
  const rank = (name: string): number => {
    const index = requested.indexOf(name.toLowerCase());
    return index === -1 ? requested.length : index;
  };
  return [...groups.entries()]
    .sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b))
    .map(([jurisdiction, items]) => ({ jurisdiction, items: sortItems(items) }));
}

/** Every citation of the items, once, by id. */
export function allCitations(items: readonly SnapshotItem[]): Citation[] {
  const byId = new Map<number, Citation>();
  for (const item of items) for (const citation of item.citations ?? []) if (!byId.has(citation.id)) byId.set(citation.id, citation);
  return [...byId.values()].sort((a, b) => a.id - b.id);
}

export function countBy<T>(values: readonly T[], key: (value: T) => string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(key(value), (counts.get(key(value)) ?? 0) + 1);
  return counts;
}

/**
 * Items with the next key dates on or after the scan date, soonest first; firm dates before placeholders and
 * estimates, so "next" never rests on a date nobody has fixed.
 */
export function upcomingItems(snapshot: RenderSnapshot, limit: number): SnapshotItem[] {
  const from = scanDateOf(snapshot);
  const items = sortItems(snapshot.data?.items ?? []).sort((a, b) => Number(!isFirmDate(a)) - Number(!isFirmDate(b)));
  const ahead = items.filter((item) => (item.key_date ?? '') >= from);
  return (ahead.length > 0 ? ahead : items).slice(0, limit);
}

export function trendItems(trend: SnapshotTrend, items: readonly SnapshotItem[]): SnapshotItem[] {
  const byId = new Map(items.map((item) => [item.id, item]));
  return (trend.item_ids ?? []).map((id) => byId.get(id)).filter((item): item is SnapshotItem => item !== undefined);
}
