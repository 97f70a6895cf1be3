/** The PPTX deck's themes, slide frame, measured text boxes and paragraphs, and its pagination (DeckLayout). */
import type PptxGenJS from 'pptxgenjs';
import type { SnapshotItem, SnapshotTrend } from '../../../engine/envelope.types';
import { IMPACT_LABELS, label, STAGE_LABELS } from './item-labels';
import { keyDateLabel, type Reference, type References, shortSource, sourceMeta } from './render-facts';
import { safeHttpUrl, stripCites } from './render-text';
import {
  CONTENT_BOTTOM,
  CONTENT_TOP,
  CONTENT_W,
  type DeckMeasure,
  type DeckParas,
  DRIFT_ROW,
  H,
  itemRowHeight,
  MARGIN,
  type Para,
  pptxRuns,
  SOURCE_COLUMN,
  SUMMARY,
  TREND_CARD,
  TREND_SIZES,
  trendCardHeight,
  W,
} from './slide-deck-layout';
import {
  type DriftEntry,
  packByHeight,
  packColumns,
  type SlideLayout,
  splitWords,
  type SummaryPage,
  type TrendCard,
} from './slide-sections';
import type { RenderSnapshot } from './types';

export interface Theme {
  background: string;
  panel: string;
  text: string;
  muted: string;
  accent: string;
  rule: string;
  impact: Record<string, string>;
}

export const THEMES: Record<'light' | 'dark', Theme> = {
  dark: {
    background: '0B1F3A',
    panel: '13294B',
    text: 'F2F4F7',
    muted: 'A9B7CC',
    accent: 'C9A227',
    rule: '2A4470',
    impact: { high: 'F97066', medium: 'FDB022', low: '98A2B3' },
  },
  light: {
    background: 'FFFFFF',
    panel: 'F2F4F7',
    text: '101828',
    muted: '667085',
    accent: '1F3A5F',
    rule: 'D0D5DD',
    impact: { high: 'B42318', medium: 'B54708', low: '475467' },
  },
};

export interface DeckContext {
  pptx: PptxGenJS;
  theme: Theme;
  face: string;
  lang: string;
  snapshot: RenderSnapshot;
  measure: DeckMeasure;
  references: References;
  /** Footer text of every slide but the title. */
  footer: string;
}

export const CONTENT_H = CONTENT_BOTTOM - CONTENT_TOP;

function textOptions(ctx: DeckContext): PptxGenJS.TextPropsOptions {
  return { fontFace: ctx.face, lang: ctx.lang, color: ctx.theme.text, margin: 0, valign: 'top', fit: 'none' };
}

/** A text box as tall as its measured paragraphs; returns that height (inches). */
export function addBox(slide: PptxGenJS.Slide, ctx: DeckContext, paras: Para[], x: number, y: number, w: number): number {
  const h = ctx.measure.boxHeight(paras, w);
  slide.addText(pptxRuns(paras, textOptions(ctx)), { ...textOptions(ctx), x, y, w, h });
  return h;
}

export function rect(slide: PptxGenJS.Slide, ctx: DeckContext, x: number, y: number, w: number, h: number, color: string): void {
  slide.addShape(ctx.pptx.ShapeType.rect, { x, y, w, h, fill: { color }, line: { color } });
}

/** A content slide: accent bar and title (measured, shrunk from 26 pt if long), footer and slide number. */
export function newSlide(ctx: DeckContext, title: string, subtitle = ''): PptxGenJS.Slide {
  const slide = ctx.pptx.addSlide();
  slide.background = { color: ctx.theme.background };
  rect(slide, ctx, MARGIN, 0.45, 0.08, 0.55, ctx.theme.accent);
  const w = CONTENT_W - 0.2;
  const make = (size: number): Para[] => [
    { size, runs: [{ text: title, bold: true }, ...(subtitle ? [{ text: `   ${subtitle}`, color: ctx.theme.muted }] : [])] },
  ];
  const size = ctx.measure.fitSize([26, 22, 18, 15], 0.75, (s) => ctx.measure.boxHeight(make(s), w));
  addBox(slide, ctx, make(size), MARGIN + 0.2, 0.4, w);
  addBox(slide, ctx, [{ size: 9, runs: [{ text: ctx.footer, color: ctx.theme.muted }] }], MARGIN, H - 0.42, CONTENT_W - 1);
  slide.slideNumber = {
    x: W - MARGIN - 0.6,
    y: H - 0.42,
    w: 0.6,
    h: 0.2,
    fontSize: 9,
    color: ctx.theme.muted,
    fontFace: ctx.face,
    align: 'right',
  };
  return slide;
}

function referenceUrl(ctx: DeckContext, number: number): string | null {
  return safeHttpUrl(ctx.references.list[number - 1]?.citation.url);
}

