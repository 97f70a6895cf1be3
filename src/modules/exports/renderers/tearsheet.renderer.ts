/**
 * `tearsheet` (internal-tearsheet): exactly one A4 page, top to bottom:
 * header (title, scan date, horizon, scope); headline numbers (items, high / medium / low impact); the bottom
 * line; items by jurisdiction as bars split by impact (top 8 jurisdictions, the rest as "Other"); items by
 * stage; the next 5 key dates (date, jurisdiction, instrument, impact, confidence); then as many trends as fit.
 * Every text is drawn in a fixed box and truncated with an ellipsis, so the page never overflows.
 */
import type { SnapshotItem } from '../../../engine/envelope.types';
import { artefactFilename } from './artefact-filename';
import { CONFIDENCE_LABELS, IMPACT_LABELS, IMPACTS, label, STAGE_LABELS } from './item-labels';
import { countBy, upcomingItems } from './item-grouping';
import { formatDate, formatLongDate, horizonText, scanDateOf } from './render-dates';
import { listText, snapshotTexts, stripCites } from './render-text';
import { A4, BOLD, COLORS, createPdf, finish, impactTiles, type PdfHandle, REGULAR, statTiles } from './pdf-kit';
import type { RenderedArtefact, RenderInput } from './types';

const MAX_BARS = 8;

export async function renderTearsheet(input: RenderInput): Promise<RenderedArtefact> {
  const { snapshot } = input;
  const items = snapshot.data.items ?? [];
  const pdf = createPdf(input, {
    title: `${snapshot.title} — tearsheet`,
    subject: 'Regulatory horizon tearsheet',
    texts: [
      ...snapshotTexts(snapshot),
      'Tearsheet Items High Medium Low impact By jurisdiction stage Next key dates Bottom line Other Page 1 of 1 …·—',
    ],
    margins: { top: 40, bottom: 40, left: 44, right: 44 },
  });
  const { doc } = pdf;
  const left = pdf.left;
  const width = pdf.width;

  // Header.
  doc.save();
  doc.rect(0, 0, A4.width, 118).fill(COLORS.accent);
  doc.restore();
  doc
    .font(BOLD)
    .fontSize(8)
    .fillColor('#C9D6E8')
    .text('REGULATORY HORIZON TEARSHEET', left, 30, { width, characterSpacing: 0.8, lineBreak: false });
  doc.font(BOLD).fontSize(20).fillColor('#FFFFFF').text(snapshot.title, left, 44, { width, height: 28, ellipsis: true });
  const scope = [
    `Scan ${formatLongDate(scanDateOf(snapshot))}`,
    `Horizon ${horizonText(snapshot)}`,
    listText(snapshot.config.jurisdictions),
    listText(snapshot.config.areas),
  ].join('  ·  ');
  doc.font(REGULAR).fontSize(9.5).fillColor('#DCE4EF').text(scope, left, 78, { width, height: 26, ellipsis: true });

  // Headline numbers.
  const tileY = 136;
  const tileHeight = 64;
  statTiles(doc, impactTiles(items), { left, y: tileY, width, height: tileHeight, valueAt: 11, labelAt: 44 });

  // Bottom line.
  const bottomLine =
    stripCites(snapshot.data.executive_summary?.bottom_line) || stripCites(snapshot.data._briefing?.bottom_line_tight) || '—';
  const boxY = tileY + tileHeight + 16;
  doc.font(REGULAR).fontSize(10.5);
  const textHeight = Math.min(doc.heightOfString(bottomLine, { width: width - 32, lineGap: 2 }), 90);
  const boxHeight = textHeight + 40;
  doc.save();
  doc.rect(left, boxY, width, boxHeight).fill(COLORS.accentSoft);
  doc.rect(left, boxY, 4, boxHeight).fill(COLORS.accent);
  doc.restore();
  doc
    .font(BOLD)
    .fontSize(8)
    .fillColor(COLORS.accent)
    .text('BOTTOM LINE', left + 16, boxY + 12, { width: width - 32, characterSpacing: 0.8, lineBreak: false });
  doc
    .font(REGULAR)
    .fontSize(10.5)
    .fillColor(COLORS.ink)
    .text(bottomLine, left + 16, boxY + 28, { width: width - 32, height: textHeight + 2, ellipsis: true, lineGap: 2 });

  // Items by jurisdiction (bars split by impact) and by stage.
  const chartY = boxY + boxHeight + 22;
  const colGap = 24;
  const leftWidth = width * 0.6 - colGap / 2;
  const rightX = left + leftWidth + colGap;
  const rightWidth = width - leftWidth - colGap;
  sectionLabel(pdf, 'Items by jurisdiction', left, chartY, leftWidth);
  const barsBottom = jurisdictionBars(pdf, items, left, chartY + 20, leftWidth);
  sectionLabel(pdf, 'Items by stage', rightX, chartY, rightWidth);
  const stagesBottom = stageList(pdf, items, rightX, chartY + 20, rightWidth);

  // Next key dates.
  const tableY = Math.max(barsBottom, stagesBottom) + 22;
  sectionLabel(pdf, 'Next 5 key dates', left, tableY, width);
  const tableBottom = upcomingTable(pdf, upcomingItems(snapshot, 5), left, tableY + 18, width);

  // Main trends, as many as fit.
  const pageBottom = A4.height - 60;
  let y = tableBottom + 22;
  const trends = snapshot.data.trends ?? [];
  if (trends.length > 0 && y + 60 < pageBottom) {
    sectionLabel(pdf, 'Main trends', left, y, width);
    y += 20;
    for (const trend of trends) {
      if (y + 40 > pageBottom) break;
      doc
        .font(BOLD)
        .fontSize(9.5)
        .fillColor(COLORS.ink)
        .text(trend.title, left, y, { width: width - 70, height: 13, ellipsis: true });
      doc
        .font(BOLD)
        .fontSize(7.5)
        .fillColor(trend.momentum === 'rising' ? COLORS.impact.high! : COLORS.muted)
        .text((trend.momentum ?? '').toUpperCase(), left + width - 66, y + 1.5, { width: 66, align: 'right', lineBreak: false });
      doc
        .font(REGULAR)
        .fontSize(8.5)
        .fillColor(COLORS.body)
        .text(stripCites(trend.description), left, y + 14, { width, height: 23, ellipsis: true });
      y += 42;
    }
  }

  // One page, whatever happened above.
  const range = doc.bufferedPageRange();
  if (range.count !== 1) throw new Error(`tearsheet overflowed to ${range.count} pages`);
  const bytes = await finish(pdf, `${snapshot.title} · snapshot ${snapshot.id}`);
  return { bytes, mime: 'application/pdf', filename: artefactFilename(snapshot, 'pdf', 'tearsheet') };
}

