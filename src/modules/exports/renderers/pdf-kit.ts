/**
 * pdfkit plumbing shared by the PDF renderers: an A4 document set in one bundled family (see fonts.ts), bytes
 * collected in memory, a footer with page numbers, and small drawing helpers.
 */
import PDFDocument from 'pdfkit';
import { type BundledFont, documentFont, pickDocumentFont } from './fonts';
import { IMPACT_LABELS, IMPACTS } from './item-labels';
import type { RenderInput } from './types';
import { type MatchedFacts, totalTileLabel } from './matched-facts';

export type Doc = PDFKit.PDFDocument;

export const A4 = { width: 595.28, height: 841.89 };

export const COLORS = {
  ink: '#101828',
  body: '#344054',
  muted: '#667085',
  rule: '#D0D5DD',
  tint: '#F2F4F7',
  accent: '#1F3A5F',
  accentSoft: '#E8EEF6',
  impact: { high: '#B42318', medium: '#B54708', low: '#475467' } as Record<string, string>,
};

export interface PdfHandle {
  doc: Doc;
  font: BundledFont;
  /** Resolves with the document's bytes once `doc.end()` has been called. */
  bytes: Promise<Buffer>;
  /** Content box of a page. */
  left: number;
  right: number;
  width: number;
  top: number;
  bottom: number;
}

export const REGULAR = 'body';
export const BOLD = 'body-bold';

export interface PdfOptions {
  title: string;
  subject: string;
  /** Extra strings that will be drawn (labels), for picking a font that covers everything. */
  texts: readonly string[];
  margins?: { top: number; bottom: number; left: number; right: number };
  /** A4 portrait (default) or landscape. */
  layout?: 'portrait' | 'landscape';
}

export function createPdf(input: RenderInput, options: PdfOptions): PdfHandle {
  const font = pickDocumentFont(options.texts, input.locale, 'sans');
  const margins = options.margins ?? { top: 60, bottom: 64, left: 56, right: 56 };
  const created = new Date(input.snapshot.created_at);
  const landscape = options.layout === 'landscape';
  const page = landscape ? { width: A4.height, height: A4.width } : A4;
  const doc = new PDFDocument({
    size: 'A4',
    layout: landscape ? 'landscape' : 'portrait',
    margins,
    bufferPages: true,
    autoFirstPage: true,
    displayTitle: true,
    lang: font.lang ?? (input.locale === 'simple' ? 'en' : input.locale || 'en'),
    info: {
      Title: options.title,
      Subject: options.subject,
      Author: 'Regulatory Scan and Snapshot Service',
      Creator: 'Regulatory Scan and Snapshot Service',
      Producer: 'Regulatory Scan and Snapshot Service',
      CreationDate: Number.isNaN(created.getTime()) ? new Date(0) : created,
    },
  });
  // pdfkit takes a fontkit font object as well as a path (PDFFontFactory.open); the typings only know paths.
  doc.registerFont(REGULAR, documentFont(font.regular) as unknown as string);
  doc.registerFont(BOLD, documentFont(font.bold) as unknown as string);
  shareLayoutCache(doc, BOLD, font.bold);
  shareLayoutCache(doc, REGULAR, font.regular);
  const chunks: Buffer[] = [];
  const bytes = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  return {
    doc,
    font,
    bytes,
    left: margins.left,
    right: page.width - margins.right,
    width: page.width - margins.left - margins.right,
    top: margins.top,
    bottom: page.height - margins.bottom,
  };
}

/** Word shapes (fontkit layout runs) per font file, shared by every document set in that file. */
const layoutCaches = new Map<string, Record<string, unknown>>();
const LAYOUT_CACHE_LIMIT = 200_000;

/**
 * pdfkit shapes text word by word and caches the runs per document (EmbeddedFont.layoutCache), so every new
 * document pays for shaping again; shaping (OpenType GSUB/GPOS) is most of a report's render time. The runs
 * depend only on the font file and the word, so documents share one cache per file. This reaches into pdfkit's
 * embedded font object; if that ever changes shape, documents simply keep their own cache.
 */
function shareLayoutCache(doc: Doc, name: string, file: string): void {
  doc.font(name);
  const embedded = (doc as unknown as { _font?: { layoutCache?: unknown } })._font;
  if (!embedded || typeof embedded.layoutCache !== 'object' || embedded.layoutCache === null) return;
  let shared = layoutCaches.get(file);
  if (!shared || Object.keys(shared).length > LAYOUT_CACHE_LIMIT) {
    shared = Object.create(null) as Record<string, unknown>;
    layoutCaches.set(file, shared);
  }
  embedded.layoutCache = shared;
}

