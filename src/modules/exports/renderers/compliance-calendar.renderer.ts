/**
 * `compliance-calendar` (internal-calendar): the page people pin up. A4 landscape, every kept item grouped by
 * month of its key date (a date only known as a quarter, half-year or year gets its own group, "H2 2026 (date
 * not fixed)", after the months it spans; items with no date come last), in three columns. Each entry: date,
 * jurisdiction and the whole title; then milestone, impact, date confidence and a linked short source.
 *
 * Fitting: the type size shrinks from 8 pt until everything fits on one page; below MIN_SIZE it stays there and
 * the calendar continues on further pages (saying so), so no entry is ever cut or dropped.
 */
import { daysInMonth } from '../../../engine/analysis/dates';
import type { SnapshotItem } from '../../../engine/envelope.types';
import { artefactFilename } from './artefact-filename';
import { IMPACT_LABELS, label } from './item-labels';
import { BOLD, COLORS, createPdf, finish, type PdfHandle, REGULAR } from './pdf-kit';
import { formatLongDate, horizonText, scanDateOf } from './render-dates';
import { disclaimerLine, driftLine, keyDatePeriod, languageNotice, selectionLine, shortSource } from './render-facts';
import { listText, safeHttpUrl, snapshotTexts } from './render-text';
import type { RenderedArtefact, RenderInput } from './types';

const COLUMNS = 3;
const GUTTER = 16;
const MAX_SIZE = 8;
const MIN_SIZE = 5.5;
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const CONFIDENCE_WORDS: Readonly<Record<string, string>> = { confirmed: 'confirmed', expected: 'expected', speculative: 'estimated' };

export interface CalendarGroup {
  label: string;
  /** Sort key: the last day the group covers ('9999' for undated items). */
  until: string;
  items: SnapshotItem[];
}

/** Items grouped as the calendar prints them (see the module comment), in date order. */
export function calendarGroups(items: readonly SnapshotItem[]): CalendarGroup[] {
  const groups = new Map<string, CalendarGroup>();
  for (const item of items) {
    const period = keyDatePeriod(item);
    const precision = item.key_date_precision ?? 'day';
    let key: string;
    let group: Omit<CalendarGroup, 'items'>;
    if (!period) {
      key = 'none';
      group = { label: 'Date not set', until: '9999' };
    } else if (precision === 'day' || precision === 'month') {
      key = item.key_date.slice(0, 7);
      // Sorts before a period ending that month ('2026-12-31' < '2026-12-31~').
      const lastDay = daysInMonth(Number(key.slice(0, 4)), Number(key.slice(5, 7)));
      group = { label: `${MONTHS[Number(item.key_date.slice(5, 7)) - 1]} ${item.key_date.slice(0, 4)}`, until: `${key}-${lastDay}` };
    } else {
      key = `period:${period}`;
      group = { label: `${period} (date not fixed)`, until: `${item.key_date}~` };
    }
    const existing = groups.get(key);
    if (existing) existing.items.push(item);
    else groups.set(key, { ...group, items: [item] });
  }
  const sorted = [...groups.values()].sort((a, b) => (a.until < b.until ? -1 : a.until > b.until ? 1 : 0));
  for (const group of sorted) group.items.sort((a, b) => (a.key_date ?? '').localeCompare(b.key_date ?? '') || a.title.localeCompare(b.title));
  return sorted;
}

interface Entry {
  head: string;
  detail: string;
  source: string | null;
  url: string | null;
}

function entryOf(item: SnapshotItem): Entry {
  const period = keyDatePeriod(item);
  const precision = item.key_date_precision ?? 'day';
  const day = period && precision === 'day' ? `${Number(item.key_date.slice(8, 10))} ${MONTHS[Number(item.key_date.slice(5, 7)) - 1]!.slice(0, 3)} · ` : '';
  const detail = [
    item.milestone?.trim() || null,
    `${label(IMPACT_LABELS, item.impact)} impact`,
    CONFIDENCE_WORDS[item.date_confidence] ?? item.date_confidence,
  ]
    .filter((part): part is string => !!part)
    .join(' · ');
  return { head: `${day}[${item.jurisdiction}] ${item.title}`, detail, source: shortSource(item), url: safeHttpUrl(item.citations?.[0]?.url) };
}

type Block = { kind: 'group'; label: string } | { kind: 'entry'; entry: Entry; impact: string };

function blocks(groups: readonly CalendarGroup[]): Block[] {
  return groups.flatMap((group): Block[] => [
    { kind: 'group', label: group.label },
    ...group.items.map((item): Block => ({ kind: 'entry', entry: entryOf(item), impact: item.impact })),
  ]);
}

function blockHeight(pdf: PdfHandle, block: Block, size: number, width: number): number {
  const { doc } = pdf;
  if (block.kind === 'group') return doc.font(BOLD).fontSize(size + 2).heightOfString(block.label, { width }) + size * 0.9;
  let height = doc.font(BOLD).fontSize(size).heightOfString(block.entry.head, { width: width - 6 });
  height += doc.font(REGULAR).fontSize(size - 0.5).heightOfString(block.entry.detail, { width: width - 6 });
  if (block.entry.source) height += doc.heightOfString(block.entry.source, { width: width - 6 });
  return height + size * 0.7;
}

/** Room a block needs where it starts: a month heading keeps its first entry with it. */
function keep(all: readonly Block[], heights: readonly number[], index: number): number {
  return heights[index]! + (all[index]!.kind === 'group' ? (heights[index + 1] ?? 0) : 0);
}

