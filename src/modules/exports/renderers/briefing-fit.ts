/**
 * Fitting text without cutting it, for the page-limited PDFs (the briefing and the tearsheet): font sizes that
 * shrink within limits, a render loop that retries with tighter settings until the document fits its page
 * budget, the disclaimer footer on every page, and short source references with links.
 */
import type { SnapshotItem } from '../../../engine/envelope.types';
import { A4, COLORS, type Doc, outsideMargins, type PdfHandle, REGULAR } from './pdf-kit';
import type { References } from './render-facts';
import { shortSource } from './render-facts';
import { safeHttpUrl } from './render-text';

export interface FitBox {
  font: string;
  width: number;
  /** Largest and smallest font size to try. */
  max: number;
  min: number;
  /** Height the text may take; omitted means one line. */
  maxHeight?: number;
  lineGap?: number;
  characterSpacing?: number;
}

/**
 * The largest size (in quarter points, from `max` down to `min`) at which `text` fits the box: on one line when
 * no `maxHeight` is given, else within that height. `min` when even that does not fit; the caller then lets
 * the text wrap or flow, never cuts it.
 */
export function fitFontSize(doc: Doc, text: string, box: FitBox): number {
  const options = { width: box.width, lineGap: box.lineGap ?? 0, characterSpacing: box.characterSpacing ?? 0 };
  for (let size = box.max; size > box.min; size -= 0.25) {
    doc.font(box.font).fontSize(size);
    const fits =
      box.maxHeight === undefined
        ? doc.widthOfString(text, { characterSpacing: options.characterSpacing }) <= box.width
        : doc.heightOfString(text, options) <= box.maxHeight;
    if (fits) return size;
  }
  return box.min;
}

/**
 * Draws a document with the first settings under which it stays within `maxPages` and scores at least
 * `enough` (e.g. rows shown), trying each in turn; documents not kept are dropped unfinished. When none scores
 * enough, the best-scoring one that fits is kept; when none fits, the last.
 */
export function firstThatFits<S, P extends PdfHandle>(
  steps: readonly S[],
  maxPages: number,
  draw: (step: S) => P,
  score: (drawn: P) => number = () => 0,
  enough = 0,
): { pdf: P; step: S } {
  let best: { pdf: P; step: S; score: number } | undefined;
  let last: { pdf: P; step: S } | undefined;
  for (const step of steps) {
    last = { pdf: draw(step), step };
    if (last.pdf.doc.bufferedPageRange().count > maxPages) continue;
    const points = score(last.pdf);
    if (points >= enough) return last;
    if (!best || points > best.score) best = { ...last, score: points };
  }
  if (!last) throw new Error('firstThatFits needs at least one step');
  return best ?? last;
}

/** Where the footer starts: content must end above this line (margins.bottom leaves room for it). */
export const FOOTER_TOP = A4.height - 50;

/**
 * The footer of every page: the disclaimer on one line (shrunk to fit; wrapped to a second line only if even
 * the smallest size is too wide, never cut), then the snapshot id and "Page n of N". Ends the document.
 */
export async function finishWithDisclaimer(pdf: PdfHandle, disclaimer: string, snapshotId: string): Promise<Buffer> {
  const { doc } = pdf;
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    outsideMargins(pdf, () => {
      doc.save();
      doc.moveTo(pdf.left, FOOTER_TOP).lineTo(pdf.right, FOOTER_TOP).lineWidth(0.5).strokeColor(COLORS.rule).stroke();
      doc.restore();
      const size = fitFontSize(doc, disclaimer, { font: REGULAR, width: pdf.width, max: 7.5, min: 6 });
      doc
        .font(REGULAR)
        .fontSize(size)
        .fillColor(COLORS.body)
        .text(disclaimer, pdf.left, FOOTER_TOP + 5, { width: pdf.width, lineGap: 0.5 });
      const y = Math.max(doc.y + 2, FOOTER_TOP + 17);
      doc.font(REGULAR).fontSize(7).fillColor(COLORS.muted);
      doc.text(`Snapshot ${snapshotId}`, pdf.left, y, { width: pdf.width / 2, lineBreak: false });
      doc.text(`Page ${i + 1} of ${range.count}`, pdf.right - 90, y, { width: 90, align: 'right', lineBreak: false });
    });
  }
  doc.end();
  return pdf.bytes;
}

export interface DetailLine {
  /** What precedes the reference ("expected H2 2026 — milestone"). */
  text: string;
  reference: string | null;
  link?: string;
  x: number;
  width: number;
  size: number;
  /** Room kept free on the first line (for a tag drawn there). */
  indent?: number;
  color?: string;
  referenceColor?: string;
}

const SEPARATOR = '  ·  ';

/** The reference follows on the same line when the whole fits on one, else takes a line of its own. */
function referenceOnSameLine(doc: Doc, line: DetailLine): boolean {
  doc.font(REGULAR).fontSize(line.size);
  return line.reference !== null && (line.indent ?? 0) + doc.widthOfString(`${line.text}${SEPARATOR}${line.reference}`) <= line.width;
}

export function detailLineHeight(doc: Doc, line: DetailLine): number {
  const same = referenceOnSameLine(doc, line);
  const first = same ? `${line.text}${SEPARATOR}${line.reference}` : line.text;
  let height = first ? doc.heightOfString(first, { width: line.width, indent: line.indent ?? 0, lineGap: 1 }) : 0;
  if (line.reference && !same) height += doc.heightOfString(line.reference, { width: line.width, lineGap: 1 });
  return height;
}

/** Draws a detail line at `y`; only the reference carries the link. Leaves doc.y under it. */
export function drawDetailLine(doc: Doc, line: DetailLine, y: number): void {
  const same = referenceOnSameLine(doc, line);
  doc.y = y;
  if (line.text) {
    doc
      .font(REGULAR)
      .fontSize(line.size)
      .fillColor(line.color ?? COLORS.body)
      .text(same ? `${line.text}${SEPARATOR}` : line.text, line.x, y, {
        width: line.width,
        indent: line.indent ?? 0,
        lineGap: 1,
        continued: same,
      });
  }
  if (line.reference) {
    const options = { width: line.width, lineGap: 1, link: line.link ?? null, continued: false };
    doc
      .font(REGULAR)
      .fontSize(line.size)
      .fillColor(line.referenceColor ?? COLORS.accent);
    if (same) doc.text(line.reference, options);
    else doc.text(line.reference, line.x, doc.y, options);
  }
}

/** "[1, 2] Source: EUR-Lex, 28 Jun 2023": the item's reference numbers and its short source; null without sources. */
export function itemReference(item: SnapshotItem, references: References): string | null {
  const source = shortSource(item);
  if (!source) return null;
  const numbers = references.itemNumbers(item);
  return numbers.length > 0 ? `[${numbers.join(', ')}] ${source}` : source;
}

/** The http(s) address an item's reference links to (its first citation), if any. */
export function itemLink(item: SnapshotItem): string | undefined {
  return safeHttpUrl(item.citations?.[0]?.url) ?? undefined;
}
