/**
 * `slide-deck` (internal-pptx): a 16:9 PowerPoint deck (pptxgenjs), `theme` light | dark (default dark).
 *
 * Slides follow slideSections() (slide-sections.ts): title; executive summary (with the selection line and the
 * disclaimer); changes since the previous scan when the export has drift; the items of each jurisdiction,
 * continued over as many slides as they need ("EU (2 of 3)"), every item with its key date and milestone,
 * whole title, reference numbers and linked source (and its summary in the speaker notes); trend cards; every
 * de-duplicated reference, linked, numbered as on the item slides. Nothing is cut: every text box is sized from
 * its measured text (slide-deck-layout.ts) and lists flow onto further slides.
 *
 * Fonts: PPTX names a font face, it does not carry the font. Latin text is set in Arial, which every viewer has
 * or replaces by a metric twin (Liberation Sans in LibreOffice on Linux, Arimo), so lines break where they were
 * measured (with Arimo, bundled) whatever the viewer; Calibri's twin Carlito is missing from most Linux and many
 * Mac installs, where rows overlapped. When the deck's text needs CJK glyphs (zh / ja) the face is the bundled CJK family's name
 * ("Noto Sans S Chinese" / "Noto Sans Japanese", see fonts.ts) for latin and East Asian runs alike, with the
 * run language set (zh-CN / ja-JP) so PowerPoint substitutes a CJK font of that script where it is not
 * installed.
 */
import PptxGenJS from 'pptxgenjs';
import { countBy } from './item-grouping';
import { artefactFilename } from './artefact-filename';
import { IMPACT_LABELS, IMPACTS } from './item-labels';
import { buildReferences, disclaimerLine, languageNotice, selectionLine } from './render-facts';
import { formatDate, formatLongDate, horizonText, scanDateOf } from './render-dates';
import { listText, snapshotTexts } from './render-text';
import { bundledFont, pickDocumentFont } from './fonts';
import { CONTENT_TOP, CONTENT_W, DeckMeasure, H, MARGIN, type Para, SUMMARY, W } from './slide-deck-layout';
import {
  addBox,
  type DeckContext,
  DeckLayout,
  leadPara,
  newSlide,
  priorityPara,
  quotePara,
  rect,
  summaryBand,
  THEMES,
} from './slide-deck-kit';
import { rewriteSlides, singleParagraphProperties } from './slide-deck-xml';
import { driftSlide, jurisdictionSlide, sourcesSlide, timelineSlide, trendsSlide } from './slide-deck-slides';
import { pageLabel, type SlideSection, slideSections } from './slide-sections';
import type { RenderedArtefact, RenderInput } from './types';
import { matchedFacts, totalTileLabel } from './matched-facts';

const CJK_DECK_LATIN_SCALE = 1.17;
/** The face Latin decks name (see the module comment). */
export const LATIN_DECK_FACE = 'Arial';

