/**
 * `pdf` (internal-pdf): the full report, A4.
 * 1. Title page: the briefing's short headline, the snapshot title, scan date, jurisdictions, areas, horizon,
 *    engine, what was selected ("Top 40 of 93"), the language notice when the artefact is not in the language
 *    asked for, counts by impact, and the disclaimer.
 * 2. Executive summary: bottom line and priorities; then the narrative, its [[cite:N]] markers as reference
 *    numbers "[N]". 3. Changes since the previous comparable snapshot (when there is one). 3b. Milestones by
 *    quarter: a quarter x jurisdiction grid over every matching instrument (pdf-timeline.ts).
 * 4. Items by jurisdiction (groupByJurisdiction order), after a line per requested jurisdiction and area saying
 *    how many of its matches are shown: title, key date as precise as it is known, milestone, stage, impact,
 *    regulator, area, instrument, verification, the item's whole timeline in the window, summary, implications
 *    and linked sources; then a line for each requested jurisdiction none of whose matches is shown.
 * 5. Trends. 6. With `list: all_matched`, every matching instrument the cap left out. 7. References: one per
 *    distinct document, numbered as cited, with publisher, date and a linked URL.
 * Footer on every page but the title page: the disclaimer and "Page n of N".
 */
import type { SnapshotItem } from '../../../engine/envelope.types';
import { groupByJurisdiction, trendItems } from './item-grouping';
import { artefactFilename } from './artefact-filename';
import { capitalise, listText, paragraphs, snapshotTexts } from './render-text';
import { buildReferences, disclaimerLine, keyDateLabel, languageNotice, type References, selectionLine, sourceLabel, timelineLabels } from './render-facts';
import { beyondCapSection, citesToReferences, driftSection, linkedSources, noticeBox, referencesSection } from './pdf-sections';
import { IMPACT_LABELS, label, STAGE_LABELS } from './item-labels';
import { formatLongDate, horizonText, scanDateOf, windowEndOf } from './render-dates';
import { quarterTimelineSection } from './pdf-timeline';
import { A4, BOLD, boxedText, COLORS, createPdf, ensureSpace, finish, heading, impactTiles, kicker, list, outsideMargins, type PdfHandle, pill, REGULAR, statTiles } from './pdf-kit';
import type { RenderedArtefact, RenderInput } from './types';
import { matchedFacts, shownOfLine } from './matched-facts';

/** "12 items", or "12 of 30 shown" when the cap left some of the jurisdiction's matches out. */
function sectionCount(shown: number, matched: number | undefined): string {
  return matched !== undefined && matched > shown ? `${shown} of ${matched} shown` : `${shown} item${shown === 1 ? '' : 's'}`;
}

const LABELS = [
  'Regulatory horizon scan',
  'Scan date',
  'Jurisdictions',
  'Areas',
  'Horizon',
  'Engine',
  'Executive summary',
  'Bottom line',
  'Priorities',
  'Narrative',
  'Items by jurisdiction',
  'Key date',
  'Milestone',
  'Timeline',
  'Milestones by quarter',
  'Changes since',
  'Further matching instruments',
  'Stage',
  'Impact',
  'Regulator',
  'Area',
  'Instrument',
  'Verification',
  'Implications',
  'Sources',
  'Trends',
  'References',
  'Page 1 of 1',
  '— • …',
];

