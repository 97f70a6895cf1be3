/**
 * `pdf` (internal-pdf): the full report, A4.
 * 1. Title page: title, scan date, jurisdictions, areas, horizon, engine, counts by impact.
 * 2. Executive summary: bottom line and priorities; then the narrative, its [[cite:N]] markers as "[N]".
 * 3. Items by jurisdiction (groupByJurisdiction order): title, key date, date confidence, stage, impact,
 *    regulator, area, instrument, verification, summary, implications and numbered citations "[N]".
 * 4. Trends. 5. References: every citation by number with publisher, date and URL (linked).
 * Footer on every page but the title page: snapshot title and "Page n of N".
 */
import type { SnapshotItem } from '../../../engine/envelope.types';
import { allCitations, groupByJurisdiction, trendItems } from './item-grouping';
import { artefactFilename } from './artefact-filename';
import { capitalise, citesToNumbers, listText, paragraphs, safeHttpUrl, snapshotTexts } from './render-text';
import { CONFIDENCE_LABELS, IMPACT_LABELS, label, STAGE_LABELS } from './item-labels';
import { formatDate, formatLongDate, horizonText, scanDateOf } from './render-dates';
import { A4, BOLD, boxedText, COLORS, createPdf, ensureSpace, finish, heading, impactTiles, kicker, list, outsideMargins, type PdfHandle, pill, REGULAR, statTiles } from './pdf-kit';
import type { RenderedArtefact, RenderInput } from './types';

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
  'Date confidence',
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
  const pdf = createPdf(input, {
    title: snapshot.title,
    subject: `Regulatory horizon scan of ${listText(snapshot.config.jurisdictions)}`,
    texts: [...snapshotTexts(snapshot), ...LABELS],
  });

  titlePage(pdf, input);

  pdf.doc.addPage();
  heading(pdf, 'Executive summary');
  boxedText(pdf, citesToNumbers(data.executive_summary?.bottom_line), {
    fill: COLORS.accentSoft,
    bar: COLORS.accent,
    title: 'Bottom line',
    fontSize: 11.5,
  });
  const priorities = (data.executive_summary?.priorities ?? []).map(citesToNumbers).filter((p) => p.length > 0);
  if (priorities.length > 0) {
    ensureSpace(pdf, 60);
    kicker(pdf, 'Priorities');
    pdf.doc.moveDown(0.3);
    list(pdf, priorities);
  }

  const narrative = paragraphs(citesToNumbers(data.executive_narrative));
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

  pdf.doc.moveDown(0.6);
  heading(pdf, 'Items by jurisdiction', 160);
  if (items.length === 0) {
    pdf.doc
      .font(REGULAR)
      .fontSize(10.5)
      .fillColor(COLORS.muted)
      .text('No items fall inside the horizon.', pdf.left, pdf.doc.y, { width: pdf.width });
  }
  for (const section of groupByJurisdiction(snapshot)) {
    const first = section.items[0] ? layoutItem(pdf, section.items[0]) : null;
    ensureSpace(pdf, 30 + Math.min(first?.height ?? 40, 300));
    pdf.doc.moveDown(0.3);
    pdf.doc
      .font(BOLD)
      .fontSize(13)
      .fillColor(COLORS.ink)
      .text(`${section.jurisdiction}`, pdf.left, pdf.doc.y, { continued: true })
      .font(REGULAR)
      .fillColor(COLORS.muted)
      .text(`  ${section.items.length} item${section.items.length === 1 ? '' : 's'}`);
    pdf.doc.moveDown(0.4);
    section.items.forEach((item, index) => itemBlock(pdf, item, index === 0 && first ? first : undefined));
  }

  const trends = data.trends ?? [];
  if (trends.length > 0) {
    heading(pdf, 'Trends');
    for (const trend of trends) {
      const related = trendItems(trend, items).map((item) => `${item.title} (${item.jurisdiction})`);
      const description = citesToNumbers(trend.description);
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

  const citations = allCitations(items);
  if (citations.length > 0) {
    heading(pdf, 'References');
    for (const citation of citations) {
      const url = safeHttpUrl(citation.url);
      const meta = [citation.publisher, citation.published_at ? formatDate(citation.published_at) : ''].filter((part) => part).join(', ');
      const text = `${citation.title}${meta ? `. ${meta}.` : ''}`;
      pdf.doc.font(REGULAR).fontSize(9);
      const height =
        pdf.doc.heightOfString(text, { width: pdf.width - 30 }) + pdf.doc.heightOfString(citation.url ?? '', { width: pdf.width - 30 }) + 6;
      ensureSpace(pdf, height);
      const y = pdf.doc.y;
      pdf.doc.font(BOLD).fontSize(9).fillColor(COLORS.accent).text(`[${citation.id}]`, pdf.left, y, { width: 28 });
      pdf.doc
        .font(REGULAR)
        .fontSize(9)
        .fillColor(COLORS.ink)
        .text(text, pdf.left + 30, y, { width: pdf.width - 30 });
      if (citation.url) {
        pdf.doc
          .font(REGULAR)
          .fontSize(8.5)
          .fillColor(url ? '#1D4ED8' : COLORS.muted)
          .text(
            citation.url,
            pdf.left + 30,
            pdf.doc.y,
            url ? { width: pdf.width - 30, link: url, underline: false } : { width: pdf.width - 30 },
          );
      }
      pdf.doc.x = pdf.left;
      pdf.doc.moveDown(0.5);
    }
  }

  const bytes = await finish(pdf, `${snapshot.title} · ${formatDate(scanDateOf(snapshot))}`, 1);
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
  doc
    .font(BOLD)
    .fontSize(26)
    .fillColor('#FFFFFF')
    .text(snapshot.title, pdf.left, doc.y, { width: pdf.width, lineGap: 2, height: 120, ellipsis: true });
  doc.y = Math.max(doc.y, 230) + 36;

  const rows: Array<[string, string]> = [
    ['Scan date', formatLongDate(scanDateOf(snapshot))],
    ['Jurisdictions', listText(snapshot.config.jurisdictions)],
    ['Areas', listText(snapshot.config.areas)],
    ['Horizon', horizonText(snapshot)],
    ['Engine', snapshot.config.engine || '—'],
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
  doc.y += 24;
  statTiles(doc, impactTiles(items), { left: pdf.left, y: doc.y, width: pdf.width, height: 70, valueAt: 14, labelAt: 48 });

  doc.font(REGULAR).fontSize(8).fillColor(COLORS.muted);
  outsideMargins(pdf, () =>
    doc.text(`Snapshot ${snapshot.id} · created ${snapshot.created_at}`, pdf.left, pdf.bottom - 4, { width: pdf.width, lineBreak: false }),
  );
}

interface ItemLayout {
  cells: Array<[string, string]>;
  summary: string;
  implications: string;
  cites: string;
  indent: number;
  width: number;
  cellWidth: number;
  height: number;
}

function layoutItem(pdf: PdfHandle, item: SnapshotItem): ItemLayout {
  const { doc } = pdf;
  const cells: Array<[string, string]> = [
    ['Key date', formatDate(item.key_date)],
    ['Date confidence', label(CONFIDENCE_LABELS, item.date_confidence)],
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
  const summary = citesToNumbers(item.summary);
  const implications = citesToNumbers(item.implications);
  const cites = (item.citations ?? []).map((citation) => `[${citation.id}]`).join(' ');
  doc.font(BOLD).fontSize(11.5);
  let height = doc.heightOfString(item.title, { width }) + 4;
  doc.font(REGULAR).fontSize(9);
  for (let row = 0; row < 2; row++) {
    height += 13 + Math.max(...cells.slice(row * 4, row * 4 + 4).map(([, value]) => doc.heightOfString(value, { width: cellWidth - 8 })));
  }
  doc.font(REGULAR).fontSize(9.5);
  if (summary) height += doc.heightOfString(summary, { width, lineGap: 1.5 }) + 2;
  if (implications) height += doc.heightOfString(`Implications: ${implications}`, { width, lineGap: 1.5 }) + 3;
  if (cites) height += 14;
  return { cells, summary, implications, cites, indent, width, cellWidth, height };
}

function itemBlock(pdf: PdfHandle, item: SnapshotItem, layout: ItemLayout = layoutItem(pdf, item)): void {
  const { doc } = pdf;
  const impactColor = COLORS.impact[item.impact] ?? COLORS.muted;
  const { cells, summary, implications, cites, indent, width, cellWidth } = layout;
  // Keep the block on one page when it fits on one.
  ensureSpace(pdf, Math.min(layout.height, pdf.bottom - pdf.top));

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
        .fontSize(6.5)
        .fillColor(COLORS.muted)
        .text(name.toUpperCase(), x, y, { width: cellWidth - 8, characterSpacing: 0.5, lineBreak: false });
      const color = name === 'Impact' ? impactColor : COLORS.ink;
      doc
        .font(name === 'Impact' || name === 'Key date' ? BOLD : REGULAR)
        .fontSize(9)
        .fillColor(color)
        .text(value, x, y + 9, { width: cellWidth - 8 });
      rowBottom = Math.max(rowBottom, doc.y);
    });
    doc.y = rowBottom + 4;
  }
  doc.y += 2;
  if (summary)
    doc
      .font(REGULAR)
      .fontSize(9.5)
      .fillColor(COLORS.body)
      .text(summary, pdf.left + indent, doc.y, { width, lineGap: 1.5 });
  if (implications) {
    doc.y += 3;
    doc
      .font(BOLD)
      .fontSize(9.5)
      .fillColor(COLORS.ink)
      .text('Implications: ', pdf.left + indent, doc.y, { width, lineGap: 1.5, continued: true })
      .font(REGULAR)
      .fillColor(COLORS.body)
      .text(implications, { width, lineGap: 1.5 });
  }
  if (cites) {
    doc.y += 3;
    doc
      .font(BOLD)
      .fontSize(8.5)
      .fillColor(COLORS.muted)
      .text('Sources: ', pdf.left + indent, doc.y, { width, continued: true })
      .font(REGULAR)
      .fillColor(COLORS.accent)
      .text(cites, { width });
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
