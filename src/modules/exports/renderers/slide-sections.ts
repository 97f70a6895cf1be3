/** The slide list shared by the PPTX deck and the web slides, and the packing of long lists onto slides. */
import type { SnapshotItem, SnapshotTrend } from '../../../engine/envelope.types';
import { groupByJurisdiction } from './item-grouping';
import { buildReferences, driftLine, keyDateLabel, type Reference, removalLabel } from './render-facts';
import { formatDate, scanDateOf, windowEndOf } from './render-dates';
import { matchedFacts, quartersBetween, type TimelineRow, timelineRows } from './matched-facts';
import { stripCites } from './render-text';
import type { RenderDrift, RenderInput } from './types';

/** Jurisdictions with at most this many items may share a slide. */
const SHARED_SLIDE_MAX_ITEMS = 2;

/** Page `page` of `pages` (1-based) of a section that continues over several slides. */
export interface SlidePage {
  page: number;
  pages: number;
}

/** One change against the previous scan, as the "Changes since" slides list it. */
export interface DriftEntry {
  change: 'new' | 'removed' | 'changed';
  title: string;
  /** "EU · expected H2 2026", "no longer in the calendar", "key date: 31 Jan 2027 → 1 Dec 2026; stage: …". */
  detail: string;
}

/** A trend card, or the part of one that continues from the previous slide when its text is too long for one. */
export interface TrendCard {
  trend: SnapshotTrend;
  description: string;
  continued: boolean;
}

/** The left column of a summary slide (the bottom line, in parts when long; the pull quote) and its priorities. */
export interface SummaryPage {
  lead: string[];
  quote: string | null;
  /** 1-based numbers run on across continuation slides. */
  priorities: Array<{ number: number; text: string }>;
}

/**
 * Sections of the slide exports (PPTX deck and web slides), in this order, one slide per entry:
 * 1. title (cover: briefing headline, selection, language notice);
 * 2. executive summary, continued on further slides when its priorities do not fit one
 *    (the first one also states the selection line and the disclaimer);
 * 3. "Changes since <date>", only when the input has drift, continued when long;
 * 3b. "Milestones by quarter": a quarter x jurisdiction grid of every matching instrument's upcoming milestones
 *    (pdf-timeline.ts), when the snapshot records them;
 * 4. per jurisdiction with items (groupByJurisdiction order), as many slides as its items need ("EU (2 of 3)");
 *    jurisdictions with one or two items share a slide when they fit on one ("Hong Kong · Canada"), each row's
 *    regulator then naming its jurisdiction, so a wide scan has no slides holding a single item;
 * 5. trends, as many slides as the cards need;
 * 6. sources: every de-duplicated reference (buildReferences), numbered as on the item slides, over as many
 *    slides as needed.
 * How much fits on one slide is the renderer's measure (SlideLayout), so the deck and the web slides of one
 * snapshot can differ in length; nothing is ever left out or cut.
 */
export type SlideSection =
  | { kind: 'title' }
  | ({ kind: 'summary' } & SlidePage & SummaryPage)
  | ({ kind: 'drift'; line: string; baselineDate: string; entries: DriftEntry[] } & SlidePage)
  | { kind: 'timeline'; quarters: string[]; rows: TimelineRow[]; total: number; shown: number; undated: number }
  | ({ kind: 'jurisdiction'; jurisdiction: string; total: number; first: number; items: SnapshotItem[] } & SlidePage)
  | ({ kind: 'trends'; cards: TrendCard[] } & SlidePage)
  | ({ kind: 'sources'; total: number; references: Reference[] } & SlidePage);

/** How a renderer splits each list into slides (from the measured height of each entry). */
export interface SlideLayout {
  summaryPages(bottomLine: string, quote: string | null, priorities: string[]): SummaryPage[];
  driftPages(line: string, entries: DriftEntry[]): DriftEntry[][];
  itemPages(items: SnapshotItem[]): SnapshotItem[][];
  trendPages(trends: SnapshotTrend[]): TrendCard[][];
  referencePages(references: Reference[]): Reference[][];
}

/** "EU", or "EU (2 of 3)" on a section that continues over several slides. */
export function pageLabel(name: string, page: SlidePage): string {
  return page.pages > 1 ? `${name} (${page.page} of ${page.pages})` : name;
}

