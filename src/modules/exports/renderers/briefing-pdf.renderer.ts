/**
 * `briefing-pdf` (internal-briefing-pdf): a one- or two-page A4 briefing from the envelope's `_briefing` block:
 * headline, standfirst, sentiment (label and rationale), priorities (with their [XX] jurisdiction tags drawn as
 * tags), pull quote and bottom line. Without `_briefing` it is built from `executive_summary`: the snapshot title
 * as headline, the bottom line's first sentence as standfirst, the priorities, and the bottom line; no pull quote
 * or sentiment. Text is capped (8 priorities, long fields truncated) so it never runs past two pages.
 */
import type { BriefingBlock } from '../../../engine/envelope.types';
import { artefactFilename } from './artefact-filename';
import { capitalise, listText, snapshotTexts, stripCites, truncateToColumns } from './render-text';
import { formatLongDate, scanDateOf } from './render-dates';
import { A4, BOLD, boxedText, COLORS, createPdf, ensureSpace, finish, kicker, type PdfHandle, pill, REGULAR } from './pdf-kit';
import type { RenderedArtefact, RenderInput, RenderSnapshot } from './types';

const MAX_PRIORITIES = 8;

interface Briefing {
  headline: string;
  standfirst: string;
  priorities: string[];
  bottomLine: string;
  pullQuote: string;
  sentimentLabel: string;
  sentimentRationale: string;
}

/** The briefing content: `_briefing` when present, else derived from the executive summary. */
export function briefingContent(snapshot: RenderSnapshot): Briefing {
  const block = snapshot.data._briefing as Partial<BriefingBlock> | undefined;
  const summary = snapshot.data.executive_summary;
  if (block && (block.briefing_headline || block.bottom_line_tight)) {
    return {
      headline: stripCites(block.briefing_headline) || snapshot.title,
      standfirst: stripCites(block.briefing_standfirst),
      priorities: (block.priorities ?? []).map(stripCites),
      bottomLine: stripCites(block.bottom_line_tight) || stripCites(summary?.bottom_line),
      pullQuote: stripCites(block.pull_quote),
      sentimentLabel: stripCites(block.sentiment_label),
      sentimentRationale: stripCites(block.sentiment_rationale),
    };
  }
  const bottomLine = stripCites(summary?.bottom_line);
  const firstSentence = /^.*?[.!?。！？](?=\s|$)/u.exec(bottomLine)?.[0] ?? bottomLine;
  return {
    headline: snapshot.title,
    standfirst: firstSentence === bottomLine ? '' : firstSentence,
    priorities: (summary?.priorities ?? []).map(stripCites),
    bottomLine,
    pullQuote: '',
    sentimentLabel: '',
    sentimentRationale: '',
  };
}

const SENTIMENT_COLORS: Record<string, string> = {
  intensifying: COLORS.impact.high!,
  heavy: COLORS.impact.high!,
  building: COLORS.impact.medium!,
  steady: COLORS.accent,
  easing: '#067647',
  quiet: '#067647',
};

export async function renderBriefingPdf(input: RenderInput): Promise<RenderedArtefact> {
  const { snapshot } = input;
  const content = briefingContent(snapshot);
  const pdf = createPdf(input, {
    title: content.headline,
    subject: 'Regulatory briefing',
    texts: [...snapshotTexts(snapshot), 'Regulatory briefing', 'Priorities', 'Bottom line', 'Outlook', 'Page 1 of 2', '“”·…'],
    margins: { top: 56, bottom: 64, left: 60, right: 60 },
  });
  const { doc } = pdf;

  doc.save();
  doc.rect(0, 0, A4.width, 8).fill(COLORS.accent);
  doc.restore();
  doc.y = 44;
  const scope = [formatLongDate(scanDateOf(snapshot)), listText(snapshot.config.jurisdictions), listText(snapshot.config.areas)].join(
    '  ·  ',
  );
  kicker(pdf, `Regulatory briefing  ·  ${scope}`, COLORS.accent);
  doc.moveDown(0.8);
  doc
    .font(BOLD)
    .fontSize(24)
    .fillColor(COLORS.ink)
    .text(truncateToColumns(content.headline, 200), pdf.left, doc.y, { width: pdf.width, lineGap: 1 });
  if (content.standfirst) {
    doc.moveDown(0.5);
    doc
      .font(REGULAR)
      .fontSize(13)
      .fillColor(COLORS.body)
      .text(truncateToColumns(content.standfirst, 600), pdf.left, doc.y, { width: pdf.width, lineGap: 2.5 });
  }
  doc.moveDown(0.8);

  if (content.sentimentLabel) sentiment(pdf, content);

  const priorities = content.priorities.filter((p) => p.length > 0).slice(0, MAX_PRIORITIES);
  if (priorities.length > 0) {
    ensureSpace(pdf, 80);
    rule(pdf);
    kicker(pdf, 'Priorities', COLORS.accent);
    doc.moveDown(0.5);
    priorities.forEach((priority, index) => priorityLine(pdf, truncateToColumns(priority, 300), index + 1));
    doc.moveDown(0.4);
  }

  if (content.pullQuote) pullQuote(pdf, truncateToColumns(content.pullQuote, 300));

  if (content.bottomLine) {
    doc.moveDown(0.4);
    boxedText(pdf, truncateToColumns(content.bottomLine, 700), {
      fill: COLORS.accentSoft,
      bar: COLORS.accent,
      title: 'Bottom line',
      fontSize: 12,
      bold: true,
    });
  }

  const bytes = await finish(pdf, `${snapshot.title} · snapshot ${snapshot.id}`);
  return { bytes, mime: 'application/pdf', filename: artefactFilename(snapshot, 'pdf', 'briefing') };
}

