/**
 * `briefing-pdf` (internal-briefing-pdf): a one- or two-page A4 briefing. From the envelope's `_briefing` block:
 * headline, standfirst, sentiment (label and rationale), bottom line and pull quote; without `_briefing`, the
 * snapshot title as headline and the executive summary's bottom line (its first sentence as standfirst).
 * The priorities are built from the items, not from the engine's short labels (which abbreviate titles and
 * print period dates as days): up to 8, ranked by impact with firm dates first, each with its whole title, its
 * date as certain as it is, its milestone and a short linked reference. Then the changes since the previous scan
 * (when drift is given) and the numbered sources of the items shown. Nothing is cut: when the whole does not
 * fit two pages, the type shrinks (within limits) and then fewer priorities are shown, and the page says so.
 * The language notice (when the language asked for was not produced) heads page 1; the disclaimer is the footer.
 */
import type { BriefingBlock, SnapshotItem } from '../../../engine/envelope.types';
import { artefactFilename } from './artefact-filename';
import { finishWithDisclaimer, firstThatFits, fitFontSize } from './briefing-fit';
import { driftBlock, note, priorityBlock, rankPriorities, sectionLabel, sourcesBlock } from './briefing-sections';
import { capitalise, listText, snapshotTexts, stripCites } from './render-text';
import { formatLongDate, scanDateOf } from './render-dates';
import { buildReferences, disclaimerLine, languageNotice, prioritiesLine, type References } from './render-facts';
import { matchedFacts } from './matched-facts';
import { A4, BOLD, boxedText, COLORS, createPdf, ensureSpace, kicker, type PdfHandle, pill, REGULAR } from './pdf-kit';
import type { RenderedArtefact, RenderInput, RenderSnapshot } from './types';

const MAX_PRIORITIES = 8;

