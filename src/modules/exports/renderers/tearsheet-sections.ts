/**
 * The parts of the tearsheet below the bottom line: items by jurisdiction and by stage, the next key dates (as
 * many whole rows as fit) and the main trends (whole, as many as fit). Each returns the bottom of what it drew.
 */
import type { SnapshotItem, SnapshotTrend } from '../../../engine/envelope.types';
import { type DetailLine, detailLineHeight, drawDetailLine, fitFontSize, itemLink, itemReference } from './briefing-fit';
import { IMPACT_LABELS, IMPACTS, label, STAGE_LABELS } from './item-labels';
import { BOLD, COLORS, type PdfHandle, REGULAR } from './pdf-kit';
import { keyDateLabel, type References } from './render-facts';
import { stripCites } from './render-text';
import type { MatchedCount } from './matched-facts';

const MAX_BARS = 8;

export interface Area {
  x: number;
  y: number;
  width: number;
}

export function sectionLabel(pdf: PdfHandle, text: string, area: Area): void {
  const { doc } = pdf;
  doc
    .font(BOLD)
    .fontSize(8)
    .fillColor(COLORS.accent)
    .text(text.toUpperCase(), area.x, area.y, { width: area.width, characterSpacing: 0.8, lineBreak: false });
  doc.save();
  doc
    .moveTo(area.x, area.y + 12)
    .lineTo(area.x + area.width, area.y + 12)
    .lineWidth(0.5)
    .strokeColor(COLORS.rule)
    .stroke();
  doc.restore();
}

/** A label in a fixed-width cell: one line, shrunk down to 7pt; wrapped (never cut) if still too wide. */
function cellLabel(pdf: PdfHandle, text: string, x: number, y: number, width: number, size: number): void {
  const fitted = fitFontSize(pdf.doc, text, { font: REGULAR, width, max: size, min: 7 });
  pdf.doc.font(REGULAR).fontSize(fitted).fillColor(COLORS.ink).text(text, x, y, { width, lineGap: -1 });
}

/**
 * Matching instruments per jurisdiction (every match, not only the items shown), split by impact; every requested
 * jurisdiction has a row, 0 when nothing matched; beyond MAX_BARS rows the smallest are summed as "Other".
 */
export function jurisdictionBars(pdf: PdfHandle, counts: readonly MatchedCount[], area: Area, rowHeight: number): number {
  const { doc } = pdf;
  const { x, y, width } = area;
  let rows = [...counts].sort((a, b) => b.matched - a.matched || a.id.localeCompare(b.id));
  if (rows.length > MAX_BARS) {
    const rest = rows.slice(MAX_BARS - 1);
    const sum = (pick: (row: MatchedCount) => number) => rest.reduce((total, row) => total + pick(row), 0);
    rows = [
      ...rows.slice(0, MAX_BARS - 1),
      {
        id: 'Other',
        matched: sum((row) => row.matched),
        shown: sum((row) => row.shown),
        by_impact: { high: sum((row) => row.by_impact.high), medium: sum((row) => row.by_impact.medium), low: sum((row) => row.by_impact.low) },
      },
    ];
  }
  const max = Math.max(1, ...rows.map((row) => row.matched));
  const labelWidth = 92;
  const countWidth = 26;
  const barWidth = width - labelWidth - countWidth - 6;
  const barHeight = rowHeight - 4;
  const countSize = Math.min(7, barHeight - 2);
  rows.forEach((row, index) => {
    const rowY = y + index * rowHeight;
    cellLabel(pdf, row.id, x, rowY + 2, labelWidth - 6, Math.min(9, rowHeight - 5));
    let barX = x + labelWidth;
    for (const impact of IMPACTS) {
      const count = row.by_impact[impact];
      if (count === 0) continue;
      const w = (count / max) * barWidth;
      doc.save();
      doc.rect(barX, rowY + 2, w, barHeight).fill(COLORS.impact[impact]!);
      doc.restore();
      doc.font(BOLD).fontSize(countSize);
      if (doc.widthOfString(String(count)) + 4 <= w) {
        const textY = rowY + 2 + (barHeight - doc.currentLineHeight()) / 2;
        doc.fillColor('#FFFFFF').text(String(count), barX, textY, { width: w, align: 'center', lineBreak: false });
      }
      barX += w;
    }
    doc
      .font(BOLD)
      .fontSize(Math.min(9, rowHeight - 5))
      .fillColor(COLORS.ink)
      .text(String(row.matched), barX + 5, rowY + 2, { width: countWidth, lineBreak: false });
  });
  if (rows.length === 0)
    doc
      .font(REGULAR)
      .fontSize(9)
      .fillColor(COLORS.muted)
      .text('No items', x, y + 4, { width });
  const legendY = y + Math.max(rows.length, 1) * rowHeight + 4;
  let legendX = x + labelWidth;
  for (const impact of IMPACTS) {
    doc.save();
    doc.rect(legendX, legendY + 2, 8, 8).fill(COLORS.impact[impact]!);
    doc.restore();
    doc
      .font(REGULAR)
      .fontSize(8)
      .fillColor(COLORS.muted)
      .text(IMPACT_LABELS[impact], legendX + 11, legendY + 1.5, { width: 50, lineBreak: false });
    legendX += 62;
  }
  return legendY + 12;
}

