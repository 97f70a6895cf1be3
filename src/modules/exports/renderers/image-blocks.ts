/**
 * Measured text blocks for the image layouts: runs of text fitted to a width (wrapped, shrunk within limits,
 * never cut), stacked, measured before they are drawn, so a layout can tell whether a whole item fits before
 * it commits to drawing it.
 */
import { Svg, type TextStyle } from './svg';
import { sentences } from '../../../engine/analysis/text';

export interface Run {
  text: string;
  size: number;
  /** Smallest size the run may shrink to (default `size`). */
  minSize?: number;
  /** Lines allowed before shrinking further; a `whole` run that still needs more gets them. */
  maxLines?: number;
  bold?: boolean;
  fill: string;
  upper?: boolean;
  letterSpacing?: number;
  /** Line height as a multiple of the size (default 1.28). */
  leading?: number;
  /** Space above the run (px). */
  gap?: number;
  /**
   * How a run that does not fit `maxLines` at `minSize` is handled: `whole` takes the lines it needs (titles),
   * `sentences` keeps the leading whole sentences that fit and is dropped when none does (prose).
   */
  overflow?: 'whole' | 'sentences';
  anchor?: 'start' | 'end';
}

interface PlacedRun {
  lines: string[];
  style: TextStyle;
  lineHeight: number;
  gap: number;
}

export interface Block {
  /** Height from the top of the first line to the bottom of the last. */
  height: number;
  /** Draws with the block's top at `y`; `x` is the left edge (or the right edge for `anchor: 'end'` runs). */
  draw(x: number, y: number): void;
}

/** Baseline of a line below the top of its box, and the box height, as fractions of the size. */
const ASCENT = 0.95;
const BOX = 1.2;

function place(svg: Svg, run: Run, width: number): PlacedRun | null {
  const text = (run.upper ? run.text.toUpperCase() : run.text).replace(/[ \t\n\r\f\v]+/g, ' ').trim();
  if (!text) return null;
  const fitStyle = { size: run.size, minSize: run.minSize ?? run.size, maxWidth: width, bold: run.bold, letterSpacing: run.letterSpacing };
  let fitted = svg.fit(text, { ...fitStyle, maxLines: run.maxLines });
  if (!fitted.fits && run.overflow === 'sentences') {
    const parts = sentences(text);
    fitted = { size: run.size, lines: [], fits: false };
    for (let count = parts.length - 1; count >= 1; count--) {
      const candidate = svg.fit(parts.slice(0, count).join(' '), { ...fitStyle, maxLines: run.maxLines });
      if (candidate.fits) {
        fitted = candidate;
        break;
      }
    }
    if (!fitted.fits) return null;
  }
  const style: TextStyle = {
    size: fitted.size,
    bold: run.bold,
    fill: run.fill,
    letterSpacing: run.letterSpacing,
    anchor: run.anchor,
  };
  return { lines: fitted.lines, style, lineHeight: Math.round(fitted.size * (run.leading ?? 1.28)), gap: run.gap ?? 0 };
}

/** Runs stacked top to bottom in `width`. */
export function stack(svg: Svg, runs: ReadonlyArray<Run | null | undefined | false>, width: number): Block {
  const placed = runs
    .filter((run): run is Run => !!run)
    .map((run) => place(svg, run, width))
    .filter((run): run is PlacedRun => run !== null);
  let height = 0;
  const tops: number[] = [];
  placed.forEach((run, index) => {
    if (index > 0) height += run.gap;
    tops.push(height);
    height += (run.lines.length - 1) * run.lineHeight + BOX * run.style.size;
  });
  return {
    height: Math.ceil(height),
    draw: (x, y) =>
      placed.forEach((run, index) => svg.lines(x, y + tops[index]! + ASCENT * run.style.size, run.lines, run.style, run.lineHeight)),
  };
}

/** Blocks side by side (cells of a row): the row's height is the tallest. */
export function row(cells: ReadonlyArray<{ block: Block; dx: number }>): Block {
  return {
    height: Math.max(0, ...cells.map((cell) => cell.block.height)),
    draw: (x, y) => cells.forEach((cell) => cell.block.draw(x + cell.dx, y)),
  };
}
