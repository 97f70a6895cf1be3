/**
 * Geometry and measurement of the web slides. Every slide is a 1600 × 900 design-pixel frame scaled to the
 * window (CSS unit --u, slide-web-css.ts), so text wraps the same way at any window size; the fonts are
 * embedded (slide-web-fonts.ts) and measured here with the same files (fontkit advance widths, no kerning, as
 * the embedded subsets carry none), so the layout knows how tall each block will be and splits lists over
 * further slides instead of scrolling or clipping. Every number here has its twin in the CSS.
 */
import type { SnapshotItem, SnapshotTrend } from '../../../engine/envelope.types';
import { keyDateLabel, type Reference, type References, shortSource, sourceMeta } from './render-facts';
import { stripCites } from './render-text';
import {
  type DriftEntry,
  packByHeight,
  packColumns,
  type SlideLayout,
  splitWords,
  type SummaryPage,
  type TrendCard,
} from './slide-sections';
import { Svg, type SvgFonts } from './svg';

export const FRAME = { w: 1600, h: 900, padTop: 56, padX: 80, padBottom: 72, head: 92 };
export const INNER_W = FRAME.w - 2 * FRAME.padX;
/** Height of the content area under a slide's heading. */
export const BODY_H = FRAME.h - FRAME.padTop - FRAME.padBottom - FRAME.head;
/** Height of a title slide's content. */
export const TITLE_H = FRAME.h - FRAME.padTop - FRAME.padBottom;
/** Lines are measured this much narrower than their box (browsers break lines a little differently). */
const WIDTH_MARGIN = 0.97;

/** Item rows: when | what | tags. */
export const ITEM = { when: 190, tags: 200, gap: 28, padY: 14, bar: 4, padLeft: 16, main: INNER_W - 4 - 16 - 190 - 200 - 2 * 28 };
export const TREND = { gap: 24, rowGap: 20, padY: 20, padX: 24, top: 3, w: (INNER_W - 24) / 2 };
export const SOURCES = { gap: 40, w: (INNER_W - 40) / 2, entryGap: 12 };
export const DRIFT = { label: 140, gap: 20, padY: 10, main: INNER_W - 140 - 20 };
export const SUMMARY = { gap: 48, col: (INNER_W - 48) / 2, panelPadY: 24, panelPadX: 28, panelBar: 4, kicker: 28, number: 30, bandGap: 20 };
const LEAD_SIZES = [26, 24, 22, 20, 18] as const;
const PRIORITY_SIZES = [20, 19, 18, 17] as const;

/**
 * Type size (design px) of each text style; the CSS uses the same. Body text and lists are at least 17 design px,
 * so they read at 14 px or more in a 1366 x 768 window (the frame scales to 0.85) and 16 px in print; secondary
 * lines (dates' milestones, sources, regulators) at least 15.
 */
export const TEXT = { h3: 20, body: 17, small: 15, date: 17, url: 15, driftTitle: 18, driftDetail: 16 };

/** Line height (design px) of each text style; the CSS uses the same. */
export const LINE = {
  h3: 25,
  body: 24,
  small: 21,
  date: 23,
  url: 20,
  driftTitle: 24,
  driftDetail: 22,
  lead: (size: number) => Math.round(size * 1.4),
  priority: (size: number) => Math.round(size * 1.4),
};

export class WebMeasure {
  private readonly body: Svg;
  private readonly head: Svg;

  constructor(bodyFonts: SvgFonts, headFonts: SvgFonts) {
    this.body = new Svg(1, 1, bodyFonts);
    this.head = new Svg(1, 1, headFonts);
  }

  /** Lines `text` wraps to at `size` px in `width` px (at least one). */
  lines(text: string, size: number, width: number, options: { bold?: boolean; head?: boolean; letterSpacing?: number } = {}): number {
    const clean = text.replace(/\s+/g, ' ').trim();
    if (!clean) return 1;
    const svg = options.head ? this.head : this.body;
    return Math.max(1, svg.wrap(clean, size, width * WIDTH_MARGIN, options.bold ?? false, options.letterSpacing ?? 0).lines.length);
  }

  fitsOneLine(text: string, size: number, width: number, options: { bold?: boolean; head?: boolean } = {}): boolean {
    return this.lines(text, size, width, options) === 1;
  }
}