function sectionLabel(pdf: PdfHandle, text: string, x: number, y: number, width: number): void {
  pdf.doc
    .font(BOLD)
    .fontSize(8)
    .fillColor(COLORS.accent)
    .text(text.toUpperCase(), x, y, { width, characterSpacing: 0.8, lineBreak: false });
  pdf.doc.save();
  pdf.doc
    .moveTo(x, y + 12)
    .lineTo(x + width, y + 12)
    .lineWidth(0.5)
    .strokeColor(COLORS.rule)
    .stroke();
  pdf.doc.restore();
}

/** Returns the bottom of what it drew. */
function jurisdictionBars(pdf: PdfHandle, items: readonly SnapshotItem[], x: number, y: number, width: number): number {
  const { doc } = pdf;
  const groups = new Map<string, SnapshotItem[]>();
  for (const item of items) groups.set(item.jurisdiction || 'Other', [...(groups.get(item.jurisdiction || 'Other') ?? []), item]);
  let rows = [...groups.entries()].sort(([a, x1], [b, x2]) => x2.length - x1.length || a.localeCompare(b));
  if (rows.length > MAX_BARS) {
    const rest = rows.slice(MAX_BARS - 1).flatMap(([, list]) => list);
    rows = [...rows.slice(0, MAX_BARS - 1), ['Other', rest]];
  }
  const max = Math.max(1, ...rows.map(([, list]) => list.length));
  const labelWidth = 92;
  const countWidth = 26;
  const barWidth = width - labelWidth - countWidth - 6;
  const rowHeight = 24;
  rows.forEach(([name, list], index) => {
    const rowY = y + index * rowHeight;
    doc
      .font(REGULAR)
      .fontSize(9.5)
      .fillColor(COLORS.ink)
      .text(name, x, rowY + 4, { width: labelWidth - 6, height: 13, ellipsis: true });
    let barX = x + labelWidth;
    const counts = countBy(list, (item) => item.impact);
    for (const impact of IMPACTS) {
      const count = counts.get(impact) ?? 0;
      if (count === 0) continue;
      const w = (count / max) * barWidth;
      doc.save();
      doc.rect(barX, rowY + 3, w, 14).fill(COLORS.impact[impact]!);
      doc.restore();
      if (w > 14) {
        doc
          .font(BOLD)
          .fontSize(7.5)
          .fillColor('#FFFFFF')
          .text(String(count), barX, rowY + 6.5, { width: w, align: 'center', lineBreak: false });
      }
      barX += w;
    }
    doc
      .font(BOLD)
      .fontSize(9.5)
      .fillColor(COLORS.ink)
      .text(String(list.length), barX + 6, rowY + 4, { width: countWidth, lineBreak: false });
  });
  if (rows.length === 0)
    doc
      .font(REGULAR)
      .fontSize(9.5)
      .fillColor(COLORS.muted)
      .text('No items', x, y + 4, { width });
  // Legend.
  const legendY = y + Math.max(rows.length, 1) * rowHeight + 6;
  let legendX = x + labelWidth;
  for (const impact of IMPACTS) {
    doc.save();
    doc.rect(legendX, legendY + 2, 8, 8).fill(COLORS.impact[impact]!);
    doc.restore();
    doc
      .font(REGULAR)
      .fontSize(8)
      .fillColor(COLORS.muted)
      .text(IMPACT_LABELS[impact], legendX + 11, legendY + 1.5, { width: 60, lineBreak: false });
    legendX += 62;
  }
  return legendY + 12;
}