export async function renderSlideDeck(input: RenderInput): Promise<RenderedArtefact> {
  const { snapshot } = input;
  const theme = THEMES[input.options.theme === 'light' ? 'light' : 'dark'];
  const font = pickDocumentFont(snapshotTexts(snapshot), input.locale, 'sans');
  const face = font.lang ? font.family : LATIN_DECK_FACE;
  const lang = font.lang ?? 'en-US';

  const pptx = new PptxGenJS();
  pptx.layout = 'LAYOUT_WIDE';
  pptx.title = snapshot.title;
  pptx.subject = 'Regulatory horizon scan';
  pptx.author = 'Regulatory Scan and Snapshot Service';
  pptx.company = 'Regulatory Scan and Snapshot Service';
  pptx.theme = { headFontFace: face, bodyFontFace: face };
  // Measured in the face the deck names: the CJK family itself, or Arimo, Arial's metric twin.
  const measure = new DeckMeasure({ primary: font.lang ? font : bundledFont('arimo'), fallback: null }, font.lang ? CJK_DECK_LATIN_SCALE : 1);
  const ctx: DeckContext = {
    pptx,
    theme,
    face,
    lang,
    snapshot,
    measure,
    references: buildReferences(snapshot.data.items ?? []),
    footer: '',
  };
  const headline = coverHeadline(input);
  const scanDate = formatDate(scanDateOf(snapshot));
  const footerWidth = CONTENT_W - 1;
  ctx.footer = measure.fitsOneLine(`${headline}  ·  ${scanDate}`, 9, footerWidth)
    ? `${headline}  ·  ${scanDate}`
    : `Regulatory horizon scan  ·  ${scanDate}`;
  const band = summaryBand(ctx, selectionLine(snapshot), disclaimerLine(snapshot));
  const layout = new DeckLayout(ctx, band);

  for (const section of slideSections(input, layout)) drawSection(ctx, layout, input, section, band);

  // 'STREAM' is pptxgenjs's only output type that honours `compression` (a Node Buffer, DEFLATE).
  const written = (await pptx.write({ outputType: 'STREAM', compression: true })) as Buffer;
  const bytes = rewriteSlides(
    Buffer.isBuffer(written) ? written : Buffer.from(written as unknown as Uint8Array),
    singleParagraphProperties,
  );
  return {
    bytes,
    mime: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
    filename: artefactFilename(snapshot, 'pptx', 'slides'),
  };
}

function drawSection(ctx: DeckContext, layout: DeckLayout, input: RenderInput, section: SlideSection, band: Para[]): void {
  switch (section.kind) {
    case 'title':
      return titleSlide(ctx, input);
    case 'summary':
      return summarySlide(ctx, layout, section, band);
    case 'drift':
      return driftSlide(ctx, section);
    case 'timeline':
      return timelineSlide(ctx, section);
    case 'jurisdiction':
      return jurisdictionSlide(ctx, section);
    case 'trends':
      return trendsSlide(ctx, layout, section);
    case 'sources':
      return sourcesSlide(ctx, layout, section);
  }
}

/** The briefing's short headline when there is one, else the snapshot title. */
function coverHeadline(input: Pick<RenderInput, 'snapshot'>): string {
  return input.snapshot.data._briefing?.briefing_headline?.trim() || input.snapshot.title;
}

const HEADLINE_SIZES = [40, 36, 32, 28, 24, 20, 18] as const;
const SUBTITLE_SIZES = [16, 14, 12] as const;

