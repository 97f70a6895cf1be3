/**
 * The item-bearing sections of the briefing: the priorities (whole titles, the date as certain as it is, a short
 * reference with a link), the changes since the previous scan, and the numbered sources of the items shown.
 */
import type { SnapshotItem } from '../../../engine/envelope.types';
import { type DetailLine, detailLineHeight, drawDetailLine, itemLink, itemReference } from './briefing-fit';
import { BOLD, COLORS, ensureSpace, kicker, type PdfHandle, pill, REGULAR } from './pdf-kit';
import { dateWithMilestone, driftLine, isFirmDate, type References, removalLabel, sourceMeta } from './render-facts';
import { formatDate } from './render-dates';
import { safeHttpUrl } from './render-text';
import type { RenderDrift } from './types';

const IMPACT_RANK: Readonly<Record<string, number>> = { high: 0, medium: 1, low: 2 };

/** Position of the item's filing area among its own areas: 0 when it is filed under its main area (or areas are unknown). */
export function itemCentrality(item: Pick<SnapshotItem, 'area' | 'areas'>): number {
  return Math.max(0, item.areas?.indexOf(item.area) ?? 0);
}

/**
 * The briefing's priority order, the engine's rule (`_meta.selection`): centrality (instruments about a requested
 * area before those that only touch one), impact, then firm dates (fixed or announced days) before estimated or
 * period-only ones, then the earliest date; items without a date go last within their impact level.
 */
export function rankPriorities(items: readonly SnapshotItem[]): SnapshotItem[] {
  return items
    .map((item, index) => ({ item, index }))
    .sort(
      (a, b) =>
        itemCentrality(a.item) - itemCentrality(b.item) ||
        (IMPACT_RANK[a.item.impact] ?? 9) - (IMPACT_RANK[b.item.impact] ?? 9) ||
        Number(isFirmDate(b.item)) - Number(isFirmDate(a.item)) ||
        (a.item.key_date || '9999').localeCompare(b.item.key_date || '9999') ||
        a.index - b.index,
    )
    .map(({ item }) => item);
}

/** Section label with a rule above; keeps `keep` points for what follows on the same page. */
export function sectionLabel(pdf: PdfHandle, text: string, keep: number): void {
  const { doc } = pdf;
  ensureSpace(pdf, keep + 24);
  doc.save();
  doc.moveTo(pdf.left, doc.y).lineTo(pdf.right, doc.y).lineWidth(0.5).strokeColor(COLORS.rule).stroke();
  doc.restore();
  doc.y += 10;
  kicker(pdf, text, COLORS.accent);
  doc.moveDown(0.4);
}

/** One line of small muted text across the column (wraps, never cut). */
export function note(pdf: PdfHandle, text: string, size: number, color: string = COLORS.muted): void {
  pdf.doc.font(REGULAR).fontSize(size).fillColor(color).text(text, pdf.left, pdf.doc.y, { width: pdf.width, lineGap: 1.5 });
}

/**
 * One priority: its number, the whole title, then the jurisdiction tag, the date as certain as it is (with its
 * milestone) and the short reference, linked to the source.
 */
export function priorityBlock(pdf: PdfHandle, item: SnapshotItem, number: number, references: References, scale: number): void {
  const { doc } = pdf;
  const indent = 24;
  const titleSize = 11 * scale;
  const textX = pdf.left + indent;
  const width = pdf.right - textX;
  doc.font(BOLD).fontSize(7);
  const tag = item.jurisdiction || '';
  const detail: DetailLine = {
    text: dateWithMilestone(item),
    reference: itemReference(item, references),
    link: itemLink(item),
    x: textX,
    width,
    size: Math.max(8, 9 * scale),
    indent: tag ? doc.widthOfString(tag.toUpperCase(), { characterSpacing: 0.5 }) + 16 : 0,
  };
  doc.font(BOLD).fontSize(titleSize);
  const titleHeight = doc.heightOfString(item.title, { width, lineGap: 1.5 });
  ensureSpace(pdf, titleHeight + detailLineHeight(doc, detail) + 10);
  const y = doc.y;
  doc
    .font(BOLD)
    .fontSize(12 * scale)
    .fillColor(COLORS.accent)
    .text(String(number), pdf.left, y - 0.5, { width: indent - 4, lineBreak: false });
  doc.font(BOLD).fontSize(titleSize).fillColor(COLORS.ink).text(item.title, textX, y, { width, lineGap: 1.5 });
  const detailY = doc.y + 2;
  if (tag) pill(doc, tag, textX, detailY, COLORS.accent, { fontSize: 7, filled: false });
  drawDetailLine(doc, detail, detailY + 1);
  doc.x = pdf.left;
  doc.y += 7 * scale;
}