export function slideSections(input: Pick<RenderInput, 'snapshot' | 'drift'>, layout: SlideLayout): SlideSection[] {
  const { snapshot } = input;
  const data = snapshot.data;
  const sections: SlideSection[] = [{ kind: 'title' }];
  const priorities = (data.executive_summary?.priorities ?? []).map(stripCites).filter((p) => p.length > 0);
  const quote = stripCites(data._briefing?.pull_quote) || null;
  const bottomLine = stripCites(data.executive_summary?.bottom_line) || '—';
  const emptySummary: SummaryPage = { lead: [bottomLine], quote, priorities: [] };
  sections.push(
    ...paged(layout.summaryPages(bottomLine, quote, priorities), emptySummary, (page, at) => ({ kind: 'summary', ...at, ...page })),
  );
  if (input.drift) {
    const drift = input.drift;
    const line = driftLine(drift);
    const baselineDate = formatDate(drift.baseline_created_at);
    const entries = driftEntries(drift, data.items ?? []);
    sections.push(
      ...paged(layout.driftPages(line, entries), [], (page, at) => ({ kind: 'drift', line, baselineDate, entries: page, ...at })),
    );
  }
  const matched = matchedFacts(snapshot);
  const end = windowEndOf(snapshot);
  if (end && matched.quarters.length > 0) {
    const quarters = quartersBetween(scanDateOf(snapshot), end);
    const rows = timelineRows(matched, quarters);
    if (rows.length > 0) sections.push({ kind: 'timeline', quarters, rows, total: matched.total, shown: matched.shown, undated: matched.undatedInQuarter });
  }
  let shared: { names: string[]; items: SnapshotItem[] } | null = null;
  const flushShared = () => {
    if (!shared) return;
    const { names, items } = shared;
    // A lone small jurisdiction keeps its plain slide; shared ones tag each row with its jurisdiction.
    const rows = names.length > 1 ? withJurisdiction(items) : items;
    sections.push({ kind: 'jurisdiction', jurisdiction: names.join(' · '), total: rows.length, first: 1, items: rows, page: 1, pages: 1 });
    shared = null;
  };
  for (const group of groupByJurisdiction(snapshot)) {
    if (group.items.length <= SHARED_SLIDE_MAX_ITEMS && layout.itemPages(group.items).length === 1) {
      const candidate = shared ? [...shared.items, ...group.items] : group.items;
      if (shared && layout.itemPages(withJurisdiction(candidate)).length === 1) {
        shared.names.push(group.jurisdiction);
        shared.items.push(...group.items);
        continue;
      }
      flushShared();
      shared = { names: [group.jurisdiction], items: [...group.items] };
      continue;
    }
    flushShared();
    let first = 1;
    sections.push(
      ...paged(layout.itemPages(group.items), [], (items, at) => {
        const section: SlideSection = {
          kind: 'jurisdiction',
          jurisdiction: group.jurisdiction,
          total: group.items.length,
          first,
          items,
          ...at,
        };
        first += items.length;
        return section;
      }),
    );
  }
  flushShared();
  sections.push(...paged(layout.trendPages(data.trends ?? []), [], (cards, at) => ({ kind: 'trends', cards, ...at })));
  const references = buildReferences(data.items ?? []).list;
  sections.push(
    ...paged(layout.referencePages(references), [], (page, at) => ({ kind: 'sources', total: references.length, references: page, ...at })),
  );
  return sections;
}

/** Items as a shared slide shows them: each row's regulator naming its jurisdiction ("HKMA · Hong Kong"). */
function withJurisdiction(items: readonly SnapshotItem[]): SnapshotItem[] {
  return items.map((item) => ({ ...item, regulator: `${item.regulator || '—'} · ${item.jurisdiction}` }));
}

/** At least one slide per section (`empty` when there is nothing), so an empty list still says so ("No sources cited."). */
function paged<T>(pages: T[], empty: T, make: (page: T, at: SlidePage) => SlideSection): SlideSection[] {
  const list = pages.length > 0 ? pages : [empty];
  return list.map((page, index) => make(page, { page: index + 1, pages: list.length }));
}

function valueText(field: string, value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'string') return /date/.test(field) ? formatDate(value) : value.replace(/_/g, ' ');
  if (Array.isArray(value)) return value.map((entry) => valueText(field, entry)).join(', ') || '—';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** New items, removed ones with the reason, and changed ones with each changed field, in that order. */
export function driftEntries(drift: RenderDrift, items: readonly SnapshotItem[]): DriftEntry[] {
  const byId = new Map(items.map((item) => [item.id, item]));
  const titleOf = (id: string, title: unknown): string => (typeof title === 'string' && title.trim() ? title : byId.get(id)?.title || id);
  const entries: DriftEntry[] = [];
  for (const added of drift.added ?? []) {
    const current = byId.get(added.id);
    const where = current ? [current.jurisdiction, keyDateLabel(current)] : [];
    entries.push({ change: 'new', title: titleOf(added.id, added.title), detail: where.filter((part) => part).join(' · ') });
  }
  for (const removed of drift.removed ?? []) {
    entries.push({
      change: 'removed',
      title: titleOf(removed.id, removed.title),
      detail: removalLabel(drift.removed_reasons?.[removed.id]),
    });
  }
  for (const changed of drift.changed ?? []) {
    const current = byId.get(changed.item_id);
    const fields = (changed.fields ?? []).map(({ field, before, after }) => {
      const now = field === 'key_date' && current ? keyDateLabel(current) : valueText(field, after);
      return `${field.replace(/_/g, ' ')}: ${valueText(field, before)} → ${now}`;
    });
    entries.push({ change: 'changed', title: titleOf(changed.item_id, changed.title), detail: fields.join('; ') });
  }
  return entries;
}

