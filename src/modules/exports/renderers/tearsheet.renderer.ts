/**
 * `tearsheet` (internal-tearsheet): exactly one A4 page, top to bottom:
 * header (the whole title, scan date, horizon, scope, how the items were selected, the drift since the last
 * scan); a notice when the language asked for could not be produced; headline numbers (items, high / medium /
 * low impact); the bottom line; items by jurisdiction as bars split by impact (top 8 jurisdictions, the rest as
 * "Other"); items by stage; the next key dates (date as certain as it is, whole title, milestone, short source
 * with a link); then as many trends as fit. Nothing is cut: text shrinks within limits or wraps, and rows or
 * trends that do not fit whole are left out and the page says how many it shows. The disclaimer is the footer.
 */
import { artefactFilename } from './artefact-filename';
import { finishWithDisclaimer, firstThatFits, fitFontSize } from './briefing-fit';
import { upcomingItems } from './item-grouping';
import { A4, BOLD, COLORS, createPdf, impactTiles, type PdfHandle, REGULAR, statTiles } from './pdf-kit';
import { formatLongDate, horizonText, scanDateOf } from './render-dates';
import { buildReferences, disclaimerLine, driftLine, languageNotice, type References, selectionLine } from './render-facts';
import { listText, snapshotTexts, stripCites } from './render-text';
import { jurisdictionBars, keyDateTable, sectionLabel, stageBars, trendList } from './tearsheet-sections';
import type { RenderedArtefact, RenderInput } from './types';
import { matchedFacts } from './matched-facts';

/** Content box of the page; the bottom margin leaves room for the disclaimer footer. */
export const TEARSHEET_MARGINS = { top: 32, bottom: 58, left: 44, right: 44 };
const MAX_ROWS = 5;

interface Step {
  /** Font scale of the title, bottom line and table titles. */
  scale: number;
  /** Row height of the bar charts. */
  barRow: number;
}

/** Smaller type and tighter charts, until the page fits and shows at least MIN_ROWS key dates. */
const STEPS: readonly Step[] = [
  { scale: 1, barRow: 19 },
  { scale: 0.9, barRow: 16 },
  { scale: 0.8, barRow: 13 },
  { scale: 0.75, barRow: 11 },
];
const MIN_ROWS = 3;

export async function renderTearsheet(input: RenderInput): Promise<RenderedArtefact> {
  const { snapshot } = input;
  const references = buildReferences(snapshot.data.items ?? []);
  const wanted = Math.min(MIN_ROWS, upcomingItems(snapshot, MAX_ROWS).length);
  const { pdf } = firstThatFits(
    STEPS,
    1,
    (step) => drawTearsheet(input, references, step),
    (drawn) => drawn.rows,
    wanted,
  );
  const bytes = await finishWithDisclaimer(pdf, disclaimerLine(snapshot), snapshot.id);
  return { bytes, mime: 'application/pdf', filename: artefactFilename(snapshot, 'pdf', 'tearsheet') };
}

const NOTICE = { fill: '#FEF0C7', bar: '#B54708', ink: '#7A2E0E' };
const HEADER_INK = { kicker: '#C9D6E8', body: '#DCE4EF' };