function titleSlide(ctx: DeckContext, input: RenderInput): void {
  const { snapshot, theme, measure } = ctx;
  const slide = ctx.pptx.addSlide();
  slide.background = { color: theme.background };
  rect(slide, ctx, 0, 0, 0.25, H, theme.accent);
  const x = 1;
  const w = W - 2;
  const headline = coverHeadline(input);
  const subtitle = headline === snapshot.title ? null : snapshot.title;
  const meta = [
    `Scan date ${formatLongDate(scanDateOf(snapshot))}`,
    `Horizon ${horizonText(snapshot)}`,
    `Jurisdictions ${listText(snapshot.config.jurisdictions)}`,
    `Areas ${listText(snapshot.config.areas)}`,
  ].join('   ·   ');
  const notice = languageNotice(input);
  const statsY = 5.05;
  const top = 0.85;
  const kicker: Para[] = [{ size: 14, runs: [{ text: 'REGULATORY HORIZON SCAN', bold: true, color: theme.accent }] }];
  const blocks = (headSize: number, subSize: number): Para[][] => [
    kicker,
    [{ size: headSize, runs: [{ text: headline, bold: true }] }],
    ...(subtitle ? [[{ size: subSize, runs: [{ text: subtitle, color: theme.muted }] }]] : []),
    [{ size: 14, runs: [{ text: meta, color: theme.muted }] }],
    ...(notice ? [[{ size: 13, runs: [{ text: notice, italic: true, color: theme.accent }] }]] : []),
  ];
  const gap = 0.18;
  const flowHeight = (list: Para[][]): number => list.reduce((sum, paras) => sum + measure.boxHeight(paras, w) + gap, 0);
  let chosen = blocks(HEADLINE_SIZES[HEADLINE_SIZES.length - 1], SUBTITLE_SIZES[SUBTITLE_SIZES.length - 1]);
  search: for (const headSize of HEADLINE_SIZES) {
    for (const subSize of SUBTITLE_SIZES) {
      const candidate = blocks(headSize, subSize);
      if (top + flowHeight(candidate) <= statsY) {
        chosen = candidate;
        break search;
      }
    }
  }
  let y = top;
  for (const paras of chosen) y += addBox(slide, ctx, paras, x, y, w) + gap;

  const facts = matchedFacts(snapshot);
  const stats: Array<[string, number, string]> = [
    [totalTileLabel(facts), facts.counted, theme.accent],
    ...IMPACTS.map((impact): [string, number, string] => [`${IMPACT_LABELS[impact]} impact`, facts.byImpact[impact], theme.impact[impact]!]),
  ];
  const tilesY = Math.max(statsY, y);
  stats.forEach(([name, value, color], index) => {
    const tx = x + index * 2.7;
    rect(slide, ctx, tx, tilesY, 2.4, 1.3, theme.panel);
    rect(slide, ctx, tx, tilesY, 2.4, 0.06, color);
    addBox(slide, ctx, [{ size: 36, runs: [{ text: String(value), bold: true, color }] }], tx + 0.2, tilesY + 0.15, 2.0);
    addBox(slide, ctx, [{ size: 13, runs: [{ text: name, color: theme.muted }] }], tx + 0.2, tilesY + 0.85, 2.0);
  });
  addBox(
    slide,
    ctx,
    [{ size: 10, runs: [{ text: `Engine ${snapshot.config.engine || '—'}  ·  snapshot ${snapshot.id}`, color: theme.muted }] }],
    x,
    H - 0.55,
    w,
  );
}

function summarySlide(ctx: DeckContext, layout: DeckLayout, section: Extract<SlideSection, { kind: 'summary' }>, band: Para[]): void {
  const { theme } = ctx;
  const slide = newSlide(ctx, pageLabel('Executive summary', section));
  const { colW, panelPad, kicker } = SUMMARY;
  const columnH = layout.summaryColumnHeight(section.page - 1);
  const kickerPara = (text: string): Para[] => [{ size: 12, runs: [{ text, bold: true, color: theme.accent }] }];
  if (section.lead.length > 0 || section.quote) {
    rect(slide, ctx, MARGIN, CONTENT_TOP, colW, columnH, theme.panel);
    addBox(
      slide,
      ctx,
      kickerPara(section.page === 1 ? 'BOTTOM LINE' : 'BOTTOM LINE (CONTINUED)'),
      MARGIN + panelPad,
      CONTENT_TOP + 0.2,
      colW - 2 * panelPad,
    );
    const paras = [
      ...section.lead.map((text) => leadPara(text, layout.leadSize)),
      ...(section.quote ? [quotePara(ctx, section.quote)] : []),
    ];
    addBox(slide, ctx, paras, MARGIN + panelPad, CONTENT_TOP + kicker, colW - 2 * panelPad);
  }
  const x = MARGIN + colW + 0.5;
  if (section.priorities.length > 0 || section.page === 1) {
    addBox(slide, ctx, kickerPara('PRIORITIES'), x, CONTENT_TOP + 0.2, colW);
    const paras =
      section.priorities.length > 0
        ? section.priorities.map((priority) => priorityPara(priority.number, priority.text, layout.prioritySize))
        : [{ size: layout.prioritySize, runs: [{ text: 'No priorities.', color: theme.muted }] }];
    addBox(slide, ctx, paras, x, CONTENT_TOP + kicker, colW);
  }
  if (section.page === 1) {
    slide.addShape(ctx.pptx.ShapeType.line, {
      x: MARGIN,
      y: CONTENT_TOP + columnH + 0.1,
      w: CONTENT_W,
      h: 0,
      line: { color: theme.rule, width: 0.75 },
    });
    addBox(slide, ctx, band, MARGIN, CONTENT_TOP + columnH + 0.2, CONTENT_W);
  }
}