/** Matching instruments by stage (every match, not only the items shown). */
export function stageBars(pdf: PdfHandle, byStage: ReadonlyMap<string, number>, area: Area, rowHeight: number): number {
  const { doc } = pdf;
  const { x, y, width } = area;
  const stages = Object.keys(STAGE_LABELS).filter((stage) => (byStage.get(stage) ?? 0) > 0);
  const max = Math.max(1, ...stages.map((stage) => byStage.get(stage) ?? 0));
  stages.forEach((stage, index) => {
    const rowY = y + index * rowHeight;
    const count = byStage.get(stage) ?? 0;
    cellLabel(pdf, label(STAGE_LABELS, stage), x, rowY + 2, 76, Math.min(9, rowHeight - 5));
    const barWidth = ((width - 80 - 30) * count) / max;
    doc.save();
    doc.rect(x + 80, rowY + 2, barWidth, rowHeight - 4).fill(COLORS.accent);
    doc.restore();
    doc
      .font(BOLD)
      .fontSize(Math.min(9, rowHeight - 5))
      .fillColor(COLORS.ink)
      .text(String(count), x + 80 + barWidth + 5, rowY + 2, { width: 26, lineBreak: false });
  });
  return y + stages.length * rowHeight;
}

const DATE_WIDTH = 100;
const PAD = 5;

interface Row {
  item: SnapshotItem;
  titleSize: number;
  detail: DetailLine;
  height: number;
}

/** A row's content measured: the whole title (shrunk to 7.5pt at most), then jurisdiction, milestone and source. */
function measureRow(pdf: PdfHandle, item: SnapshotItem, area: Area, references: References, scale: number): Row {
  const { doc } = pdf;
  const titleX = area.x + DATE_WIDTH;
  const titleWidth = area.width - DATE_WIDTH - PAD;
  const titleSize = fitFontSize(doc, item.title, {
    font: BOLD,
    width: titleWidth,
    max: 9 * scale,
    min: 7.5,
    maxHeight: 2 * 11 * scale,
    lineGap: 0.5,
  });
  doc.font(BOLD).fontSize(titleSize);
  const titleHeight = doc.heightOfString(item.title, { width: titleWidth, lineGap: 0.5 });
  const milestone = (item.milestone ?? '').trim();
  const detail: DetailLine = {
    text: [item.jurisdiction, milestone].filter((part) => part).join(' · '),
    reference: itemReference(item, references),
    link: itemLink(item),
    x: titleX,
    width: titleWidth,
    size: 7.5,
    color: COLORS.muted,
  };
  doc.font(BOLD).fontSize(8.5);
  const dateHeight = doc.heightOfString(keyDateLabel(item), { width: DATE_WIDTH - 2 * PAD }) + 11;
  const height = Math.max(titleHeight + 2 + detailLineHeight(doc, detail), dateHeight) + 2 * PAD;
  return { item, titleSize, detail, height };
}

/**
 * The next key dates, soonest first, as many whole rows as fit above `bottom` (at most `items.length`).
 * Returns the rows drawn and the bottom.
 */