/** Adds a page when fewer than `height` points are left on this one. Returns true when it did. */
export function ensureSpace(pdf: PdfHandle, height: number): boolean {
  if (pdf.doc.y + height > pdf.bottom) {
    pdf.doc.addPage();
    return true;
  }
  return false;
}

/** Runs `draw` with the bottom margin off, so text placed near the page foot does not start a new page. */
export function outsideMargins(pdf: PdfHandle, draw: () => void): void {
  const { doc } = pdf;
  const saved = doc.page.margins.bottom;
  const { x, y } = doc;
  doc.page.margins.bottom = 0;
  try {
    draw();
  } finally {
    doc.page.margins.bottom = saved;
    doc.x = x;
    doc.y = y;
  }
}

/** Writes "left text ... Page n of N" on every buffered page (from `firstPage`, 0-based) and ends the document. */
export async function finish(pdf: PdfHandle, footerLeft: string, firstPage = 0): Promise<Buffer> {
  const { doc } = pdf;
  const range = doc.bufferedPageRange();
  const total = range.count;
  for (let i = range.start; i < range.start + total; i++) {
    if (i < firstPage) continue;
    doc.switchToPage(i);
    outsideMargins(pdf, () => footerOn(pdf, footerLeft, `Page ${i + 1} of ${total}`));
  }
  doc.end();
  return pdf.bytes;
}

function footerOn(pdf: PdfHandle, left: string, right: string): void {
  const { doc } = pdf;
  const y = doc.page.height - 40;
  doc.save();
  doc
    .moveTo(pdf.left, y - 8)
    .lineTo(pdf.right, y - 8)
    .lineWidth(0.5)
    .strokeColor(COLORS.rule)
    .stroke();
  doc.restore();
  // The left text (often the disclaimer) is shrunk to fit the foot of the page, never cut.
  const width = pdf.width - 100;
  let size = 8;
  doc.font(REGULAR).fontSize(size);
  while (size > 5.5 && doc.heightOfString(left, { width }) > 3 * size * 1.25) doc.fontSize((size -= 0.5));
  doc.fillColor(COLORS.muted).text(left, pdf.left, y, { width });
  doc.fontSize(8).text(right, pdf.right - 90, y, { width: 90, align: 'right', lineBreak: false });
}

/** A section heading with a rule under it; keeps at least `keep` points of room for what follows. */
export function heading(pdf: PdfHandle, text: string, keep = 90): void {
  const { doc } = pdf;
  ensureSpace(pdf, 40 + keep);
  doc.moveDown(0.4);
  doc.font(BOLD).fontSize(16).fillColor(COLORS.accent).text(text, pdf.left, doc.y, { width: pdf.width });
  const y = doc.y + 3;
  doc.save();
  doc.moveTo(pdf.left, y).lineTo(pdf.right, y).lineWidth(1).strokeColor(COLORS.accent).stroke();
  doc.restore();
  doc.y = y + 10;
}

/** Small uppercase label. */
export function kicker(pdf: PdfHandle, text: string, color = COLORS.muted, x = pdf.left, width = pdf.width): void {
  pdf.doc.font(BOLD).fontSize(8).fillColor(color).text(text.toUpperCase(), x, pdf.doc.y, { width, characterSpacing: 0.8 });
}

/** A filled box behind a block of text: measures, draws, then writes. */
export function boxedText(
  pdf: PdfHandle,
  text: string,
  options: { fill: string; bar?: string; fontSize?: number; bold?: boolean; color?: string; padding?: number; title?: string },
): void {
  const { doc } = pdf;
  const padding = options.padding ?? 12;
  const fontSize = options.fontSize ?? 11;
  const innerWidth = pdf.width - 2 * padding - (options.bar ? 4 : 0);
  const innerX = pdf.left + padding + (options.bar ? 4 : 0);
  doc.font(options.bold ? BOLD : REGULAR).fontSize(fontSize);
  const bodyHeight = doc.heightOfString(text, { width: innerWidth, lineGap: 2 });
  let titleHeight = 0;
  if (options.title) {
    doc.font(BOLD).fontSize(8);
    titleHeight = doc.heightOfString(options.title.toUpperCase(), { width: innerWidth, characterSpacing: 0.8 }) + 4;
  }
  const height = bodyHeight + titleHeight + 2 * padding;
  ensureSpace(pdf, Math.min(height, pdf.bottom - pdf.top));
  const y = doc.y;
  doc.save();
  doc.rect(pdf.left, y, pdf.width, height).fill(options.fill);
  if (options.bar) doc.rect(pdf.left, y, 4, height).fill(options.bar);
  doc.restore();
  doc.y = y + padding;
  if (options.title) {
    kicker(pdf, options.title, options.bar ?? COLORS.muted, innerX, innerWidth);
    doc.y += 4;
  }
  doc
    .font(options.bold ? BOLD : REGULAR)
    .fontSize(fontSize)
    .fillColor(options.color ?? COLORS.ink)
    .text(text, innerX, doc.y, { width: innerWidth, lineGap: 2 });
  doc.x = pdf.left;
  doc.y = y + height + 10;
}