/** Paragraphs of the item rows and trend cards; the same ones are measured for pagination and drawn. */
export function deckParas(ctx: DeckContext): DeckParas {
  const { theme } = ctx;
  return {
    when: (item) => {
      const milestone = (item.milestone ?? '').trim();
      return [
        {
          size: 11,
          runs: [{ text: keyDateLabel(item), bold: true }, ...(milestone ? [{ text: ` — ${milestone}`, color: theme.muted }] : [])],
        },
      ];
    },
    main: (item) => {
      const numbers = ctx.references.itemNumbers(item);
      const source = shortSource(item);
      const refs = numbers.flatMap((n, i) => [
        ...(i > 0 ? [{ text: ' ' }] : []),
        { text: `[${n}]`, bold: true, color: theme.accent, link: referenceUrl(ctx, n) },
      ]);
      const sourceRun = source
        ? { text: `${refs.length > 0 ? '  ' : ''}${source}`, color: theme.muted, link: safeHttpUrl(item.citations?.[0]?.url) }
        : { text: 'No source cited', color: theme.muted };
      return [
        { size: 13, runs: [{ text: item.title, bold: true }] },
        { size: 10, before: 3, runs: [...refs, sourceRun] },
      ];
    },
    tags: (item) => [
      {
        size: 11,
        runs: [
          { text: `${label(IMPACT_LABELS, item.impact)} impact`, bold: true, color: theme.impact[item.impact] ?? theme.text },
          { text: ` · ${label(STAGE_LABELS, item.stage)}` },
        ],
      },
      { size: 10, before: 2, runs: [{ text: item.regulator || '—', color: theme.muted }] },
    ],
    trend: (trend, description, continued, size) => [
      { size: 16, runs: [{ text: `${trend.title}${continued ? ' (continued)' : ''}`, bold: true }] },
      { size, before: 4, runs: [{ text: description, color: theme.muted }] },
    ],
  };
}

export function referenceParas(ctx: DeckContext, reference: Reference): Para[] {
  const { citation, number } = reference;
  const url = safeHttpUrl(citation.url);
  const meta = sourceMeta(citation);
  return [
    {
      size: 11,
      runs: [
        { text: `[${number}]`, bold: true, color: ctx.theme.accent, link: url },
        { text: ' ' },
        { text: citation.title || citation.url || 'Untitled source', color: ctx.theme.text },
        ...(meta ? [{ text: ` — ${meta}`, color: ctx.theme.muted }] : []),
      ],
    },
    ...(citation.url ? [{ size: 9, before: 1, runs: [{ text: citation.url, color: ctx.theme.muted, link: url }] }] : []),
  ];
}

export function driftParas(ctx: DeckContext, entry: DriftEntry): { label: Para[]; main: Para[] } {
  const colors = { new: ctx.theme.accent, removed: ctx.theme.impact.high!, changed: ctx.theme.impact.medium! };
  return {
    label: [{ size: 10, runs: [{ text: entry.change.toUpperCase(), bold: true, color: colors[entry.change] }] }],
    main: [
      { size: 13, runs: [{ text: entry.title, bold: true }] },
      ...(entry.detail ? [{ size: 11, before: 2, runs: [{ text: entry.detail, color: ctx.theme.muted }] }] : []),
    ],
  };
}

export function driftRowHeight(ctx: DeckContext, entry: DriftEntry): number {
  const paras = driftParas(ctx, entry);
  return (
    Math.max(ctx.measure.boxHeight(paras.label, DRIFT_ROW.labelW), ctx.measure.boxHeight(paras.main, DRIFT_ROW.mainW)) + 2 * DRIFT_ROW.pad
  );
}

export function driftLinePara(line: string): Para[] {
  return [{ size: 14, runs: [{ text: line }] }];
}

export function summaryBand(ctx: DeckContext, selection: string, disclaimer: string): Para[] {
  return [
    { size: 12, runs: [{ text: selection, bold: true }] },
    { size: 11, before: 2, runs: [{ text: disclaimer, color: ctx.theme.muted }] },
  ];
}

export function leadPara(text: string, size: number): Para {
  return { size, runs: [{ text }] };
}

export function quotePara(ctx: DeckContext, quote: string): Para {
  return { size: 14, before: 10, runs: [{ text: quote, italic: true, color: ctx.theme.accent }] };
}

export function priorityPara(number: number, text: string, size: number): Para {
  return { size, before: number > 1 ? 8 : 0, runs: [{ text: `${number}. ${text}` }] };
}

/** Pages of every list of the deck, from the measured heights of its rows and cards. */
export class DeckLayout implements SlideLayout {
  /** Font sizes chosen while paginating, used again when drawing. */
  leadSize: number = SUMMARY.leadSizes[0];
  prioritySize: number = SUMMARY.prioritySizes[0];
  trendSize: number = TREND_SIZES[0];
  private readonly paras: DeckParas;

  constructor(
    private readonly ctx: DeckContext,
    private readonly band: Para[],
  ) {
    this.paras = deckParas(ctx);
  }

  /** Height of the summary columns on summary slide `page` (0-based): the first one keeps room for the band. */
  summaryColumnHeight(page: number): number {
    return CONTENT_H - (page === 0 ? this.ctx.measure.boxHeight(this.band, CONTENT_W) + 0.25 : 0);
  }