export function keyDateTable(
  pdf: PdfHandle,
  items: readonly SnapshotItem[],
  area: Area,
  bottom: number,
  references: References,
  scale: number,
): { shown: number; bottom: number } {
  const { doc } = pdf;
  const headers: Array<[string, number, number]> = [
    ['Date · impact', area.x, DATE_WIDTH],
    ['Instrument · jurisdiction · milestone · source', area.x + DATE_WIDTH, area.width - DATE_WIDTH],
  ];
  for (const [name, x, w] of headers) {
    doc
      .font(BOLD)
      .fontSize(7)
      .fillColor(COLORS.muted)
      .text(name.toUpperCase(), x + PAD, area.y, { width: w - 2 * PAD, characterSpacing: 0.5, lineBreak: false });
  }
  let y = area.y + 13;
  let shown = 0;
  for (const item of items) {
    const row = measureRow(pdf, item, area, references, scale);
    if (y + row.height > bottom) break;
    if (shown % 2 === 0) {
      doc.save();
      doc.rect(area.x, y, area.width, row.height).fill(COLORS.tint);
      doc.restore();
    }
    doc
      .font(BOLD)
      .fontSize(8.5)
      .fillColor(COLORS.ink)
      .text(keyDateLabel(item), area.x + PAD, y + PAD, { width: DATE_WIDTH - 2 * PAD });
    doc
      .font(BOLD)
      .fontSize(7.5)
      .fillColor(COLORS.impact[item.impact] ?? COLORS.ink)
      .text(`${label(IMPACT_LABELS, item.impact)} impact`, area.x + PAD, doc.y + 1, { width: DATE_WIDTH - 2 * PAD });
    doc
      .font(BOLD)
      .fontSize(row.titleSize)
      .fillColor(COLORS.ink)
      .text(item.title, row.detail.x, y + PAD, { width: row.detail.width, lineGap: 0.5 });
    drawDetailLine(doc, row.detail, doc.y + 2);
    y += row.height;
    shown++;
  }
  if (items.length === 0) {
    doc
      .font(REGULAR)
      .fontSize(9)
      .fillColor(COLORS.muted)
      .text('No key dates inside the horizon.', area.x + PAD, y + 4, { width: area.width });
    y += 18;
  }
  doc.x = pdf.left;
  return { shown, bottom: y };
}

/**
 * "Main trends" (the label only when one fits), each whole (title, momentum, description), as many as fit above
 * `bottom`. Returns how many it drew.
 */
export function trendList(pdf: PdfHandle, trends: readonly SnapshotTrend[], area: Area, bottom: number): { shown: number; bottom: number } {
  const { doc } = pdf;
  const tagWidth = 60;
  let y = area.y + 18;
  let shown = 0;
  for (const trend of trends) {
    const description = stripCites(trend.description);
    doc.font(BOLD).fontSize(9);
    const titleHeight = doc.heightOfString(trend.title, { width: area.width - tagWidth - 6 });
    doc.font(REGULAR).fontSize(8);
    const height = titleHeight + 2 + (description ? doc.heightOfString(description, { width: area.width, lineGap: 1 }) : 0);
    if (y + height > bottom) break;
    if (shown === 0) sectionLabel(pdf, 'Main trends', area);
    doc
      .font(BOLD)
      .fontSize(9)
      .fillColor(COLORS.ink)
      .text(trend.title, area.x, y, { width: area.width - tagWidth - 6 });
    doc
      .font(BOLD)
      .fontSize(7)
      .fillColor(trend.momentum === 'rising' ? COLORS.impact.high! : COLORS.muted)
      .text((trend.momentum ?? '').toUpperCase(), area.x + area.width - tagWidth, y + 1.5, {
        width: tagWidth,
        align: 'right',
        lineBreak: false,
      });
    if (description) {
      doc
        .font(REGULAR)
        .fontSize(8)
        .fillColor(COLORS.body)
        .text(description, area.x, y + titleHeight + 2, { width: area.width, lineGap: 1 });
    }
    y += height + 8;
    shown++;
  }
  doc.x = pdf.left;
  return { shown, bottom: y };
}