/** A numbered (or bulleted) list. */
export function list(
  pdf: PdfHandle,
  entries: readonly string[],
  options: { numbered?: boolean; fontSize?: number; color?: string; markerColor?: string } = {},
): void {
  const { doc } = pdf;
  const fontSize = options.fontSize ?? 10.5;
  const indent = 20;
  entries.forEach((entry, index) => {
    doc.font(REGULAR).fontSize(fontSize);
    const height = doc.heightOfString(entry, { width: pdf.width - indent, lineGap: 1.5 });
    ensureSpace(pdf, Math.min(height + 4, 120));
    const y = doc.y;
    doc
      .font(BOLD)
      .fontSize(fontSize)
      .fillColor(options.markerColor ?? COLORS.accent)
      .text(options.numbered === false ? '•' : `${index + 1}.`, pdf.left, y, { width: indent - 4 });
    doc
      .font(REGULAR)
      .fontSize(fontSize)
      .fillColor(options.color ?? COLORS.ink)
      .text(entry, pdf.left + indent, y, { width: pdf.width - indent, lineGap: 1.5 });
    doc.x = pdf.left;
    doc.y += 4;
  });
}

/** A small rounded pill with text; returns its width. */
export function pill(
  doc: Doc,
  text: string,
  x: number,
  y: number,
  color: string,
  options: { filled?: boolean; fontSize?: number } = {},
): number {
  const fontSize = options.fontSize ?? 7.5;
  doc.font(BOLD).fontSize(fontSize);
  const width = doc.widthOfString(text.toUpperCase(), { characterSpacing: 0.5 }) + 10;
  const height = fontSize + 6;
  doc.save();
  if (options.filled === false) {
    doc
      .roundedRect(x, y, width, height, height / 2)
      .lineWidth(0.8)
      .strokeColor(color)
      .stroke();
  } else {
    doc.roundedRect(x, y, width, height, height / 2).fill(color);
  }
  doc.restore();
  doc
    .font(BOLD)
    .fontSize(fontSize)
    .fillColor(options.filled === false ? color : '#FFFFFF')
    .text(text.toUpperCase(), x + 5, y + 3.2, { width: width - 8, lineBreak: false, characterSpacing: 0.5 });
  return width;
}

/**
 * Tiles of the at-a-glance row: every matching instrument, then the count at each impact level in its colour,
 * all over every match (not only the items shown).
 */
export function impactTiles(facts: MatchedFacts): Array<[label: string, value: string, color: string]> {
  return [
    [totalTileLabel(facts), String(facts.counted), COLORS.accent],
    ...IMPACTS.map((impact): [string, string, string] => [`${IMPACT_LABELS[impact]} impact`, String(facts.byImpact[impact]), COLORS.impact[impact]!]),
  ];
}

/** A row of tiles, each a big value over a small label on a tinted panel with a coloured top rule. */
export function statTiles(
  doc: PDFKit.PDFDocument,
  tiles: ReadonlyArray<[label: string, value: string, color: string]>,
  area: { left: number; y: number; width: number; height: number; valueAt: number; labelAt: number },
): void {
  const gap = 10;
  const tileWidth = (area.width - gap * (tiles.length - 1)) / tiles.length;
  const { y } = area;
  tiles.forEach(([name, value, color], index) => {
    const x = area.left + index * (tileWidth + gap);
    doc.save();
    doc.rect(x, y, tileWidth, area.height).fill(COLORS.tint);
    doc.rect(x, y, tileWidth, 3).fill(color);
    doc.restore();
    doc
      .font(BOLD)
      .fontSize(26)
      .fillColor(color)
      .text(value, x + 12, y + area.valueAt, { width: tileWidth - 24, lineBreak: false });
    // The label on one line where it fits at 8 pt or more (a CJK document's Latin runs wider); else it wraps.
    let labelSize = 9;
    doc.font(REGULAR);
    while (labelSize > 8 && doc.fontSize(labelSize).widthOfString(name) > tileWidth - 24) labelSize -= 0.25;
    doc
      .fontSize(labelSize)
      .fillColor(COLORS.muted)
      .text(name, x + 12, y + area.labelAt, { width: tileWidth - 24, lineGap: -1 });
  });
}