export async function renderPdf(input: RenderInput): Promise<RenderedArtefact> {
  const { snapshot } = input;
  const data = snapshot.data;
  const items = data.items ?? [];
  const references = buildReferences(items);
  const disclaimer = disclaimerLine(snapshot);
  const pdf = createPdf(input, {
    title: snapshot.title,
    subject: `Regulatory horizon scan of ${listText(snapshot.config.jurisdictions)}`,
    texts: [...snapshotTexts(snapshot), ...LABELS, ...items.map((item) => item.milestone ?? ''), languageNotice(input) ?? '', disclaimer],
  });

  titlePage(pdf, input);

  pdf.doc.addPage();
  heading(pdf, 'Executive summary');
  boxedText(pdf, citesToReferences(data.executive_summary?.bottom_line, references), {
    fill: COLORS.accentSoft,
    bar: COLORS.accent,
    title: 'Bottom line',
    fontSize: 11.5,
  });
  const priorities = (data.executive_summary?.priorities ?? []).map((p) => citesToReferences(p, references)).filter((p) => p.length > 0);
  if (priorities.length > 0) {
    ensureSpace(pdf, 60);
    kicker(pdf, 'Priorities');
    pdf.doc.moveDown(0.3);
    list(pdf, priorities);
  }

  const narrative = paragraphs(citesToReferences(data.executive_narrative, references));
  if (narrative.length > 0) {
    pdf.doc.moveDown(0.6);
    heading(pdf, 'Narrative');
    for (const paragraph of narrative) {
      pdf.doc
        .font(REGULAR)
        .fontSize(10.5)
        .fillColor(COLORS.body)
        .text(paragraph, pdf.left, pdf.doc.y, { width: pdf.width, lineGap: 2.5, align: 'left' });
      pdf.doc.moveDown(0.6);
    }
  }

  if (input.drift) {
    pdf.doc.moveDown(0.6);
    driftSection(pdf, input.drift);
  }

  const matched = matchedFacts(snapshot);
  pdf.doc.moveDown(0.6);
  quarterTimelineSection(pdf, matched, scanDateOf(snapshot), windowEndOf(snapshot));
  heading(pdf, 'Items by jurisdiction', 160);
  pdf.doc.font(REGULAR).fontSize(9.5).fillColor(COLORS.muted).text(selectionLine(snapshot), pdf.left, pdf.doc.y, { width: pdf.width });
  for (const [name, rows] of [['Jurisdictions', matched.jurisdictions], ['Areas', matched.areas]] as const) {
    if (rows.length > 0) pdf.doc.text(`${name}: ${rows.map(shownOfLine).join(' · ')}`, pdf.left, pdf.doc.y, { width: pdf.width });
  }
  pdf.doc.moveDown(0.4);
  if (items.length === 0) {
    pdf.doc
      .font(REGULAR)
      .fontSize(10.5)
      .fillColor(COLORS.muted)
      .text('No items fall inside the horizon.', pdf.left, pdf.doc.y, { width: pdf.width });
  }
  for (const section of groupByJurisdiction(snapshot)) {
    const first = section.items[0] ? layoutItem(pdf, section.items[0], references) : null;
    ensureSpace(pdf, 30 + Math.min(first?.height ?? 40, 300));
    pdf.doc.moveDown(0.3);
    pdf.doc
      .font(BOLD)
      .fontSize(13)
      .fillColor(COLORS.ink)
      .text(`${section.jurisdiction}`, pdf.left, pdf.doc.y, { continued: true })
      .font(REGULAR)
      .fillColor(COLORS.muted)
      .text(`  ${sectionCount(section.items.length, matched.jurisdictions.find((row) => row.id === section.jurisdiction)?.matched)}`);
    pdf.doc.moveDown(0.4);
    section.items.forEach((item, index) => itemBlock(pdf, item, references, index === 0 && first ? first : undefined));
  }
  // Requested jurisdictions with nothing shown still get their line, so none silently disappears.
  for (const row of matched.jurisdictions.filter((r) => r.shown === 0)) {
    ensureSpace(pdf, 50);
    pdf.doc.moveDown(0.3);
    pdf.doc.font(BOLD).fontSize(13).fillColor(COLORS.ink).text(row.id, pdf.left, pdf.doc.y);
    pdf.doc
      .font(REGULAR)
      .fontSize(10)
      .fillColor(COLORS.muted)
      .text(
        row.matched === 0
          ? 'No instrument matched the scan\'s areas and horizon here.'
          : `0 of ${row.matched} matching instrument${row.matched === 1 ? '' : 's'} shown: higher-ranked instruments elsewhere filled the list. ` +
              (input.beyondCap ? 'They are listed under "Further matching instruments".' : 'Export with list "all_matched" to list them.'),
        pdf.left,
        pdf.doc.y,
        { width: pdf.width },
      );
    pdf.doc.moveDown(0.4);
  }

  const trends = data.trends ?? [];
  if (trends.length > 0) {
    heading(pdf, 'Trends');
    for (const trend of trends) {
      const related = trendItems(trend, items).map((item) => `${item.title} (${item.jurisdiction})`);
      const description = citesToReferences(trend.description, references);
      pdf.doc.font(REGULAR).fontSize(10);
      const height = pdf.doc.heightOfString(description, { width: pdf.width }) + 50;
      ensureSpace(pdf, Math.min(height, 200));
      const y = pdf.doc.y;
      pdf.doc
        .font(BOLD)
        .fontSize(11.5)
        .fillColor(COLORS.ink)
        .text(trend.title, pdf.left, y, { width: pdf.width - 80 });
      const after = pdf.doc.y;
      pill(pdf.doc, trend.momentum ?? 'steady', pdf.right - 70, y + 1, trend.momentum === 'rising' ? COLORS.impact.high! : COLORS.accent, {
        filled: false,
      });
      pdf.doc.y = after + 2;
      pdf.doc
        .font(REGULAR)
        .fontSize(8.5)
        .fillColor(COLORS.muted)
        .text(`${listText(trend.jurisdictions)} · ${listText(trend.areas)}`, pdf.left, pdf.doc.y, { width: pdf.width });
      pdf.doc.moveDown(0.2);
      pdf.doc.font(REGULAR).fontSize(10).fillColor(COLORS.body).text(description, pdf.left, pdf.doc.y, { width: pdf.width, lineGap: 2 });
      if (related.length > 0) {
        pdf.doc.moveDown(0.2);
        pdf.doc
          .font(REGULAR)
          .fontSize(8.5)
          .fillColor(COLORS.muted)
          .text(`Items: ${related.join('; ')}`, pdf.left, pdf.doc.y, { width: pdf.width });
      }
      pdf.doc.moveDown(0.9);
    }
  }

  if (input.beyondCap) beyondCapSection(pdf, input.beyondCap, items.length);
  referencesSection(pdf, references);

  const bytes = await finish(pdf, disclaimer, 1);
  return { bytes, mime: 'application/pdf', filename: artefactFilename(snapshot, 'pdf') };
}

