/**
 * The board pack's quarter x jurisdiction timeline: how many milestones of every matching instrument (not only the
 * items shown) fall in each quarter of the horizon, per jurisdiction, as a shaded grid. Milestones known only to a
 * half-year or a year cannot be placed in a quarter; the note under the grid says how many were left out.
 */
import { BOLD, COLORS, ensureSpace, heading, type PdfHandle, REGULAR } from './pdf-kit';
import { type MatchedFacts, quarterLabel, quartersBetween, timelineRows } from './matched-facts';

export function quarterTimelineSection(pdf: PdfHandle, facts: MatchedFacts, scanDate: string, windowEnd: string | null): void {
  if (!windowEnd || facts.quarters.length === 0) return;
  const quarters = quartersBetween(scanDate, windowEnd);
  const rows = timelineRows(facts, quarters);
  if (rows.length === 0) return;
  const { doc } = pdf;
  const labelWidth = 78;
  const shownWidth = 62;
  const cellWidth = (pdf.width - labelWidth - shownWidth) / quarters.length;
  const rowHeight = 15;
  heading(pdf, 'Milestones by quarter', 40 + rowHeight * (rows.length + 2));
  doc
    .font(REGULAR)
    .fontSize(9)
    .fillColor(COLORS.muted)
    .text(
      `Every milestone of the ${facts.total} matching instruments, by the quarter it falls in and jurisdiction${facts.shown < facts.total ? ` (not only the ${facts.shown} items shown)` : ''}.`,
      pdf.left,
      doc.y,
      { width: pdf.width },
    );
  doc.moveDown(0.4);
  const max = Math.max(1, ...rows.flatMap((row) => row.counts));
  let y = doc.y;
  doc.font(BOLD).fontSize(8).fillColor(COLORS.muted);
  quarters.forEach((quarter, index) => {
    doc.text(quarterLabel(quarter), pdf.left + labelWidth + index * cellWidth, y, { width: cellWidth, align: 'center', lineBreak: false });
  });
  doc.text('Shown', pdf.right - shownWidth, y, { width: shownWidth, align: 'right', lineBreak: false });
  y += 12;
  for (const row of rows) {
    ensureSpace(pdf, rowHeight + 4);
    if (pdf.doc.y < y) y = Math.max(y, pdf.doc.y);
    doc.font(BOLD).fontSize(8.5).fillColor(COLORS.ink).text(row.jurisdiction, pdf.left, y + 3.5, { width: labelWidth - 6, lineBreak: false, ellipsis: false });
    row.counts.forEach((n, index) => {
      const x = pdf.left + labelWidth + index * cellWidth;
      doc.save();
      doc.rect(x + 1, y + 1, cellWidth - 2, rowHeight - 2).fillOpacity(n === 0 ? 1 : 0.2 + 0.8 * (n / max)).fill(n === 0 ? COLORS.tint : COLORS.accent);
      doc.restore();
      if (n > 0) {
        doc
          .font(BOLD)
          .fontSize(8)
          .fillColor(n / max > 0.55 ? '#FFFFFF' : COLORS.ink)
          .text(String(n), x, y + 4, { width: cellWidth, align: 'center', lineBreak: false });
      }
    });
    doc.font(REGULAR).fontSize(8).fillColor(COLORS.muted).text(row.shownOf, pdf.right - shownWidth, y + 4, { width: shownWidth, align: 'right', lineBreak: false });
    y += rowHeight;
    doc.y = y;
  }
  doc.y = y + 4;
  if (facts.undatedInQuarter > 0) {
    doc
      .font(REGULAR)
      .fontSize(8)
      .fillColor(COLORS.muted)
      .text(
        `${facts.undatedInQuarter} further milestone${facts.undatedInQuarter === 1 ? ' is' : 's are'} known only to a half-year or a year and not placed in a quarter.`,
        pdf.left,
        doc.y,
        { width: pdf.width },
      );
  }
  doc.moveDown(0.6);
}