function drawTearsheet(input: RenderInput, references: References, step: Step): PdfHandle & { rows: number } {
  const { snapshot } = input;
  const items = snapshot.data.items ?? [];
  const notice = languageNotice(input);
  const pdf = createPdf(input, {
    title: `${snapshot.title} — tearsheet`,
    subject: 'Regulatory horizon tearsheet',
    texts: [
      ...snapshotTexts(snapshot),
      'Tearsheet Items High Medium Low impact By jurisdiction stage Next key dates Bottom line Main trends Other Page 1 of 1 …·—',
      disclaimerLine(snapshot),
      notice ?? '',
    ],
    margins: TEARSHEET_MARGINS,
  });
  const { doc } = pdf;
  const { left, width } = pdf;
  const s = step.scale;

  // Header: measured first so the band behind it fits what it holds.
  const scope = [
    `Scan ${formatLongDate(scanDateOf(snapshot))}`,
    `Horizon ${horizonText(snapshot)}`,
    listText(snapshot.config.jurisdictions),
    listText(snapshot.config.areas),
  ].join('  ·  ');
  const facts = [selectionLine(snapshot), input.drift ? driftLine(input.drift) : ''].filter((line) => line).join('  ');
  const titleSize = fitFontSize(doc, snapshot.title, { font: BOLD, width, max: 20 * s, min: 12, maxHeight: 2 * 25 * s, lineGap: 0 });
  doc.font(BOLD).fontSize(titleSize);
  const titleHeight = doc.heightOfString(snapshot.title, { width });
  doc.font(REGULAR).fontSize(9);
  const scopeHeight = doc.heightOfString(scope, { width, lineGap: 1 });
  doc.fontSize(8);
  const factsHeight = doc.heightOfString(facts, { width, lineGap: 1 });
  const headerBottom = pdf.top + 14 + titleHeight + 6 + scopeHeight + 4 + factsHeight + 14;
  doc.save();
  doc.rect(0, 0, A4.width, headerBottom).fill(COLORS.accent);
  doc.restore();
  doc
    .font(BOLD)
    .fontSize(8)
    .fillColor(HEADER_INK.kicker)
    .text(`REGULATORY HORIZON TEARSHEET  ·  SNAPSHOT ${snapshot.id}`, left, pdf.top, { width, characterSpacing: 0.8, lineBreak: false });
  doc
    .font(BOLD)
    .fontSize(titleSize)
    .fillColor('#FFFFFF')
    .text(snapshot.title, left, pdf.top + 14, { width });
  doc
    .font(REGULAR)
    .fontSize(9)
    .fillColor(HEADER_INK.body)
    .text(scope, left, doc.y + 6, { width, lineGap: 1 });
  doc
    .font(REGULAR)
    .fontSize(8)
    .fillColor(HEADER_INK.kicker)
    .text(facts, left, doc.y + 4, { width, lineGap: 1 });
  let y = headerBottom + 12;

  if (notice) {
    doc.font(BOLD).fontSize(9);
    const height = doc.heightOfString(notice, { width: width - 24 }) + 12;
    doc.save();
    doc.rect(left, y, width, height).fill(NOTICE.fill);
    doc.rect(left, y, 4, height).fill(NOTICE.bar);
    doc.restore();
    doc.fillColor(NOTICE.ink).text(notice, left + 14, y + 6, { width: width - 24 });
    y += height + 10;
  }

  // Headline numbers.
  const tileHeight = 52;
  statTiles(doc, impactTiles(matchedFacts(snapshot)), { left, y, width, height: tileHeight, valueAt: 8, labelAt: 36 });
  y += tileHeight + 12;

  // Bottom line, whole.
  const bottomLine =
    stripCites(snapshot.data.executive_summary?.bottom_line) || stripCites(snapshot.data._briefing?.bottom_line_tight) || '—';
  const size = fitFontSize(doc, bottomLine, { font: REGULAR, width: width - 32, max: 10.5 * s, min: 8, maxHeight: 60, lineGap: 1.5 });
  doc.font(REGULAR).fontSize(size);
  const boxHeight = doc.heightOfString(bottomLine, { width: width - 32, lineGap: 1.5 }) + 34;
  doc.save();
  doc.rect(left, y, width, boxHeight).fill(COLORS.accentSoft);
  doc.rect(left, y, 4, boxHeight).fill(COLORS.accent);
  doc.restore();
  doc
    .font(BOLD)
    .fontSize(8)
    .fillColor(COLORS.accent)
    .text('BOTTOM LINE', left + 16, y + 10, { width: width - 32, characterSpacing: 0.8, lineBreak: false });
  doc
    .font(REGULAR)
    .fontSize(size)
    .fillColor(COLORS.ink)
    .text(bottomLine, left + 16, y + 24, { width: width - 32, lineGap: 1.5 });
  y += boxHeight + 16;

  // Items by jurisdiction (bars split by impact) and by stage.
  const colGap = 24;
  const leftWidth = width * 0.6 - colGap / 2;
  const rightX = left + leftWidth + colGap;
  const rightWidth = width - leftWidth - colGap;
  const matched = matchedFacts(snapshot);
  sectionLabel(pdf, 'Matching instruments by jurisdiction', { x: left, y, width: leftWidth });
  const barsBottom = jurisdictionBars(pdf, matched.jurisdictions, { x: left, y: y + 18, width: leftWidth }, step.barRow);
  sectionLabel(pdf, 'Matching instruments by stage', { x: rightX, y, width: rightWidth });
  const stagesBottom = stageBars(pdf, matched.byStage, { x: rightX, y: y + 18, width: rightWidth }, step.barRow);
  y = Math.max(barsBottom, stagesBottom) + 16;

  // Next key dates: whole rows, as many as fit; the page says when it shows fewer than the snapshot holds.
  const upcoming = upcomingItems(snapshot, MAX_ROWS);
  const noteHeight = 18;
  sectionLabel(pdf, 'Next key dates', { x: left, y, width });
  const table = keyDateTable(pdf, upcoming, { x: left, y: y + 18, width }, pdf.bottom - noteHeight, references, s);
  y = table.bottom + 4;
  if (table.shown < items.length) {
    doc
      .font(REGULAR)
      .fontSize(8)
      .fillColor(COLORS.muted)
      .text(`Next ${table.shown} of ${items.length} shown; full list in the PDF report.`, left, y, { width, lineBreak: false });
    y += noteHeight;
  }

  // Main trends, whole, as many as fit.
  const trends = snapshot.data.trends ?? [];
  if (trends.length > 0) {
    const listed = trendList(pdf, trends, { x: left, y: y + 10, width }, pdf.bottom - noteHeight);
    if (listed.shown > 0 && listed.shown < trends.length) {
      doc
        .font(REGULAR)
        .fontSize(8)
        .fillColor(COLORS.muted)
        .text(`${listed.shown} of ${trends.length} trends shown; all in the PDF report.`, left, listed.bottom - 4, {
          width,
          lineBreak: false,
        });
    }
  }
  return { ...pdf, rows: table.shown };
}