/** The texts of an item row, as slide-web-slides.ts prints them. */
export function itemTexts(
  item: SnapshotItem,
  references: References,
): { date: string; milestone: string; summary: string; implications: string; source: string } {
  const numbers = references.itemNumbers(item).map((n) => `[${n}]`);
  return {
    date: keyDateLabel(item),
    milestone: (item.milestone ?? '').trim(),
    summary: stripCites(item.summary),
    implications: stripCites(item.implications),
    source: [...numbers, shortSource(item) ?? 'No source cited'].join(' '),
  };
}

export function itemHeight(m: WebMeasure, item: SnapshotItem, references: References): number {
  const t = itemTexts(item, references);
  const when =
    LINE.date * m.lines(t.date, TEXT.date, ITEM.when, { bold: true }) +
    (t.milestone ? 4 + LINE.small * m.lines(`— ${t.milestone}`, TEXT.small, ITEM.when) : 0);
  const main =
    LINE.h3 * m.lines(item.title, TEXT.h3, ITEM.main, { bold: true, head: true }) +
    6 +
    (t.summary ? LINE.body * m.lines(t.summary, TEXT.body, ITEM.main) + 6 : 0) +
    (t.implications ? LINE.body * m.lines(`Implications: ${t.implications}`, TEXT.body, ITEM.main) + 6 : 0) +
    LINE.small * m.lines(t.source, TEXT.small, ITEM.main);
  const tags = 22 + 6 + 22 + 6 + LINE.small * m.lines(item.regulator || '—', TEXT.small, ITEM.tags);
  return 2 * ITEM.padY + 1 + Math.max(when, main, tags);
}

export function trendRelated(trend: SnapshotTrend, items: readonly SnapshotItem[]): string {
  const byId = new Map(items.map((item) => [item.id, item]));
  return (trend.item_ids ?? [])
    .map((id) => byId.get(id))
    .filter((item): item is SnapshotItem => item !== undefined)
    .map((item) => `${item.title} (${item.jurisdiction})`)
    .join(' · ');
}

export function referenceMeta(reference: Reference): string {
  const { citation } = reference;
  return sourceMeta(citation);
}

export function driftLabel(entry: DriftEntry): string {
  return entry.change === 'new' ? 'New' : entry.change === 'removed' ? 'Removed' : 'Changed';
}

/** Pages of every list of the web slides, from measured heights. */
export class WebLayout implements SlideLayout {
  leadSize: number = LEAD_SIZES[0];
  prioritySize: number = PRIORITY_SIZES[0];

  constructor(
    private readonly m: WebMeasure,
    private readonly references: References,
    private readonly items: readonly SnapshotItem[],
    /** Height of the selection and disclaimer band of the first summary slide. */
    private readonly bandHeight: number,
  ) {}

  summaryColumnHeight(page: number): number {
    return BODY_H - (page === 0 ? this.bandHeight + SUMMARY.bandGap : 0);
  }

  private leadWidth(): number {
    return SUMMARY.col - SUMMARY.panelBar - 2 * SUMMARY.panelPadX;
  }

  leadHeight(text: string, size = this.leadSize): number {
    return LINE.lead(size) * this.m.lines(text, size, this.leadWidth(), { head: true }) + 12;
  }

  quoteHeight(quote: string): number {
    return 16 + 27 * this.m.lines(quote, 19, this.leadWidth(), { head: true });
  }

  priorityHeight(text: string, size = this.prioritySize): number {
    return LINE.priority(size) * this.m.lines(text, size, SUMMARY.col - SUMMARY.number) + 12;
  }

