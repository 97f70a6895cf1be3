/**
 * Geometry and text measurement of the PPTX deck. A PPTX text box does not grow or paginate by itself, and
 * "shrink on overflow" only happens when PowerPoint re-renders (other viewers clip or overflow), so every box
 * is sized here from its wrapped text: lines are measured with the bundled fonts' advance widths (fontkit,
 * through Svg) at a width a little narrower than the box, each paragraph has an exact line spacing, and lists
 * are split over as many slides as their measured heights need.
 *
 * Latin text is set in Arial and measured with its bundled metric twin Arimo, plus the width margin below. Decks
 * with CJK text are set and measured in the bundled CJK family throughout (slide-deck.renderer.ts).
 */
import type PptxGenJS from 'pptxgenjs';
import type { SnapshotItem, SnapshotTrend } from '../../../engine/envelope.types';
import { Svg, type SvgFonts } from './svg';

export const W = 13.333;
export const H = 7.5;
export const MARGIN = 0.6;
export const CONTENT_TOP = 1.35;
export const CONTENT_BOTTOM = 6.85;
export const CONTENT_W = W - 2 * MARGIN;
/** Lines are measured this much narrower than their box, for renderers whose metrics or breaks differ. */
const WIDTH_MARGIN = 0.94;

export interface Run {
  text: string;
  bold?: boolean;
  italic?: boolean;
  color?: string;
  link?: string | null;
}

export interface Para {
  runs: Run[];
  /** Points. */
  size: number;
  /** Space before the paragraph, points. */
  before?: number;
}

/** Exact line spacing (points) for a font size: 1.2 em, room for CJK glyphs and Latin accents. */
function spacingPt(size: number): number {
  return Math.ceil(size * 1.2);
}

const WIDE = /[\u1100-\u115F\u2E80-\uA4CF\uAC00-\uD7A3\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFF60\uFFE0-\uFFE6]/u;

/** Words with their following whitespace; each CJK character is a word of its own (lines break between them). */
function tokens(text: string): string[] {
  return (
    text
      .replace(/\s+/g, ' ')
      .match(
        /[\u2E80-\u9FFF\uAC00-\uD7AF\uF900-\uFAFF\uFF00-\uFFEF\u3000-\u303F]|[^ \u2E80-\u9FFF\uAC00-\uD7AF\uF900-\uFAFF\uFF00-\uFFEF\u3000-\u303F]+ ?| /gu,
      ) ?? []
  );
}

export class DeckMeasure {
  private readonly svg: Svg;

  /**
   * `latinScale` widens non-CJK text by that factor: a deck set in the bundled CJK family is often shown with
   * a substitute for it (the family is rarely installed under that name), whose Latin letters can run up to
   * 16% wider (DejaVu Sans Bold); CJK glyphs are one em wide in every CJK font.
   */
  constructor(
    fonts: SvgFonts,
    private readonly latinScale = 1,
  ) {
    this.svg = new Svg(1, 1, fonts);
  }

  /** Lines `text` wraps to in a box `widthIn` inches wide (at least one). */
  lines(text: string, size: number, widthIn: number, bold = false): number {
    return this.wrapTokens(tokens(text), size, widthIn, bold);
  }

  /**
   * A paragraph with any bold run is measured bold throughout (never narrower than it draws). A linked run is
   * measured as one word: LibreOffice moves a hyperlink to the next line whole rather than wrap inside it.
   */
  paraHeight(para: Para, widthIn: number): number {
    const words = para.runs.flatMap((run) => (run.link ? [run.text] : tokens(run.text)));
    const bold = para.runs.some((run) => run.bold);
    return (this.wrapTokens(words, para.size, widthIn, bold) * spacingPt(para.size) + (para.before ?? 0)) / 72;
  }

  private width(text: string, size: number, bold: boolean): number {
    const chars = [...text];
    const latin = this.svg.measure(chars.filter((char) => !WIDE.test(char)).join(''), size, bold);
    const wide = this.svg.measure(chars.filter((char) => WIDE.test(char)).join(''), size, bold);
    return latin * this.latinScale + wide;
  }

