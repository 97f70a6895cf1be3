/**
 * `slide-web` (frontend-slides): one self-contained HTML file of slides. Inline CSS, JS and fonts only; a
 * Content Security Policy (default-src 'none', fonts from data: URLs) makes sure the page loads nothing from
 * anywhere (source links are plain anchors the reader may follow).
 *
 * Same sections as the PPTX deck (slideSections in slide-sections.ts): title, executive summary (with the
 * selection line and the disclaimer), changes since the previous scan when there is drift, the items of each
 * jurisdiction, trends, sources. Each slide is a 16:9 frame scaled to the window; nothing scrolls or is cut
 * inside a slide: lists continue on further slides ("EU (2 of 3)") as their measured heights require
 * (slide-web-layout.ts). Navigation: arrow keys, Page Up/Down, Space, Home/End, the on-screen buttons, swipe;
 * the slide number is kept in the URL hash (#5 opens the fifth slide). Without JS, and when printed (one
 * 16 × 9 in page per slide), the slides are shown one after another.
 *
 * Fonts: the bundled families the style uses (Source Sans 3; Source Serif 4 for serif headlines; the CJK
 * family only when the text has characters the Latin family lacks), cut down to the characters of the
 * slides and embedded (slide-web-fonts.ts).
 *
 * `styleSlug`: dark-editorial (serif headlines, hero title) or light-consulting (sans, top rule),
 * colours from SLIDE_WEB_STYLES in image-styles.ts. All snapshot text is HTML-escaped.
 */
import { DEFAULT_SLIDE_WEB_STYLE, findVisualStyle, SLIDE_WEB_STYLES, type VisualStyle } from '../export-types/image-styles';
import { artefactFilename } from './artefact-filename';
import { type BundledFont, bundledFont, codePointsOf, hasGlyph, svgFonts } from './fonts';
import { buildReferences, disclaimerLine, languageNotice, languageTag, selectionLine } from './render-facts';
import { formatLongDate, horizonText, scanDateOf } from './render-dates';
import { listText, snapshotTexts } from './render-text';
import { SLIDE_SCRIPT, slideCss } from './slide-web-css';
import { fontFaces } from './slide-web-fonts';
import { INNER_W, LINE, TEXT, TITLE_H, WebLayout, WebMeasure } from './slide-web-layout';
import {
  driftBody,
  escapeHtml,
  jurisdictionBody,
  timelineBody,
  sourcesBody,
  summaryBody,
  titleBody,
  trendsBody,
  type WebContext,
} from './slide-web-slides';
import { type SlideSection, slideSections } from './slide-sections';
import type { RenderedArtefact, RenderInput } from './types';

export { escapeHtml } from './slide-web-slides';

const SANS_STACK = `system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif`;
const SERIF_STACK = `Georgia, 'Times New Roman', serif`;
const CJK_STACK: Record<string, string> = {
  sc: `'Noto Sans SC', 'Noto Sans CJK SC', 'PingFang SC', 'Microsoft YaHei', 'Hiragino Sans GB'`,
  jp: `'Noto Sans JP', 'Noto Sans CJK JP', 'Hiragino Sans', 'Yu Gothic', 'Meiryo'`,
};

export function slideWebStyle(slug: string | undefined): VisualStyle {
  const style = findVisualStyle(slug ?? DEFAULT_SLIDE_WEB_STYLE);
  if (style && SLIDE_WEB_STYLES.includes(style)) return style;
  return findVisualStyle(DEFAULT_SLIDE_WEB_STYLE) ?? SLIDE_WEB_STYLES[0]!;
}

export async function renderSlideWeb(input: RenderInput): Promise<RenderedArtefact> {
  const html = renderSlideWebHtml(input);
  return {
    bytes: Buffer.from(html, 'utf8'),
    mime: 'text/html; charset=utf-8',
    filename: artefactFilename(input.snapshot, 'html', 'slides'),
  };
}

interface WebFonts {
  body: BundledFont;
  head: BundledFont;
  /** Only when the text has characters the Latin families lack. */
  cjk: BundledFont | null;
}

/** The bundled fonts the slides are set in. */
function slideWebFonts(input: RenderInput): WebFonts {
  const style = slideWebStyle(input.options.styleSlug);
  const texts = [...snapshotTexts(input.snapshot), ...driftTexts(input)];
  const cjk = svgFonts(texts, input.locale, 'sans').fallback;
  return { body: bundledFont('sans'), head: bundledFont(style.typeface === 'serif' ? 'serif' : 'sans'), cjk };
}

function driftTexts(input: RenderInput): string[] {
  const drift = input.drift;
  if (!drift) return [];
  return [...drift.added, ...drift.removed]
    .map((entry) => String(entry.title ?? ''))
    .concat(drift.changed.map((entry) => String(entry.title ?? '')));
}

/** What the slides are measured with: the fonts they embed. */
export function slideWebMeasure(input: RenderInput): WebMeasure {
  const fonts = slideWebFonts(input);
  return new WebMeasure({ primary: fonts.body, fallback: fonts.cjk }, { primary: fonts.head, fallback: fonts.cjk });
}

