/**
 * `compliance-calendar` (internal-calendar): the one page people pin up. A4 landscape, the upcoming milestones of
 * the kept items across the whole horizon (each item's timeline, not only its key date), grouped by month (a
 * date only known as a quarter, half-year or year gets its own group, "H2 2026 (date not fixed)", after the months
 * it spans; items with no date come last), in three columns. Each entry: date, jurisdiction and the whole title;
 * then milestone, impact, date confidence and a linked short source.
 *
 * Fitting: the type size shrinks from 8 pt to MIN_SIZE (7 pt) until everything fits on the one page. When even
 * that is too much, the page keeps the milestones that matter most, taken in turn from each quarter of the horizon
 * (so a 36-month calendar never stops after the first year), each item's key date before its other milestones,
 * and says how many more the PDF report holds. Nothing is cut mid-entry. (Quarters rather than years, so that a
 * 12-month calendar too reaches its last months.)
 */
import { daysInMonth, isIsoDate, isoPeriod } from '../../../engine/analysis/dates';
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
const MIN_SIZE = 7;
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const CONFIDENCE_WORDS: Readonly<Record<string, string>> = { confirmed: 'confirmed', expected: 'expected', speculative: 'estimated' };

/** What the calendar needs of an entry: a date as precise as it is known, and a title to order by. */
type Dated = Pick<SnapshotItem, 'key_date' | 'key_date_precision' | 'date_confidence' | 'title'>;

export interface CalendarGroup<T extends Dated = SnapshotItem> {
  label: string;
  /** Sort key: the last day the group covers ('9999' for undated items). */
  until: string;
  items: T[];
}

/** One milestone on the calendar: an item's key date or another upcoming milestone of its timeline. */
export interface CalendarMilestone extends Dated {
  item: SnapshotItem;
  milestone: string;
  /** True for the item's key date (the milestone that leads it). */
  lead: boolean;
}

/** The upcoming milestones of the items (their key dates when they carry no timeline), in item order. */
export function calendarMilestones(items: readonly SnapshotItem[]): CalendarMilestone[] {
  return items.flatMap((item): CalendarMilestone[] => {
    const upcoming = (item.timeline ?? []).filter((m) => m.status === 'upcoming');
    const lead: CalendarMilestone = { item, title: item.title, key_date: item.key_date, key_date_precision: item.key_date_precision, date_confidence: item.date_confidence, milestone: item.milestone?.trim() ?? '', lead: true };
    const others = upcoming
      .filter((m) => !(m.date === item.key_date && m.event === item.milestone))
      .map((m): CalendarMilestone => ({ item, title: item.title, key_date: m.date, key_date_precision: m.precision, date_confidence: m.confidence, milestone: m.event, lead: false }));
    return [lead, ...others];
  });
}

const IMPACT_ORDER: Readonly<Record<string, number>> = { high: 0, medium: 1, low: 2 };

/**
 * The order in which milestones earn a place when the page cannot hold them all: the quarters of the horizon take
 * turns, and within a quarter key dates come before other milestones, then higher impact, then the item's rank.
 * Entries with no date come after every dated one: a calendar cannot place them.
 */
export function calendarPriority(entries: readonly CalendarMilestone[]): CalendarMilestone[] {
  const rank = new Map<SnapshotItem, number>();
  for (const entry of entries) if (!rank.has(entry.item)) rank.set(entry.item, rank.size);
  const quarters = new Map<string, CalendarMilestone[]>();
  const undated: CalendarMilestone[] = [];
  for (const entry of entries) {
    const date = (entry.key_date ?? '').slice(0, 10);
    if (!isIsoDate(date)) {
      undated.push(entry);
      continue;
    }
    const quarter = isoPeriod(date, 'quarter');
    quarters.set(quarter, [...(quarters.get(quarter) ?? []), entry]);
  }
  const queues = [...quarters.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([, list]) =>
      list.sort(
        (a, b) =>
          Number(b.lead) - Number(a.lead) ||
          (IMPACT_ORDER[a.item.impact] ?? 9) - (IMPACT_ORDER[b.item.impact] ?? 9) ||
          rank.get(a.item)! - rank.get(b.item)! ||
          (a.key_date ?? '').localeCompare(b.key_date ?? ''),
      ),
    );
  const ordered: CalendarMilestone[] = [];
  const dated = entries.length - undated.length;
  for (let round = 0; ordered.length < dated; round++) for (const queue of queues) if (queue[round]) ordered.push(queue[round]!);
  return [...ordered, ...undated];
}