  summaryPages(bottomLine: string, quote: string | null, priorities: string[]): SummaryPage[] {
    const leadRoom = (page: number): number => this.summaryColumnHeight(page) - 2 * SUMMARY.panelPadY - SUMMARY.kicker;
    const priorityRoom = (page: number): number => this.summaryColumnHeight(page) - SUMMARY.panelPadY - SUMMARY.kicker;
    const quoteH = quote ? this.quoteHeight(quote) : 0;
    for (const size of LEAD_SIZES) {
      this.leadSize = size;
      if (this.leadHeight(bottomLine) + quoteH <= leadRoom(0)) break;
    }
    const leads = splitWords(bottomLine, (part) => this.leadHeight(part) <= leadRoom(0));
    type Block = { lead: string } | { quote: string };
    const blocks: Block[] = [...leads.map((lead) => ({ lead })), ...(quote ? [{ quote }] : [])];
    const left = packByHeight(blocks, (block) => ('lead' in block ? this.leadHeight(block.lead) : quoteH), leadRoom);
    for (const size of PRIORITY_SIZES) {
      this.prioritySize = size;
      if (priorities.reduce((sum, text) => sum + this.priorityHeight(text), 0) <= priorityRoom(0)) break;
    }
    const numbered = priorities.map((text, index) => ({ number: index + 1, text }));
    const right = packByHeight(numbered, (p) => this.priorityHeight(p.text), priorityRoom);
    const pages = Math.max(left.length, right.length, 1);
    return Array.from({ length: pages }, (_, page) => {
      const here = left[page] ?? [];
      return {
        lead: here.flatMap((block) => ('lead' in block ? [block.lead] : [])),
        quote: here.some((block) => 'quote' in block) ? quote : null,
        priorities: right[page] ?? [],
      };
    });
  }

  driftLineHeight(line: string): number {
    return 26 * this.m.lines(line, 18, INNER_W) + 16;
  }

  driftHeight(entry: DriftEntry): number {
    const main =
      LINE.driftTitle * this.m.lines(entry.title, TEXT.driftTitle, DRIFT.main, { bold: true }) +
      (entry.detail ? 2 + LINE.driftDetail * this.m.lines(entry.detail, TEXT.driftDetail, DRIFT.main) : 0);
    return 2 * DRIFT.padY + 1 + Math.max(LINE.small, main);
  }

  driftPages(line: string, entries: DriftEntry[]): DriftEntry[][] {
    const first = this.driftLineHeight(line);
    return packByHeight(
      entries,
      (entry) => this.driftHeight(entry),
      (page) => BODY_H - (page === 0 ? first : 0),
    );
  }

  itemPages(items: SnapshotItem[]): SnapshotItem[][] {
    return packByHeight(
      items,
      (item) => itemHeight(this.m, item, this.references),
      () => BODY_H,
    );
  }

  trendHeight(card: TrendCard): number {
    const inner = TREND.w - 2 * TREND.padX;
    const title = `${card.trend.title}${card.continued ? ' (continued)' : ''}`;
    const related = card.continued ? '' : trendRelated(card.trend, this.items);
    return (
      TREND.top +
      2 * TREND.padY +
      16 +
      8 +
      LINE.h3 * this.m.lines(title, TEXT.h3, inner, { bold: true, head: true }) +
      8 +
      LINE.body * this.m.lines(card.description, TEXT.body, inner) +
      (related ? 8 + LINE.small * this.m.lines(related, TEXT.small, inner) : 0)
    );
  }

  trendPages(trends: SnapshotTrend[]): TrendCard[][] {
    const cards = trends.flatMap((trend) =>
      splitWords(
        stripCites(trend.description),
        (part) => this.trendHeight({ trend, description: part, continued: true }) + 40 <= BODY_H,
      ).map((description, index): TrendCard => ({ trend, description, continued: index > 0 })),
    );
    const rows: TrendCard[][] = [];
    for (let i = 0; i < cards.length; i += 2) rows.push(cards.slice(i, i + 2));
    return packByHeight(
      rows,
      (row) => Math.max(...row.map((card) => this.trendHeight(card))),
      () => BODY_H,
      TREND.rowGap,
    ).map((page) => page.flat());
  }

  referenceHeight(reference: Reference): number {
    const { citation, number } = reference;
    const meta = referenceMeta(reference);
    const line = `[${number}] ${citation.title || citation.url || 'Untitled source'}${meta ? ` — ${meta}` : ''}`;
    return (
      LINE.body * this.m.lines(line, TEXT.body, SOURCES.w) +
      (citation.url ? LINE.url * this.m.lines(citation.url, TEXT.url, SOURCES.w) : 0) +
      SOURCES.entryGap
    );
  }

  referencePages(references: Reference[]): Reference[][] {
    return packColumns(references, (reference) => this.referenceHeight(reference), BODY_H, 2).map((page) => page.flat());
  }

  /** A sources page split into its two columns again, as referencePages made them. */
  referenceColumns(references: Reference[]): Reference[][] {
    return packColumns(references, (reference) => this.referenceHeight(reference), BODY_H, 2)[0] ?? [];
  }
}