/** The band under the summary (selection and disclaimer), design px. */
function bandHeight(measure: WebMeasure, selection: string, disclaimer: string): number {
  return 1 + 12 + LINE.body * measure.lines(selection, TEXT.body, INNER_W, { bold: true }) + 4 + LINE.small * measure.lines(disclaimer, TEXT.small, INNER_W);
}

export function renderSlideWebHtml(input: RenderInput): string {
  const { snapshot } = input;
  const style = slideWebStyle(input.options.styleSlug);
  const fonts = slideWebFonts(input);
  const measure = slideWebMeasure(input);
  const references = buildReferences(snapshot.data.items ?? []);
  const band = { selection: selectionLine(snapshot), disclaimer: disclaimerLine(snapshot) };
  const layout = new WebLayout(measure, references, snapshot.data.items ?? [], bandHeight(measure, band.selection, band.disclaimer));
  const ctx: WebContext = { snapshot, measure, layout, references };
  const sections = slideSections(input, layout);
  const headline = snapshot.data._briefing?.briefing_headline?.trim() || snapshot.title;
  const slides = sections.map((section, index) => {
    const body =
      section.kind === 'title'
        ? titleBody(
            ctx,
            {
              headline,
              subtitle: headline === snapshot.title ? null : snapshot.title,
              meta: [
                ['Scan date', formatLongDate(scanDateOf(snapshot))],
                ['Jurisdictions', listText(snapshot.config.jurisdictions)],
                ['Areas', listText(snapshot.config.areas)],
                ['Horizon', horizonText(snapshot)],
                ['Engine', snapshot.config.engine || '—'],
              ],
              notice: languageNotice(input),
            },
            TITLE_H,
          )
        : sectionBody(ctx, section, band);
    return `<section class="slide slide-${section.kind}" id="slide-${index + 1}" aria-label="${escapeHtml(slideLabel(section))}">
${body}
</section>`;
  });
  const faces = embeddedFonts(fonts, slides.join('\n'));
  const cjkStack = fonts.cjk ? `'${fonts.cjk.family}', ${CJK_STACK[fonts.cjk.key] ?? ''}, ` : '';
  const bodyFont = `'${fonts.body.family}', ${cjkStack}${SANS_STACK}`;
  const headFont = fonts.head.key === 'serif' ? `'${fonts.head.family}', ${cjkStack}${SERIF_STACK}` : bodyFont;
  return `<!DOCTYPE html>
<html lang="${escapeHtml(languageTag(input.locale))}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:; font-src data:; base-uri 'none'; form-action 'none'">
<meta name="generator" content="Regulatory Scan and Snapshot Service">
<title>${escapeHtml(snapshot.title)}</title>
<style>
${faces}
${slideCss(style, headFont, bodyFont)}
</style>
</head>
<body class="style-${escapeHtml(style.slug)} layout-${escapeHtml(style.layout)}">
<main class="deck">
${slides.join('\n')}
</main>
<nav class="controls" aria-label="Slide navigation">
<button type="button" data-go="prev" aria-label="Previous slide">&#8592;</button>
<span class="counter"><span data-current>1</span> / ${sections.length}</span>
<button type="button" data-go="next" aria-label="Next slide">&#8594;</button>
</nav>
<div class="progress" aria-hidden="true"><div class="bar"></div></div>
<script>
${SLIDE_SCRIPT}
</script>
</body>
</html>
`;
}

function sectionBody(
  ctx: WebContext,
  section: Exclude<SlideSection, { kind: 'title' }>,
  band: { selection: string; disclaimer: string },
): string {
  switch (section.kind) {
    case 'summary':
      return summaryBody(ctx, section, band);
    case 'drift':
      return driftBody(ctx, section);
    case 'timeline':
      return timelineBody(ctx, section);
    case 'jurisdiction':
      return jurisdictionBody(ctx, section);
    case 'trends':
      return trendsBody(ctx, section);
    case 'sources':
      return sourcesBody(ctx, section);
  }
}

function slideLabel(section: SlideSection): string {
  switch (section.kind) {
    case 'title':
      return 'Title';
    case 'summary':
      return 'Executive summary';
    case 'drift':
      return 'Changes since the previous scan';
    case 'timeline':
      return 'Milestones by quarter';
    case 'jurisdiction':
      return section.jurisdiction;
    case 'trends':
      return 'Trends';
    case 'sources':
      return 'Sources';
  }
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" };

/** @font-face rules for the families in use, each cut down to the characters of the slides (and their capitals, for uppercase labels). */
function embeddedFonts(fonts: WebFonts, slidesHtml: string): string {
  const text = slidesHtml.replace(/<[^>]*>/g, ' ').replace(/&(amp|lt|gt|quot|#39);/g, (_, name: string) => ENTITIES[name] ?? '');
  const points = codePointsOf([text, text.toUpperCase(), '0123456789 →←']);
  const latin = [fonts.body, ...(fonts.head.key !== fonts.body.key ? [fonts.head] : [])];
  // The browser takes from the CJK family only what the Latin one lacks.
  const cjkPoints = new Set([...points].filter((cp) => !hasGlyph(fonts.body.regular, cp)));
  return [
    ...latin.map((font) => fontFaces(font, points)),
    ...(fonts.cjk && cjkPoints.size > 0 ? [fontFaces(fonts.cjk, cjkPoints)] : []),
  ].join('\n');
}