  /** Room for the bottom line (inside its panel, below the kicker) on summary slide `page`. */
  leadCapacity(page: number): number {
    return this.summaryColumnHeight(page) - SUMMARY.kicker - SUMMARY.panelPad;
  }

  priorityCapacity(page: number): number {
    return this.summaryColumnHeight(page) - SUMMARY.kicker;
  }

  summaryPages(bottomLine: string, quote: string | null, priorities: string[]): SummaryPage[] {
    const m = this.ctx.measure;
    const w = SUMMARY.colW - 2 * SUMMARY.panelPad;
    const quoteH = quote ? m.paraHeight(quotePara(this.ctx, quote), w) : 0;
    const first = this.leadCapacity(0);
    this.leadSize = m.fitSize(SUMMARY.leadSizes, first, (size) => m.paraHeight(leadPara(bottomLine, size), w) + quoteH);
    const leads = splitWords(bottomLine, (part) => m.paraHeight(leadPara(part, this.leadSize), w) <= first);
    type Block = { lead: string } | { quote: string };
    const blocks: Block[] = [...leads.map((lead) => ({ lead })), ...(quote ? [{ quote }] : [])];
    const left = packByHeight(
      blocks,
      (block) => ('lead' in block ? m.paraHeight(leadPara(block.lead, this.leadSize), w) : quoteH),
      (page) => this.leadCapacity(page),
    );
    const numbered = priorities.map((text, index) => ({ number: index + 1, text }));
    const prioritiesHeight = (size: number, list: typeof numbered): number =>
      m.boxHeight(
        list.map((p) => priorityPara(p.number, p.text, size)),
        SUMMARY.colW,
      );
    this.prioritySize = m.fitSize(SUMMARY.prioritySizes, this.priorityCapacity(0), (size) => prioritiesHeight(size, numbered));
    const right = packByHeight(
      numbered,
      (p) => prioritiesHeight(this.prioritySize, [p]),
      (page) => this.priorityCapacity(page),
    );
    const pages = Math.max(left.length, right.length, 1);
    return Array.from({ length: pages }, (_, page) => {
      const blocksHere = left[page] ?? [];
      return {
        lead: blocksHere.flatMap((block) => ('lead' in block ? [block.lead] : [])),
        quote: blocksHere.some((block) => 'quote' in block) ? quote : null,
        priorities: right[page] ?? [],
      };
    });
  }

  driftPages(line: string, entries: DriftEntry[]): DriftEntry[][] {
    const lineH = this.ctx.measure.boxHeight(driftLinePara(line), CONTENT_W) + 0.15;
    return packByHeight(
      entries,
      (entry) => driftRowHeight(this.ctx, entry),
      (page) => CONTENT_H - (page === 0 ? lineH : 0),
    );
  }

  itemPages(items: SnapshotItem[]): SnapshotItem[][] {
    return packByHeight(
      items,
      (item) => itemRowHeight(this.ctx.measure, this.paras, item),
      () => CONTENT_H,
    );
  }

  trendCardHeight(card: TrendCard, size = this.trendSize): number {
    return trendCardHeight(this.ctx.measure, this.paras.trend(card.trend, card.description, card.continued, size));
  }

  trendParas(card: TrendCard): Para[] {
    return this.paras.trend(card.trend, card.description, card.continued, this.trendSize);
  }

  /** Shrinks the descriptions within TREND_SIZES when that saves a slide, then flows the cards over slides. */
  trendPages(trends: SnapshotTrend[]): TrendCard[][] {
    const whole = trends.map((trend): TrendCard => ({ trend, description: stripCites(trend.description), continued: false }));
    let best: TrendCard[][] = [];
    for (const size of TREND_SIZES) {
      const pages = this.trendPagesAt(whole, size);
      if (best.length === 0 || pages.length < best.length) {
        best = pages;
        this.trendSize = size;
      }
    }
    return best;
  }

  private trendPagesAt(whole: TrendCard[], size: number): TrendCard[][] {
    const cards = whole.flatMap((card) =>
      splitWords(card.description, (part) => this.trendCardHeight({ ...card, description: part, continued: true }, size) <= CONTENT_H).map(
        (description, index): TrendCard => ({ trend: card.trend, description, continued: index > 0 }),
      ),
    );
    const rows: TrendCard[][] = [];
    for (let i = 0; i < cards.length; i += 2) rows.push(cards.slice(i, i + 2));
    const rowHeight = (row: TrendCard[]): number => Math.max(...row.map((card) => this.trendCardHeight(card, size)));
    return packByHeight(rows, rowHeight, () => CONTENT_H, TREND_CARD.gap).map((page) => page.flat());
  }

  referenceHeight(reference: Reference): number {
    return this.ctx.measure.boxHeight(referenceParas(this.ctx, reference), SOURCE_COLUMN.w);
  }

  /** Each page's references in reading order; the page is cut into its two columns again when drawn. */
  referencePages(references: Reference[]): Reference[][] {
    return packColumns(references, (reference) => this.referenceHeight(reference), CONTENT_H, 2, SOURCE_COLUMN.entryGap).map((page) =>
      page.flat(),
    );
  }
}