function stageList(pdf: PdfHandle, items: readonly SnapshotItem[], x: number, y: number, width: number): number {
  const { doc } = pdf;
  const byStage = countBy(items, (item) => item.stage);
  const stages = Object.keys(STAGE_LABELS).filter((stage) => (byStage.get(stage) ?? 0) > 0);
  const max = Math.max(1, ...stages.map((stage) => byStage.get(stage) ?? 0));
  stages.forEach((stage, index) => {
    const rowY = y + index * 24;
    const count = byStage.get(stage) ?? 0;
    doc
      .font(REGULAR)
      .fontSize(9.5)
      .fillColor(COLORS.ink)
      .text(label(STAGE_LABELS, stage), x, rowY + 4, { width: 80, lineBreak: false });
    const barWidth = ((width - 80 - 30) * count) / max;
    doc.save();
    doc.rect(x + 80, rowY + 3, barWidth, 14).fill(COLORS.accent);
    doc.restore();
    doc
      .font(BOLD)
      .fontSize(9.5)
      .fillColor(COLORS.ink)
      .text(String(count), x + 80 + barWidth + 6, rowY + 4, { width: 26, lineBreak: false });
  });
  return y + stages.length * 24;
}

function upcomingTable(pdf: PdfHandle, items: readonly SnapshotItem[], x: number, y: number, width: number): number {
  const { doc } = pdf;
  const columns: Array<[string, number]> = [
    ['Date', 70],
    ['Jurisdiction', 70],
    ['Instrument', width - 70 - 70 - 60 - 70],
    ['Impact', 60],
    ['Confidence', 70],
  ];
  let colX = x;
  for (const [name, w] of columns) {
    doc
      .font(BOLD)
      .fontSize(7)
      .fillColor(COLORS.muted)
      .text(name.toUpperCase(), colX, y + 2, { width: w - 6, characterSpacing: 0.5, lineBreak: false });
    colX += w;
  }
  const rowHeight = 36;
  items.forEach((item, index) => {
    const rowY = y + 16 + index * rowHeight;
    if (index % 2 === 0) {
      doc.save();
      doc.rect(x, rowY, width, rowHeight).fill(COLORS.tint);
      doc.restore();
    }
    const cells = [
      formatDate(item.key_date),
      item.jurisdiction,
      item.title,
      label(IMPACT_LABELS, item.impact),
      label(CONFIDENCE_LABELS, item.date_confidence),
    ];
    colX = x;
    cells.forEach((cell, cellIndex) => {
      const w = columns[cellIndex]![1];
      const isTitle = cellIndex === 2;
      doc.font(cellIndex === 0 || isTitle ? BOLD : REGULAR).fontSize(9);
      const height = isTitle ? Math.min(doc.heightOfString(cell, { width: w - 10, lineGap: 0.5 }), 25) : 11;
      doc
        .fillColor(cellIndex === 3 ? (COLORS.impact[item.impact] ?? COLORS.ink) : COLORS.ink)
        .text(cell, colX + 4, rowY + (rowHeight - height) / 2, { width: w - 10, height: isTitle ? 28 : 13, ellipsis: true, lineGap: 0.5 });
      colX += w;
    });
  });
  if (items.length === 0)
    doc
      .font(REGULAR)
      .fontSize(9.5)
      .fillColor(COLORS.muted)
      .text('No key dates inside the horizon.', x, y + 22, { width });
  return y + 16 + Math.max(items.length, 1) * rowHeight;
}