function titlePage(pdf: PdfHandle, input: RenderInput): void {
  const { doc } = pdf;
  const { snapshot } = input;
  const items = snapshot.data.items ?? [];
  doc.save();
  doc.rect(0, 0, A4.width, 230).fill(COLORS.accent);
  doc.restore();
  doc.y = 92;
  kicker(pdf, 'Regulatory horizon scan', '#C9D6E8');
  doc.moveDown(0.5);
  // The cover carries the briefing's short headline; it is shrunk to fit the band, never cut.
  const headline = snapshot.data._briefing?.briefing_headline?.trim() || snapshot.title;
  const top = doc.y;
  let size = 26;
  doc.font(BOLD).fontSize(size);
  while (size > 14 && doc.heightOfString(headline, { width: pdf.width, lineGap: 2 }) > 215 - top) doc.fontSize((size -= 1));
  doc.fillColor('#FFFFFF').text(headline, pdf.left, top, { width: pdf.width, lineGap: 2 });
  doc.y = Math.max(doc.y, 230) + 28;

  const notice = languageNotice(input);
  if (notice) noticeBox(pdf, notice, pdf.left, pdf.width, 'warn');

  const rows: Array<[string, string]> = [
    ['Snapshot', snapshot.title],
    ['Scan date', formatLongDate(scanDateOf(snapshot))],
    ['Jurisdictions', listText(snapshot.config.jurisdictions)],
    ['Areas', listText(snapshot.config.areas)],
    ['Horizon', horizonText(snapshot)],
    ['Engine', snapshot.config.engine || '—'],
    ['Selection', selectionLine(snapshot)],
  ];
  for (const [name, value] of rows) {
    const y = doc.y;
    doc
      .font(BOLD)
      .fontSize(9)
      .fillColor(COLORS.muted)
      .text(name.toUpperCase(), pdf.left, y + 1.5, { width: 110, characterSpacing: 0.6 });
    doc
      .font(REGULAR)
      .fontSize(12)
      .fillColor(COLORS.ink)
      .text(value, pdf.left + 120, y, { width: pdf.width - 120 });
    doc.y = Math.max(doc.y, y + 16) + 8;
    doc.save();
    doc
      .moveTo(pdf.left, doc.y - 4)
      .lineTo(pdf.right, doc.y - 4)
      .lineWidth(0.5)
      .strokeColor(COLORS.rule)
      .stroke();
    doc.restore();
    doc.y += 4;
  }

  // At a glance: item count and counts by impact.
  doc.y += 16;
  ensureSpace(pdf, 150);
  statTiles(doc, impactTiles(matchedFacts(snapshot)), { left: pdf.left, y: doc.y, width: pdf.width, height: 70, valueAt: 14, labelAt: 48 });
  doc.y += 86;
  noticeBox(pdf, disclaimerLine(snapshot), pdf.left, pdf.width);

  doc.font(REGULAR).fontSize(8).fillColor(COLORS.muted);
  outsideMargins(pdf, () =>
    doc.text(`Snapshot ${snapshot.id} · created ${snapshot.created_at}`, pdf.left, pdf.bottom - 4, { width: pdf.width, lineBreak: false }),
  );
}