function rule(pdf: PdfHandle): void {
  const { doc } = pdf;
  doc.save();
  doc.moveTo(pdf.left, doc.y).lineTo(pdf.right, doc.y).lineWidth(0.5).strokeColor(COLORS.rule).stroke();
  doc.restore();
  doc.y += 10;
}

function sentiment(pdf: PdfHandle, content: Briefing): void {
  const { doc } = pdf;
  rule(pdf);
  const color = SENTIMENT_COLORS[content.sentimentLabel.toLowerCase()] ?? COLORS.accent;
  const y = doc.y;
  kicker(pdf, 'Outlook', COLORS.muted, pdf.left, 80);
  const width = pill(doc, truncateToColumns(capitalise(content.sentimentLabel), 40), pdf.left, y + 14, color, { fontSize: 8.5 });
  const textX = pdf.left + Math.max(width, 96) + 14;
  doc
    .font(REGULAR)
    .fontSize(10)
    .fillColor(COLORS.body)
    .text(truncateToColumns(content.sentimentRationale, 400), textX, y, { width: pdf.right - textX, lineGap: 2 });
  doc.x = pdf.left;
  doc.y = Math.max(doc.y, y + 34) + 12;
}

const TAG = /^\s*\[([^\]]{1,24})\]\s*/u;

function priorityLine(pdf: PdfHandle, priority: string, number: number): void {
  const { doc } = pdf;
  const match = TAG.exec(priority);
  const tag = match?.[1] ?? '';
  const text = match ? priority.slice(match[0].length) : priority;
  const indent = 26;
  doc.font(BOLD).fontSize(9);
  const tagWidth = tag ? doc.widthOfString(tag.toUpperCase(), { characterSpacing: 0.5 }) + 16 : 0;
  doc.font(REGULAR).fontSize(11);
  const height = doc.heightOfString(text, { width: pdf.width - indent - tagWidth, lineGap: 2 });
  ensureSpace(pdf, height + 8);
  const y = doc.y;
  doc
    .font(BOLD)
    .fontSize(13)
    .fillColor(COLORS.accent)
    .text(String(number), pdf.left, y - 1, { width: indent - 6, lineBreak: false });
  if (tag) pill(doc, tag, pdf.left + indent, y + 1, COLORS.accent, { fontSize: 7.5, filled: false });
  doc
    .font(REGULAR)
    .fontSize(11)
    .fillColor(COLORS.ink)
    .text(text, pdf.left + indent + tagWidth, y, { width: pdf.width - indent - tagWidth, lineGap: 2 });
  doc.x = pdf.left;
  doc.y = Math.max(doc.y, y + 16) + 7;
}

function pullQuote(pdf: PdfHandle, quote: string): void {
  const { doc } = pdf;
  const indent = 22;
  const width = pdf.width - indent - 20;
  doc.font(BOLD).fontSize(17);
  const height = doc.heightOfString(quote, { width, lineGap: 3 });
  ensureSpace(pdf, height + 40);
  doc.moveDown(0.6);
  const y = doc.y;
  // A drawn rule rather than a quotation-mark glyph: glyph metrics differ between the Latin and CJK fonts.
  doc.save();
  doc.rect(pdf.left, y, 5, height + 6).fill(COLORS.impact.high!);
  doc.restore();
  doc
    .font(BOLD)
    .fontSize(17)
    .fillColor(COLORS.accent)
    .text(quote, pdf.left + indent, y + 2, { width, lineGap: 3 });
  doc.x = pdf.left;
  doc.y = y + height + 24;
}