interface Briefing {
  headline: string;
  standfirst: string;
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

/** Content box of a briefing page; the bottom margin leaves room for the disclaimer footer. */
export const BRIEFING_MARGINS = { top: 56, bottom: 64, left: 56, right: 56 };
const MAX_PAGES = 2;

interface Step {
  /** Font scale of the body text (headline, standfirst, priorities). */
  scale: number;
  priorities: number;
  /** Titles listed per drift list (new, removed, changed). */
  driftTitles: number;
}

/** Tighter and tighter settings until the briefing fits two pages: smaller type first, then fewer items. */
const STEPS: readonly Step[] = [
  { scale: 1, priorities: MAX_PRIORITIES, driftTitles: 5 },
  { scale: 0.92, priorities: MAX_PRIORITIES, driftTitles: 5 },
  ...Array.from({ length: MAX_PRIORITIES + 1 }, (_, dropped) => ({
    scale: 0.85,
    priorities: MAX_PRIORITIES - dropped,
    driftTitles: Math.max(1, 4 - Math.floor(dropped / 2)),
  })),
];

export async function renderBriefingPdf(input: RenderInput): Promise<RenderedArtefact> {
  const { snapshot } = input;
  const content = briefingContent(snapshot);
  const items = snapshot.data.items ?? [];
  const plan: Plan = {
    input,
    content,
    ranked: rankPriorities(items),
    references: buildReferences(items),
    notice: languageNotice(input),
  };
  const { pdf } = firstThatFits(STEPS, MAX_PAGES, (step) => drawBriefing(plan, step));
  const bytes = await finishWithDisclaimer(pdf, disclaimerLine(snapshot), snapshot.id);
  return { bytes, mime: 'application/pdf', filename: artefactFilename(snapshot, 'pdf', 'briefing') };
}

interface Plan {
  input: RenderInput;
  content: Briefing;
  ranked: SnapshotItem[];
  references: References;
  notice: string | null;
}

function drawBriefing(plan: Plan, step: Step): PdfHandle {
  const { input, content } = plan;
  const { snapshot } = input;
  const s = step.scale;
  const pdf = createPdf(input, {
    title: content.headline,
    subject: 'Regulatory briefing',
    texts: [
      ...snapshotTexts(snapshot),
      'Regulatory briefing Priorities Bottom line Outlook Sources Changes since Page 1 of 2 “”·…—',
      disclaimerLine(snapshot),
      plan.notice ?? '',
    ],
    margins: BRIEFING_MARGINS,
  });
  const { doc } = pdf;

  doc.save();
  doc.rect(0, 0, A4.width, 8).fill(COLORS.accent);
  doc.restore();
  doc.y = pdf.top;
  const scope = [formatLongDate(scanDateOf(snapshot)), listText(snapshot.config.jurisdictions), listText(snapshot.config.areas)].join(
    '  ·  ',
  );
  kicker(pdf, `Regulatory briefing  ·  ${scope}`, COLORS.accent);
  if (content.headline !== snapshot.title) {
    doc.moveDown(0.2);
    doc.font(REGULAR).fontSize(9.5).fillColor(COLORS.muted).text(snapshot.title, pdf.left, doc.y, { width: pdf.width });
  }
  doc.moveDown(0.6);
  if (plan.notice) {
    boxedText(pdf, plan.notice, { fill: NOTICE.fill, bar: NOTICE.bar, fontSize: 9.5, bold: true, padding: 8 });
    doc.y -= 2;
  }
  const headlineSize = fitFontSize(doc, content.headline, {
    font: BOLD,
    width: pdf.width,
    max: 24 * s,
    min: 16,
    maxHeight: 3 * 30 * s,
    lineGap: 1,
  });
  doc.font(BOLD).fontSize(headlineSize).fillColor(COLORS.ink).text(content.headline, pdf.left, doc.y, { width: pdf.width, lineGap: 1 });
  if (content.standfirst) {
    doc.moveDown(0.4);
    doc
      .font(REGULAR)
      .fontSize(Math.max(10, 13 * s))
      .fillColor(COLORS.body)
      .text(content.standfirst, pdf.left, doc.y, { width: pdf.width, lineGap: 2 });
  }
  doc.moveDown(0.8);

  if (content.sentimentLabel) sentiment(pdf, content, s);

  // The bottom line before the detail: a reader who stops here has the point.
  if (content.bottomLine) {
    boxedText(pdf, content.bottomLine, {
      fill: COLORS.accentSoft,
      bar: COLORS.accent,
      title: 'Bottom line',
      fontSize: Math.max(9.5, 12 * s),
      bold: true,
    });
    doc.moveDown(0.4);
  }

  const shown = plan.ranked.slice(0, step.priorities);
  const noteSize = Math.max(8, 8.5 * s);
  sectionLabel(pdf, 'Priorities', shown.length > 0 ? 90 : 20);
  note(pdf, prioritiesLine(shown.length, matchedFacts(snapshot).total), noteSize);
  doc.moveDown(0.6);
  shown.forEach((item, index) => priorityBlock(pdf, item, index + 1, plan.references, s));

  if (content.pullQuote) pullQuote(pdf, content.pullQuote, s);

  if (input.drift) driftBlock(pdf, input.drift, step.driftTitles, s);
  sourcesBlock(pdf, shown, plan.references, s);
  return pdf;
}

/** Amber, for the notice that the artefact is not in the language asked for. */
const NOTICE = { fill: '#FEF0C7', bar: '#B54708' };

function sentiment(pdf: PdfHandle, content: Briefing, scale: number): void {
  const { doc } = pdf;
  const size = Math.max(8.5, 10 * scale);
  doc.font(REGULAR).fontSize(size);
  const textX = pdf.left + 110;
  const height = doc.heightOfString(content.sentimentRationale, { width: pdf.right - textX, lineGap: 2 });
  sectionLabel(pdf, 'Outlook', Math.max(height, 34));
  doc.y -= 4;
  const y = doc.y;
  const color = SENTIMENT_COLORS[content.sentimentLabel.toLowerCase()] ?? COLORS.accent;
  const label = capitalise(content.sentimentLabel);
  // A label too long for a pill is set as wrapped text rather than cut.
  doc.font(BOLD).fontSize(8.5);
  if (doc.widthOfString(label.toUpperCase(), { characterSpacing: 0.5 }) + 10 <= textX - pdf.left - 10) {
    pill(doc, label, pdf.left, y, color, { fontSize: 8.5 });
  } else {
    doc.fillColor(color).text(label.toUpperCase(), pdf.left, y, { width: textX - pdf.left - 10, characterSpacing: 0.5 });
  }
  const labelBottom = Math.max(doc.y, y + 16);
  doc
    .font(REGULAR)
    .fontSize(size)
    .fillColor(COLORS.body)
    .text(content.sentimentRationale, textX, y, { width: pdf.right - textX, lineGap: 2 });
  doc.x = pdf.left;
  doc.y = Math.max(doc.y, labelBottom) + 10;
}

function pullQuote(pdf: PdfHandle, quote: string, scale: number): void {
  const { doc } = pdf;
  const indent = 22;
  const width = pdf.width - indent - 20;
  const size = Math.max(12, 17 * scale);
  doc.font(BOLD).fontSize(size);
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
    .fontSize(size)
    .fillColor(COLORS.accent)
    .text(quote, pdf.left + indent, y + 2, { width, lineGap: 3 });
  doc.x = pdf.left;
  doc.y = Math.max(doc.y, y + height + 6) + 14;
}