/**
 * Entries in order, as many per page as fit `capacity(pageIndex)` (same unit as `height`), spread evenly over
 * the fewest pages. An entry taller than a page gets a page of its own: callers split
 * such entries first (see splitWords).
 */
export function packByHeight<T>(entries: readonly T[], height: (entry: T) => number, capacity: (page: number) => number, gap = 0): T[][] {
  const heights = entries.map(height);
  const fewest = greedyPack(heights, capacity, gap);
  const even = fewest.length > 1 ? evenPack(heights, capacity, gap, fewest.length) : null;
  return (even ?? fewest).map((page) => page.map((index) => entries[index]!));
}

/**
 * The same number of pages with the entries spread evenly (a list of 13 goes 4-3-3-3, not 4-4-4-1): each page
 * takes entries up to its share of what is left; null when that would need more pages.
 */
function evenPack(heights: readonly number[], capacity: (page: number) => number, gap: number, count: number): number[][] | null {
  const pages: number[][] = [];
  let current: number[] = [];
  let used = 0;
  let left = heights.reduce((sum, h) => sum + h + gap, 0);
  for (let index = 0; index < heights.length; index++) {
    const h = heights[index]!;
    const share = left / (count - pages.length);
    const needed = current.length > 0 ? used + gap + h : h;
    if (current.length > 0 && (needed > capacity(pages.length) || used + gap + h / 2 > share)) {
      pages.push(current);
      left -= used + gap;
      current = [index];
      used = h;
    } else {
      current.push(index);
      used = needed;
    }
  }
  if (current.length > 0) pages.push(current);
  return pages.length === count ? pages : null;
}

/** Indexes of the entries on each page, filling each page as far as it goes. */
function greedyPack(heights: readonly number[], capacity: (page: number) => number, gap: number): number[][] {
  const pages: number[][] = [];
  let current: number[] = [];
  let used = 0;
  heights.forEach((h, index) => {
    const needed = current.length > 0 ? used + gap + h : h;
    if (current.length > 0 && needed > capacity(pages.length)) {
      pages.push(current);
      current = [index];
      used = h;
    } else {
      current.push(index);
      used = needed;
    }
  });
  if (current.length > 0) pages.push(current);
  return pages;
}

/**
 * Entries in `columns` columns per page, column after column, on the fewest pages, spread evenly over all the
 * columns of those pages; returns pages of entries in reading order.
 */
export function packColumns<T>(entries: readonly T[], height: (entry: T) => number, capacity: number, columns: number, gap = 0): T[][][] {
  const heights = entries.map(height);
  const filled = greedyPack(heights, () => capacity, gap);
  const target = Math.ceil(filled.length / columns) * columns;
  const cols = (filled.length > 1 ? evenPack(heights, () => capacity, gap, target) : null) ?? filled;
  const pages: T[][][] = [];
  for (let i = 0; i < cols.length; i += columns) pages.push(cols.slice(i, i + columns).map((col) => col.map((index) => entries[index]!)));
  return pages;
}

const CJK_TOKEN =
  /[\u2E80-\u9FFF\uAC00-\uD7AF\uF900-\uFAFF\uFF00-\uFFEF\u3000-\u303F]|[^\s\u2E80-\u9FFF\uAC00-\uD7AF\uF900-\uFAFF\uFF00-\uFFEF\u3000-\u303F]+\s*|\s+/gu;

/** Greedily joins `pieces` (each with its trailing space) into parts that satisfy `fits`; a piece that does not fit alone stands alone. */
function joinWhileFits(pieces: readonly string[], fits: (part: string) => boolean): string[] {
  const parts: string[] = [];
  let current = '';
  for (const piece of pieces) {
    const candidate = current + piece;
    if (current.trim() && !fits(candidate.trim())) {
      parts.push(current.trim());
      current = piece;
    } else {
      current = candidate;
    }
  }
  if (current.trim()) parts.push(current.trim());
  return parts;
}

/**
 * Text split into parts that each satisfy `fits`, for a paragraph too long for one slide: at sentence ends
 * where it can, else at word (or CJK character) boundaries; the rest continues on the next slide, nothing is cut.
 */
export function splitWords(text: string, fits: (part: string) => boolean): string[] {
  if (fits(text)) return [text];
  // Splitting after every full stop keeps every character: the pieces join back into the text.
  const sentences = text.split(/(?<=[.!?。！？])/u);
  return joinWhileFits(sentences, fits).flatMap((part) => (fits(part) ? [part] : joinWhileFits(part.match(CJK_TOKEN) ?? [part], fits)));
}