interface ItemLayout {
  cells: Array<[string, string]>;
  /** The item's whole timeline in the window, when it has more than its key date. */
  timeline: string;
  summary: string;
  implications: string;
  cites: string;
  indent: number;
  width: number;
  cellWidth: number;
  height: number;
  /** Height of the title, the cells and the timeline: what must stay together on one page. */
  headHeight: number;
}

function layoutItem(pdf: PdfHandle, item: SnapshotItem, references: References): ItemLayout {
  const { doc } = pdf;
  const cells: Array<[string, string]> = [
    ['Key date', keyDateLabel(item)],
    ['Milestone', item.milestone?.trim() || '—'],
    ['Stage', label(STAGE_LABELS, item.stage)],
    ['Impact', label(IMPACT_LABELS, item.impact)],
    ['Regulator', item.regulator || '—'],
    ['Area', item.area || '—'],
    ['Instrument', capitalise((item.instrument_type || '—').replace(/_/g, ' '))],
    ['Verification', capitalise(item.verification?.status ?? '—')],
  ];
  const indent = 10;
  const width = pdf.width - indent;
  const cellWidth = width / 4;
  const timeline = timelineLabels(item).join(' · ');
  const summary = citesToReferences(item.summary, references);
  const implications = citesToReferences(item.implications, references);
  const cites = references
    .itemNumbers(item)
    .map((number) => {
      const cited = references.list[number - 1]?.citation;
      return `[${number}] ${cited ? sourceLabel(cited) : ''}`;
    })
    .join('  ');
  doc.font(BOLD).fontSize(11.5);
  let height = doc.heightOfString(item.title, { width }) + 4;
  doc.font(REGULAR).fontSize(9);
  for (let row = 0; row < 2; row++) {
    height += 14.5 + Math.max(...cells.slice(row * 4, row * 4 + 4).map(([, value]) => doc.heightOfString(value, { width: cellWidth - 8 })));
  }
  doc.font(REGULAR).fontSize(9);
  if (timeline) height += doc.heightOfString(`Timeline: ${timeline}`, { width, lineGap: 1 }) + 3;
  const headHeight = height;
  doc.font(REGULAR).fontSize(9.5);
  if (summary) height += doc.heightOfString(summary, { width, lineGap: 1.5 }) + 2;
  if (implications) height += doc.heightOfString(`Implications: ${implications}`, { width, lineGap: 1.5 }) + 3;
  if (cites) height += doc.heightOfString(`Sources: ${cites}`, { width }) + 3;
  return { cells, timeline, summary, implications, cites, indent, width, cellWidth, height, headHeight };
}