/** Pages the blocks take at `size` (columns filled top to bottom, left to right). */
function pagesAt(pdf: PdfHandle, all: readonly Block[], size: number, columnWidth: number, top: number): number {
  let pages = 1;
  let column = 0;
  let y = top;
  const heights = all.map((block) => blockHeight(pdf, block, size, columnWidth));
  for (const [index, height] of heights.entries()) {
    if (y + keep(all, heights, index) > pdf.bottom && y > top) {
      column++;
      if (column === COLUMNS) {
        pages++;
        column = 0;
      }
      y = top;
    }
    y += height;
  }
  return pages;
}

function header(pdf: PdfHandle, input: RenderInput, continued: boolean): number {
  const { doc } = pdf;
  const { snapshot } = input;
  doc.font(BOLD).fontSize(7.5).fillColor(COLORS.accent).text('COMPLIANCE CALENDAR', pdf.left, pdf.top, { width: pdf.width, characterSpacing: 0.8 });
  const title = continued ? `${snapshot.title} (continued)` : snapshot.title;
  doc.font(BOLD).fontSize(13).fillColor(COLORS.ink).text(title, pdf.left, doc.y + 1, { width: pdf.width });
  if (!continued) {
    const scope = [
      `Scan ${formatLongDate(scanDateOf(snapshot))}`,
      `horizon ${horizonText(snapshot)}`,
      listText(snapshot.config.jurisdictions),
      listText(snapshot.config.areas),
      selectionLine(snapshot),
      input.drift ? driftLine(input.drift) : '',
    ]
      .filter((part) => part)
      .join('  ·  ');
    doc.font(REGULAR).fontSize(7.5).fillColor(COLORS.muted).text(scope, pdf.left, doc.y + 1, { width: pdf.width });
    const notice = languageNotice(input);
    if (notice) doc.font(BOLD).fontSize(7.5).fillColor('#B45309').text(notice, pdf.left, doc.y + 1, { width: pdf.width });
  }
  const y = doc.y + 5;
  doc.save();
  doc.moveTo(pdf.left, y).lineTo(pdf.right, y).lineWidth(0.75).strokeColor(COLORS.accent).stroke();
  doc.restore();
  return y + 7;
}

function drawBlock(pdf: PdfHandle, block: Block, size: number, x: number, y: number, width: number): void {
  const { doc } = pdf;
  if (block.kind === 'group') {
    doc.font(BOLD).fontSize(size + 2).fillColor(COLORS.accent).text(block.label, x, y, { width });
    return;
  }
  const start = y;
  doc.font(BOLD).fontSize(size).fillColor(COLORS.ink).text(block.entry.head, x + 6, y, { width: width - 6 });
  doc.font(REGULAR).fontSize(size - 0.5).fillColor(COLORS.body).text(block.entry.detail, x + 6, doc.y, { width: width - 6 });
  if (block.entry.source) {
    const options = block.entry.url ? { width: width - 6, link: block.entry.url, underline: false } : { width: width - 6 };
    doc.fillColor(block.entry.url ? '#1D4ED8' : COLORS.muted).text(block.entry.source, x + 6, doc.y, options);
  }
  doc.save();
  doc.rect(x, start + 1, 2, doc.y - start - 2).fill(COLORS.impact[block.impact] ?? COLORS.muted);
  doc.restore();
}

export async function renderComplianceCalendar(input: RenderInput): Promise<RenderedArtefact> {
  const { snapshot } = input;
  const items = snapshot.data.items ?? [];
  const disclaimer = disclaimerLine(snapshot);
  const pdf = createPdf(input, {
    title: `${snapshot.title} — compliance calendar`,
    subject: 'Compliance calendar',
    texts: [...snapshotTexts(snapshot), ...items.map((item) => item.milestone ?? ''), 'COMPLIANCE CALENDAR (continued) Date not set · —', disclaimer, languageNotice(input) ?? ''],
    margins: { top: 30, bottom: 48, left: 32, right: 32 },
    layout: 'landscape',
  });
  const { doc } = pdf;
  const columnWidth = (pdf.width - GUTTER * (COLUMNS - 1)) / COLUMNS;
  const all = blocks(calendarGroups(items));
  const top = header(pdf, input, false);

  let size = MAX_SIZE;
  while (size > MIN_SIZE && pagesAt(pdf, all, size, columnWidth, top) > 1) size -= 0.25;

  if (all.length === 0) {
    doc.font(REGULAR).fontSize(10).fillColor(COLORS.muted).text('No item falls inside the horizon.', pdf.left, top, { width: pdf.width });
  }
  let column = 0;
  let y = top;
  let pageTop = top;
  const heights = all.map((block) => blockHeight(pdf, block, size, columnWidth));
  for (const [index, block] of all.entries()) {
    const height = heights[index]!;
    if (y + keep(all, heights, index) > pdf.bottom && y > pageTop) {
      column++;
      if (column === COLUMNS) {
        doc.addPage();
        pageTop = header(pdf, input, true);
        column = 0;
      }
      y = pageTop;
    }
    drawBlock(pdf, block, size, pdf.left + column * (columnWidth + GUTTER), y, columnWidth);
    y += height;
  }

  const bytes = await finish(pdf, disclaimer);
  return { bytes, mime: 'application/pdf', filename: artefactFilename(snapshot, 'pdf', 'calendar') };
}