/** Entries grouped as the calendar prints them (see the module comment), in date order. */
export function calendarGroups<T extends Dated>(items: readonly T[]): CalendarGroup<T>[] {
  const groups = new Map<string, CalendarGroup<T>>();
  for (const item of items) {
    const period = keyDatePeriod(item);
    const precision = item.key_date_precision ?? 'day';
    let key: string;
    let group: Omit<CalendarGroup<T>, 'items'>;
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

function entryOf(entry: CalendarMilestone): Entry {
  const { item } = entry;
  const period = keyDatePeriod(entry);
  const precision = entry.key_date_precision ?? 'day';
  const day = period && precision === 'day' ? `${Number(entry.key_date.slice(8, 10))} ${MONTHS[Number(entry.key_date.slice(5, 7)) - 1]!.slice(0, 3)} · ` : '';
  const detail = [
    entry.milestone || null,
    `${label(IMPACT_LABELS, item.impact)} impact`,
    CONFIDENCE_WORDS[entry.date_confidence] ?? entry.date_confidence,
  ]
    .filter((part): part is string => !!part)
    .join(' · ');
  return { head: `${day}[${item.jurisdiction}] ${item.title}`, detail, source: shortSource(item), url: safeHttpUrl(item.citations?.[0]?.url) };
}

type Block = { kind: 'group'; label: string } | { kind: 'entry'; entry: Entry; impact: string };

function blocks(groups: readonly CalendarGroup<CalendarMilestone>[]): Block[] {
  return groups.flatMap((group): Block[] => [
    { kind: 'group', label: group.label },
    ...group.items.map((entry): Block => ({ kind: 'entry', entry: entryOf(entry), impact: entry.item.impact })),
  ]);
}

function blockHeight(pdf: PdfHandle, block: Block, size: number, width: number): number {
  const { doc } = pdf;
  if (block.kind === 'group') return doc.font(BOLD).fontSize(size + 2).heightOfString(block.label, { width }) + size * 0.9;
  let height = doc.font(BOLD).fontSize(size).heightOfString(block.entry.head, { width: width - 6 });
  height += doc.font(REGULAR).fontSize(Math.max(MIN_SIZE, size - 0.5)).heightOfString(block.entry.detail, { width: width - 6 });
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

/** "All 52 upcoming milestones of the 17 items." or "41 of 96 upcoming milestones of the 40 items; +55 more in the PDF report." */
export function calendarCoverageLine(shown: number, total: number, items: number): string {
  const of = `upcoming milestone${total === 1 ? '' : 's'} of the ${items} item${items === 1 ? '' : 's'}`;
  return shown >= total ? `All ${total} ${of}.` : `${shown} of ${total} ${of}; +${total - shown} more in the PDF report.`;
}

function scopeLine(input: RenderInput, coverage: string): string {
  const { snapshot } = input;
  return [
    `Scan ${formatLongDate(scanDateOf(snapshot))}`,
    `horizon ${horizonText(snapshot)}`,
    listText(snapshot.config.jurisdictions),
    listText(snapshot.config.areas),
    selectionLine(snapshot),
    coverage,
    input.drift ? driftLine(input.drift) : '',
  ]
    .filter((part) => part)
    .join('  ·  ');
}

/** Where the columns start below the header, measured without drawing it (2 pt spare). */
function headerBottom(pdf: PdfHandle, input: RenderInput, coverage: string): number {
  const { doc } = pdf;
  const width = { width: pdf.width };
  let y = pdf.top + doc.font(BOLD).fontSize(8).heightOfString('COMPLIANCE CALENDAR', { ...width, characterSpacing: 0.8 });
  y += 1 + doc.font(BOLD).fontSize(13).heightOfString(input.snapshot.title, width);
  y += 1 + doc.font(REGULAR).fontSize(8).heightOfString(scopeLine(input, coverage), width);
  const notice = languageNotice(input);
  if (notice) y += 1 + doc.font(BOLD).fontSize(8).heightOfString(notice, width);
  return y + 5 + 7 + 2;
}

function header(pdf: PdfHandle, input: RenderInput, coverage: string): number {
  const { doc } = pdf;
  const { snapshot } = input;
  doc.font(BOLD).fontSize(8).fillColor(COLORS.accent).text('COMPLIANCE CALENDAR', pdf.left, pdf.top, { width: pdf.width, characterSpacing: 0.8 });
  doc.font(BOLD).fontSize(13).fillColor(COLORS.ink).text(snapshot.title, pdf.left, doc.y + 1, { width: pdf.width });
  doc.font(REGULAR).fontSize(8).fillColor(COLORS.muted).text(scopeLine(input, coverage), pdf.left, doc.y + 1, { width: pdf.width });
  const notice = languageNotice(input);
  if (notice) doc.font(BOLD).fontSize(8).fillColor('#B45309').text(notice, pdf.left, doc.y + 1, { width: pdf.width });
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
  doc.font(REGULAR).fontSize(Math.max(MIN_SIZE, size - 0.5)).fillColor(COLORS.body).text(block.entry.detail, x + 6, doc.y, { width: width - 6 });
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
    texts: [
      ...snapshotTexts(snapshot),
      ...items.flatMap((item) => [item.milestone ?? '', ...(item.timeline ?? []).map((m) => m.event)]),
      'COMPLIANCE CALENDAR Date not set · — +0123456789 more in the PDF report; upcoming milestones of the items',
      disclaimer,
      languageNotice(input) ?? '',
    ],
    margins: { top: 30, bottom: 48, left: 32, right: 32 },
    layout: 'landscape',
  });
  const { doc } = pdf;
  const columnWidth = (pdf.width - GUTTER * (COLUMNS - 1)) / COLUMNS;
  const priority = calendarPriority(calendarMilestones(items));
  const blocksOf = (count: number) => blocks(calendarGroups(priority.slice(0, count)));
  // Measured with the longest coverage line the header can carry, so the columns never start lower than planned.
  const measureTop = headerBottom(pdf, input, items.length === 0 ? '' : calendarCoverageLine(priority.length - 1, priority.length, items.length));

  let size = MAX_SIZE;
  while (size > MIN_SIZE && pagesAt(pdf, blocksOf(priority.length), size, columnWidth, measureTop) > 1) size -= 0.25;
  // The most milestones (in priority order) that fit the one page at this size.
  let shown = priority.length;
  if (pagesAt(pdf, blocksOf(shown), size, columnWidth, measureTop) > 1) {
    let low = 0;
    let high = priority.length;
    while (low < high) {
      const mid = Math.ceil((low + high) / 2);
      if (pagesAt(pdf, blocksOf(mid), size, columnWidth, measureTop) === 1) low = mid;
      else high = mid - 1;
    }
    shown = low;
  }
  const top = header(pdf, input, items.length === 0 ? '' : calendarCoverageLine(shown, priority.length, items.length));
  const all = blocksOf(shown);

  if (all.length === 0) {
    doc.font(REGULAR).fontSize(10).fillColor(COLORS.muted).text('No item falls inside the horizon.', pdf.left, top, { width: pdf.width });
  }
  let column = 0;
  let y = top;
  const heights = all.map((block) => blockHeight(pdf, block, size, columnWidth));
  for (const [index, block] of all.entries()) {
    const height = heights[index]!;
    if (y + keep(all, heights, index) > pdf.bottom && y > top) {
      column++;
      // Cannot happen (the count was chosen to fit); stop rather than run off the page.
      if (column === COLUMNS) break;
      y = top;
    }
    drawBlock(pdf, block, size, pdf.left + column * (columnWidth + GUTTER), y, columnWidth);
    y += height;
  }

  const bytes = await finish(pdf, disclaimer);
  return { bytes, mime: 'application/pdf', filename: artefactFilename(snapshot, 'pdf', 'calendar') };
}
