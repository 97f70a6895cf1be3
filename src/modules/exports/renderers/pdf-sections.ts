/**
 * Sections of the full PDF report that state what the scan is and is not: the drift since the previous
 * comparable snapshot, the numbered references, and the appendix of every matching instrument the item cap
 * left out (`list: all_matched`).
 */
import type { SnapshotItem } from '../../../engine/envelope.types';
import { BOLD, COLORS, ensureSpace, heading, type PdfHandle, REGULAR } from './pdf-kit';
import { formatDate } from './render-dates';
import { driftLine, keyDateLabel, type References, removalLabel, shortSource, sourceLabel, sourceMeta } from './render-facts';
import { safeHttpUrl } from './render-text';
import { IMPACT_LABELS, label } from './item-labels';
import type { BeyondCapItem, RenderDrift } from './types';

const LINK = '#1D4ED8';

/** Prose with [[cite:N]] markers as de-duplicated reference numbers ("[2, 5]"). */
export function citesToReferences(text: string | null | undefined, references: References): string {
  return (text ?? '')
    .replace(/(?:\s*\[\[cite:\d+\]\])+/g, (run) => {
      const numbers = [...run.matchAll(/\[\[cite:(\d+)\]\]/g)]
        .map((m) => references.numberOf(Number(m[1])))
        .filter((n): n is number => n !== undefined);
      const unique = [...new Set(numbers)].sort((a, b) => a - b);
      return unique.length > 0 ? ` [${unique.join(', ')}]` : '';
    })
    .trim();
}

/** "Sources: [1] [4]", each number a link to its document. */
export function linkedSources(pdf: PdfHandle, item: SnapshotItem, references: References, x: number, width: number): void {
  const { doc } = pdf;
  const numbers = references.itemNumbers(item);
  if (numbers.length === 0) return;
  doc.font(BOLD).fontSize(8.5).fillColor(COLORS.muted).text('Sources: ', x, doc.y, { width, continued: true });
  numbers.forEach((number, index) => {
    const url = safeHttpUrl(references.list[number - 1]?.citation.url);
    const last = index === numbers.length - 1;
    const cited = references.list[number - 1]?.citation;
    const publisher = cited ? sourceLabel(cited) : '';
    doc
      .font(REGULAR)
      .fillColor(url ? LINK : COLORS.accent)
      .text(`[${number}]${publisher ? ` ${publisher}` : ''}`, { link: url ?? undefined, underline: false, continued: !last });
    if (!last) doc.fillColor(COLORS.muted).text('  ', { link: undefined, continued: true });
  });
}

/** The numbered reference list: one entry per distinct document, each URL a link. */
export function referencesSection(pdf: PdfHandle, references: References): void {
  if (references.list.length === 0) return;
  const { doc } = pdf;
  heading(pdf, 'References');
  for (const { number, citation } of references.list) {
    const url = safeHttpUrl(citation.url);
    const meta = sourceMeta(citation, 'publication date not recorded');
    const text = `${citation.title}. ${meta}.`;
    doc.font(REGULAR).fontSize(9);
    const height = doc.heightOfString(text, { width: pdf.width - 30 }) + doc.heightOfString(citation.url ?? '', { width: pdf.width - 30 }) + 6;
    ensureSpace(pdf, height);
    const y = doc.y;
    doc.font(BOLD).fontSize(9).fillColor(COLORS.accent).text(`[${number}]`, pdf.left, y, { width: 28 });
    doc.font(REGULAR).fontSize(9).fillColor(COLORS.ink).text(text, pdf.left + 30, y, { width: pdf.width - 30 });
    if (citation.url) {
      doc
        .font(REGULAR)
        .fontSize(8.5)
        .fillColor(url ? LINK : COLORS.muted)
        .text(citation.url, pdf.left + 30, doc.y, url ? { width: pdf.width - 30, link: url, underline: false } : { width: pdf.width - 30 });
    }
    doc.x = pdf.left;
    doc.moveDown(0.5);
  }
}

function titleOf(item: { id?: unknown; title?: unknown }): string {
  return typeof item.title === 'string' && item.title ? item.title : String(item.id ?? '');
}