  /** Greedy line filling, as text frames do: words with their trailing space, a word wider than a line split by characters. */
  private wrapTokens(words: readonly string[], size: number, widthIn: number, bold: boolean): number {
    const max = widthIn * 72 * WIDTH_MARGIN;
    let lines = 1;
    let used = 0;
    for (const word of words) {
      const visible = this.width(word.trimEnd(), size, bold);
      const full = this.width(word, size, bold);
      if (used > 0 && used + visible > max) {
        lines++;
        used = 0;
      }
      if (used === 0 && visible > max) {
        // Broken by characters: whole lines of it, then the remainder starts the next line.
        lines += Math.floor(visible / max);
        used = visible % max;
        continue;
      }
      used += full;
    }
    return lines;
  }

  /** Inches. */
  boxHeight(paras: readonly Para[], widthIn: number): number {
    return paras.reduce((sum, para) => sum + this.paraHeight(para, widthIn), 0);
  }

  fitsOneLine(text: string, size: number, widthIn: number, bold = false): boolean {
    return this.lines(text, size, widthIn, bold) <= 1;
  }

  /** The largest of `sizes` (descending) at which `make(size)` fits `heightIn`, else the smallest. */
  fitSize(sizes: readonly number[], heightIn: number, make: (size: number) => number): number {
    for (const size of sizes) if (make(size) <= heightIn) return size;
    return sizes[sizes.length - 1]!;
  }
}

/** Item rows of the jurisdiction slides: when | instrument and sources | impact, stage and regulator. */
export const ITEM_ROW = {
  bar: 0.06,
  whenX: MARGIN + 0.2,
  whenW: 2.25,
  mainX: MARGIN + 2.7,
  mainW: CONTENT_W - 2.7 - 2.35,
  tagsX: W - MARGIN - 2.1,
  tagsW: 2.1,
  pad: 0.09,
};

/** Trend cards: two columns. */
export const TREND_CARD = { gap: 0.25, padX: 0.25, padY: 0.16, kicker: 0.28, w: (CONTENT_W - 0.25) / 2 };
export const TREND_SIZES = [12, 11, 10] as const;

/** Sources: two columns. */
export const SOURCE_COLUMN = { gap: 0.4, w: (CONTENT_W - 0.4) / 2, entryGap: 0.1 };

/** "Changes since" rows: change label | title and detail. */
export const DRIFT_ROW = { labelW: 1.3, mainX: MARGIN + 1.5, mainW: CONTENT_W - 1.5, pad: 0.07 };

/** Summary: bottom line panel | priorities; the selection and disclaimer band under both on the first slide. */
export const SUMMARY = {
  colW: (CONTENT_W - 0.5) / 2,
  kicker: 0.5,
  panelPad: 0.3,
  leadSizes: [20, 18, 16, 14] as const,
  prioritySizes: [14, 13, 12] as const,
};

export interface DeckParas {
  when(item: SnapshotItem): Para[];
  main(item: SnapshotItem): Para[];
  tags(item: SnapshotItem): Para[];
  trend(trend: SnapshotTrend, description: string, continued: boolean, size: number): Para[];
}

export function itemRowHeight(measure: DeckMeasure, paras: DeckParas, item: SnapshotItem): number {
  return (
    Math.max(
      measure.boxHeight(paras.when(item), ITEM_ROW.whenW),
      measure.boxHeight(paras.main(item), ITEM_ROW.mainW),
      measure.boxHeight(paras.tags(item), ITEM_ROW.tagsW),
    ) +
    2 * ITEM_ROW.pad
  );
}

export function trendCardHeight(measure: DeckMeasure, paras: Para[]): number {
  return 2 * TREND_CARD.padY + TREND_CARD.kicker + measure.boxHeight(paras, TREND_CARD.w - 2 * TREND_CARD.padX);
}

/** pptxgenjs runs for paragraphs: exact line spacing, one paragraph per Para (breakLine on its last run). */
export function pptxRuns(paras: readonly Para[], base: PptxGenJS.TextPropsOptions): PptxGenJS.TextProps[] {
  const runs: PptxGenJS.TextProps[] = [];
  paras.forEach((para, p) => {
    para.runs.forEach((run, r) => {
      const options: PptxGenJS.TextPropsOptions = {
        ...base,
        fontSize: para.size,
        lineSpacing: spacingPt(para.size),
        bold: run.bold ?? false,
        italic: run.italic ?? false,
      };
      if (run.color) options.color = run.color;
      if (para.before) options.paraSpaceBefore = para.before;
      if (run.link) options.hyperlink = { url: run.link, tooltip: run.link };
      if (r === para.runs.length - 1 && p < paras.length - 1) options.breakLine = true;
      runs.push({ text: run.text, options });
    });
  });
  return runs;
}
