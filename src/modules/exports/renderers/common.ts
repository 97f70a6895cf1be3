/**
 * Helpers shared by the renderers: file names, dates, labels, grouping and the section list of the slide exports.
 */
import type { Citation, DateConfidence, Impact, ItemStage, SnapshotItem, SnapshotTrend } from '../../../engine/envelope.types';
import { formatLongDate as formatLongCalendarDate, formatShortDate, isIsoDate } from '../../../engine/analysis/dates';
import type { RenderSnapshot } from './types';

/** "31 Dec 2026"; the date part of a timestamp is used, and anything else is returned as is. */
export function formatDate(iso: string | null | undefined): string {
  const day = (iso ?? '').slice(0, 10);
  return isIsoDate(day) ? formatShortDate(day) : (iso ?? '');
}

/** "31 December 2026". */
export function formatLongDate(iso: string | null | undefined): string {
  const day = (iso ?? '').slice(0, 10);
  return isIsoDate(day) ? formatLongCalendarDate(day) : (iso ?? '');
}

/** The scan date (YYYY-MM-DD): the engine's `_meta.scan_date` when present, else the snapshot's creation date. */
export function scanDateOf(snapshot: RenderSnapshot): string {
  const meta = snapshot.data?._meta as Record<string, unknown> | undefined;
  const fromMeta = typeof meta?.scan_date === 'string' ? meta.scan_date.slice(0, 10) : '';
  if (isIsoDate(fromMeta)) return fromMeta;
  const created = (snapshot.created_at ?? '').slice(0, 10);
  return isIsoDate(created) ? created : new Date(0).toISOString().slice(0, 10);
}

/** Last day of the horizon (`_meta.window_end` when present). */
export function windowEndOf(snapshot: RenderSnapshot): string | null {
  const meta = snapshot.data?._meta as Record<string, unknown> | undefined;
  const end = typeof meta?.window_end === 'string' ? meta.window_end.slice(0, 10) : '';
  return isIsoDate(end) ? end : null;
}