function bulletList(pdf: PdfHandle, caption: string, lines: string[]): void {
  if (lines.length === 0) return;
  const { doc } = pdf;
  ensureSpace(pdf, 40);
  doc.font(BOLD).fontSize(10).fillColor(COLORS.ink).text(caption, pdf.left, doc.y, { width: pdf.width });
  doc.moveDown(0.2);
  for (const line of lines) {
    doc.font(REGULAR).fontSize(9.5);
    ensureSpace(pdf, doc.heightOfString(line, { width: pdf.width - 14 }) + 4);
    const y = doc.y;
    doc.fillColor(COLORS.muted).text('•', pdf.left + 2, y, { width: 10 });
    doc.fillColor(COLORS.body).text(line, pdf.left + 14, y, { width: pdf.width - 14 });
    doc.moveDown(0.2);
  }
  doc.moveDown(0.4);
}

/** "Changes since the scan of …": new, removed (with why) and changed items. */
export function driftSection(pdf: PdfHandle, drift: RenderDrift): void {
  const { doc } = pdf;
  heading(pdf, `Changes since ${formatDate(drift.baseline_created_at)}`);
  doc.font(REGULAR).fontSize(10.5).fillColor(COLORS.body).text(driftLine(drift), pdf.left, doc.y, { width: pdf.width });
  doc.moveDown(0.5);
  bulletList(pdf, 'New', drift.added.map(titleOf));
  bulletList(
    pdf,
    'Removed',
    drift.removed.map((item) => `${titleOf(item)} — ${removalLabel(drift.removed_reasons[String(item.id)])}`),
  );
  bulletList(
    pdf,
    'Changed',
    drift.changed.map((change) => `${titleOf({ id: change.item_id, title: change.title })}: ${change.fields.map((f) => f.field.replace(/_/g, ' ')).join(', ')}`),
  );
}

/** Appendix: every matching instrument the item cap left out, compactly, with its source. */
export function beyondCapSection(pdf: PdfHandle, items: readonly BeyondCapItem[], kept: number): void {
  const { doc } = pdf;
  heading(pdf, `Further matching instruments (${items.length} beyond the top ${kept})`);
  if (items.length === 0) {
    doc
      .font(REGULAR)
      .fontSize(10)
      .fillColor(COLORS.muted)
      .text('This snapshot records no matching instruments beyond its selected items.', pdf.left, doc.y, { width: pdf.width });
    return;
  }
  for (const item of items) {
    const line1 = `${item.title} (${item.jurisdiction})`;
    const line2 = [
      keyDateLabel(item) + (item.milestone ? ` — ${item.milestone}` : ''),
      `${label(IMPACT_LABELS, item.impact)} impact`,
      item.regulator,
    ].join(' · ');
    const source = item.citation ? shortSource({ citations: [{ id: 0, ...item.citation }] } as SnapshotItem) : null;
    doc.font(BOLD).fontSize(9.5);
    const height = doc.heightOfString(line1, { width: pdf.width }) + 30;
    ensureSpace(pdf, height);
    doc.fillColor(COLORS.ink).text(line1, pdf.left, doc.y, { width: pdf.width });
    doc.font(REGULAR).fontSize(8.5).fillColor(COLORS.body).text(line2, pdf.left, doc.y, { width: pdf.width });
    if (source && item.citation) {
      const url = safeHttpUrl(item.citation.url);
      doc
        .fillColor(url ? LINK : COLORS.muted)
        .text(`${source} — ${item.citation.url}`, pdf.left, doc.y, url ? { width: pdf.width, link: url, underline: false } : { width: pdf.width });
    }
    doc.moveDown(0.5);
  }
}

/** A tinted box with a one-paragraph notice (language fallback, disclaimer). */
export function noticeBox(pdf: PdfHandle, text: string, x: number, width: number, tone: 'warn' | 'info' = 'info'): void {
  const { doc } = pdf;
  doc.font(REGULAR).fontSize(9.5);
  const height = doc.heightOfString(text, { width: width - 20 }) + 14;
  ensureSpace(pdf, height + 8);
  const y = doc.y;
  doc.save();
  doc.rect(x, y, width, height).fill(tone === 'warn' ? '#FEF3C7' : COLORS.accentSoft);
  doc.rect(x, y, 3, height).fill(tone === 'warn' ? '#B45309' : COLORS.accent);
  doc.restore();
  doc.fillColor(COLORS.ink).text(text, x + 12, y + 7, { width: width - 20 });
  doc.y = y + height + 8;
  doc.x = pdf.left;
}