/** A bold label run on into regular text ("Implications: …"). */
function labelled(pdf: PdfHandle, label: string, text: string, x: number, width: number, size: number, lineGap: number): void {
  pdf.doc
    .font(BOLD)
    .fontSize(size)
    .fillColor(COLORS.ink)
    .text(label, x, pdf.doc.y, { width, lineGap, continued: true })
    .font(REGULAR)
    .fillColor(COLORS.body)
    .text(text, { width, lineGap });
}

function itemBlock(pdf: PdfHandle, item: SnapshotItem, references: References, layout: ItemLayout = layoutItem(pdf, item, references)): void {
  const { doc } = pdf;
  const impactColor = COLORS.impact[item.impact] ?? COLORS.muted;
  const { cells, timeline, summary, implications, cites, indent, width, cellWidth } = layout;
  // Keep the block on one page when it fits there; else, when its head (title, cells, timeline) and a few lines
  // of prose fit in what is left, start here and let the prose run on, so pages are not left a third empty.
  const room = pdf.bottom - doc.y;
  const split = layout.height > room && room >= Math.max(layout.headHeight + 40, 120);
  if (!split) ensureSpace(pdf, Math.min(layout.height, pdf.bottom - pdf.top));

  const top = doc.y;
  doc
    .font(BOLD)
    .fontSize(11.5)
    .fillColor(COLORS.ink)
    .text(item.title, pdf.left + indent, top, { width });
  doc.y += 4;
  for (let row = 0; row < 2; row++) {
    const y = doc.y;
    let rowBottom = y;
    cells.slice(row * 4, row * 4 + 4).forEach(([name, value], index) => {
      const x = pdf.left + indent + index * cellWidth;
      doc
        .font(BOLD)
        .fontSize(8)
        .fillColor(COLORS.muted)
        .text(name.toUpperCase(), x, y, { width: cellWidth - 8, characterSpacing: 0.5, lineBreak: false });
      const color = name === 'Impact' ? impactColor : COLORS.ink;
      doc
        .font(name === 'Impact' || name === 'Key date' ? BOLD : REGULAR)
        .fontSize(9)
        .fillColor(color)
        .text(value, x, y + 10.5, { width: cellWidth - 8 });
      rowBottom = Math.max(rowBottom, doc.y);
    });
    doc.y = rowBottom + 4;
  }
  doc.y += 2;
  if (timeline) {
    labelled(pdf, 'Timeline: ', timeline, pdf.left + indent, width, 9, 1);
    doc.y += 3;
  }
  if (summary)
    doc
      .font(REGULAR)
      .fontSize(9.5)
      .fillColor(COLORS.body)
      .text(summary, pdf.left + indent, doc.y, { width, lineGap: 1.5 });
  if (implications) {
    doc.y += 3;
    labelled(pdf, 'Implications: ', implications, pdf.left + indent, width, 9.5, 1.5);
  }
  if (cites) {
    doc.y += 3;
    linkedSources(pdf, item, references, pdf.left + indent, width);
  }
  const bottom = doc.y;
  // Impact bar on the left of the block (on the block's last page when it broke across pages).
  const barTop = bottom >= top ? top : pdf.top;
  doc.save();
  doc.rect(pdf.left, barTop, 3, bottom - barTop).fill(impactColor);
  doc.restore();
  doc.x = pdf.left;
  doc.y = bottom + 14;
}