function asciiSlug(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/**
 * Safe ASCII file name: `regulatory-horizon-<jurisdictions>-<scan date>[-<suffix>].<ext>`,
 * e.g. regulatory-horizon-eu-uk-2026-11-22.pdf. Jurisdictions that have no ASCII letters are left out.
 */
export function artefactFilename(snapshot: RenderSnapshot, extension: string, suffix = ''): string {
  const parts = (snapshot.config?.jurisdictions ?? []).map(asciiSlug).filter((part) => part.length > 0);
  let scope = parts.join('-');
  if (scope.length > 60) scope = scope.slice(0, 60).replace(/-[^-]*$/, '');
  const name = ['regulatory-horizon', scope || 'scan', scanDateOf(snapshot), asciiSlug(suffix)].filter((part) => part.length > 0).join('-');
  return `${name}.${asciiSlug(extension) || 'bin'}`;
}

const CITE = /\s*\[\[cite:(\d+)\]\]/g;

/** Prose without [[cite:N]] markers. */
export function stripCites(text: string | null | undefined): string {
  return (text ?? '').replace(CITE, '').trim();
}

/** Prose with [[cite:N]] markers turned into "[N]" (adjacent markers merge: "[1, 4]"). */
export function citesToNumbers(text: string | null | undefined): string {
  return (text ?? '')
    .replace(/(?:\s*\[\[cite:\d+\]\])+/g, (run) => ` [${[...run.matchAll(/\[\[cite:(\d+)\]\]/g)].map((m) => m[1]).join(', ')}]`)
    .trim();
}

/** Paragraphs of a prose block (blank-line separated). */
export function paragraphs(text: string): string[] {
  return text
    .split(/\n\s*\n/)
    .map((part) => part.replace(/\s*\n\s*/g, ' ').trim())
    .filter((part) => part.length > 0);
}

export const STAGE_LABELS: Readonly<Record<ItemStage, string>> = {
  proposed: 'Proposed',
  consultation: 'Consultation',
  adopted: 'Adopted',
  in_force: 'In force',
  applies: 'Applies',
};
export const CONFIDENCE_LABELS: Readonly<Record<DateConfidence, string>> = {
  confirmed: 'Confirmed',
  expected: 'Expected',
  speculative: 'Estimated',
};
export const IMPACT_LABELS: Readonly<Record<Impact, string>> = { high: 'High', medium: 'Medium', low: 'Low' };
export const IMPACTS: readonly Impact[] = ['high', 'medium', 'low'];
const IMPACT_RANK: Readonly<Record<string, number>> = { high: 0, medium: 1, low: 2 };

export function label<K extends string>(labels: Readonly<Record<K, string>>, value: string): string {
  return (labels as Record<string, string>)[value] ?? value.replace(/_/g, ' ');
}

export function sortItems(items: readonly SnapshotItem[]): SnapshotItem[] {
  return [...items].sort(
    (a, b) =>
      (a.key_date ?? '').localeCompare(b.key_date ?? '') ||
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

/** Items with the next key dates on or after the scan date, soonest first. */
export function upcomingItems(snapshot: RenderSnapshot, limit: number): SnapshotItem[] {
  const from = scanDateOf(snapshot);
  const items = sortItems(snapshot.data?.items ?? []);
  const ahead = items.filter((item) => (item.key_date ?? '') >= from);
  return (ahead.length > 0 ? ahead : items).slice(0, limit);
}

export function horizonText(snapshot: RenderSnapshot): string {
  const months = snapshot.config?.horizon;
  const end = windowEndOf(snapshot);
  const base = typeof months === 'number' ? `${months} month${months === 1 ? '' : 's'}` : '';
  return end ? `${base} (to ${formatDate(end)})`.trim() : base;
}

export function listText(values: readonly string[] | undefined): string {
  return (values ?? []).filter((value) => value.length > 0).join(', ') || '—';
}

export function trendItems(trend: SnapshotTrend, items: readonly SnapshotItem[]): SnapshotItem[] {
  const byId = new Map(items.map((item) => [item.id, item]));
  return (trend.item_ids ?? []).map((id) => byId.get(id)).filter((item): item is SnapshotItem => item !== undefined);
}

export function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

const WIDE = /[\u1100-\u115F\u2E80-\uA4CF\uAC00-\uD7A3\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFF60\uFFE0-\uFFE6]/u;

/**
 * Truncate to `max` columns with an ellipsis, where a wide (CJK) character takes two columns, so a limit
 * that suits Latin text does not let Chinese or Japanese text run twice as wide.
 */
export function truncate(text: string, max: number): string {
  const chars = [...text];
  const widths = chars.map((char) => (WIDE.test(char) ? 2 : 1));
  if (widths.reduce((sum, width) => sum + width, 0) <= max) return text;
  let cut = 0;
  let used = 0;
  while (cut < chars.length && used + widths[cut]! <= max - 1) used += widths[cut++]!;
  return `${chars
    .slice(0, cut)
    .join('')
    .replace(/[\s,;:.\-–—]+$/, '')}…`;
}

/**
 * Sections of the slide exports (PPTX deck and web slides), one slide each, in this order:
 * 1. title; 2. executive summary; 3..n. one per jurisdiction with items (groupByJurisdiction order);
 * then trends; then sources. A scan with J jurisdictions holding items has J + 4 slides.
 */
export type SlideSection =
  | { kind: 'title' }
  | { kind: 'summary' }
  | { kind: 'jurisdiction'; section: JurisdictionSection }
  | { kind: 'trends' }
  | { kind: 'sources' };

export function slideSections(snapshot: RenderSnapshot): SlideSection[] {
  return [
    { kind: 'title' },
    { kind: 'summary' },
    ...groupByJurisdiction(snapshot).map((section): SlideSection => ({ kind: 'jurisdiction', section })),
    { kind: 'trends' },
    { kind: 'sources' },
  ];
}

/** Only http(s) URLs are linked; anything else is shown as text. */
export function safeHttpUrl(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.toString() : null;
  } catch {
    return null;
  }
}

/** Every user-visible string of the snapshot (for picking a font that covers them). */
export function snapshotTexts(snapshot: RenderSnapshot): string[] {
  const data = snapshot.data;
  const texts: string[] = [
    snapshot.title ?? '',
    ...(snapshot.config?.jurisdictions ?? []),
    ...(snapshot.config?.areas ?? []),
    snapshot.config?.engine ?? '',
  ];
  for (const item of data?.items ?? []) {
    texts.push(item.title, item.jurisdiction, item.area, item.regulator, item.instrument_type, item.summary, item.implications);
    for (const citation of item.citations ?? []) texts.push(citation.title, citation.publisher, citation.url);
    for (const pass of item.verification?.passes ?? []) texts.push(pass.note);
  }
  for (const trend of data?.trends ?? [])
    texts.push(trend.title, trend.description, ...(trend.jurisdictions ?? []), ...(trend.areas ?? []));
  texts.push(data?.executive_summary?.bottom_line ?? '', ...(data?.executive_summary?.priorities ?? []), data?.executive_narrative ?? '');
  const briefing = data?._briefing;
  if (briefing) {
    texts.push(
      briefing.briefing_headline,
      briefing.briefing_standfirst,
      ...(briefing.priorities ?? []),
      briefing.bottom_line_tight,
      briefing.pull_quote,
      briefing.sentiment_label,
      briefing.sentiment_rationale,
    );
  }
  return texts.filter((text): text is string => typeof text === 'string' && text.length > 0);
}