/** "Changes since 3 Nov 2026": the drift line, then the new, removed (with why) and changed items by title. */
export function driftBlock(pdf: PdfHandle, drift: RenderDrift, perList: number, scale: number): void {
  const { doc } = pdf;
  sectionLabel(pdf, `Changes since ${formatDate(drift.baseline_created_at)}`, 40);
  const size = Math.max(8, 10 * scale);
  note(pdf, driftLine(drift), size, COLORS.ink);
  const removed = drift.removed.map((item) => `${titleOf(item.title, item.id)} (${removalLabel(drift.removed_reasons[item.id])})`);
  const changed = drift.changed.map((change) => {
    const fields = change.fields.map((field) => field.field.replace(/_/g, ' '));
    return `${titleOf(change.title, change.item_id)}${fields.length > 0 ? ` (${fields.join(', ')})` : ''}`;
  });
  const lists: Array<[string, string[]]> = [
    ['New', drift.added.map((item) => titleOf(item.title, item.id))],
    ['Removed', removed],
    ['Changed', changed],
  ];
  for (const [label, entries] of lists) {
    if (entries.length === 0) continue;
    const shown = entries.slice(0, perList);
    const more = entries.length - shown.length;
    const text = `${shown.join('; ')}${more > 0 ? `; and ${more} more (see the PDF report)` : ''}.`;
    doc.moveDown(0.3);
    doc
      .font(BOLD)
      .fontSize(size)
      .fillColor(COLORS.ink)
      .text(`${label}: `, pdf.left, doc.y, { width: pdf.width, lineGap: 1.5, continued: true });
    doc.font(REGULAR).fillColor(COLORS.body).text(text, { continued: false });
  }
  doc.x = pdf.left;
  doc.moveDown(0.6);
}

function titleOf(title: unknown, id: string): string {
  return typeof title === 'string' && title.trim() ? title.trim() : id;
}

/** The numbered sources of the items shown, each with its address as a link. */
export function sourcesBlock(pdf: PdfHandle, items: readonly SnapshotItem[], references: References, scale: number): void {
  const { doc } = pdf;
  const numbers = [...new Set(items.flatMap((item) => references.itemNumbers(item)))].sort((a, b) => a - b);
  if (numbers.length === 0) return;
  sectionLabel(pdf, 'Sources', 30);
  const size = Math.max(7, 8 * scale);
  const indent = 24;
  for (const number of numbers) {
    const { citation } = references.list[number - 1]!;
    const url = safeHttpUrl(citation.url);
    const head = sourceMeta(citation);
    const text = `${head ? `${head}: ` : ''}${citation.title}. `;
    doc.font(REGULAR).fontSize(size);
    ensureSpace(pdf, doc.heightOfString(text + citation.url, { width: pdf.width - indent, lineGap: 0.5 }) + 3);
    const y = doc.y;
    doc
      .font(BOLD)
      .fontSize(size)
      .fillColor(COLORS.accent)
      .text(`[${number}]`, pdf.left, y, { width: indent - 2, lineBreak: false });
    doc
      .font(REGULAR)
      .fontSize(size)
      .fillColor(COLORS.body)
      .text(text, pdf.left + indent, y, { width: pdf.width - indent, lineGap: 0.5, continued: true });
    doc.fillColor(COLORS.accent).text(citation.url, { link: url ?? null, continued: false });
    doc.x = pdf.left;
    doc.y += 2.5;
  }
}
