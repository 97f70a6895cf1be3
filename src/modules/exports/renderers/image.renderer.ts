/**
 * `tearsheet-detailed` and `infographic-custom` (imagegen-a-infographic / imagegen-b-infographic), drawn
 * offline: an SVG layout rasterised to PNG with @resvg/resvg-js and the bundled fonts only. This is the fallback
 * when the type's image vendor has no API key (the export then says `rendered_by: offline`); with a key the
 * vendor draws the page (../provider-exports/image-export.ts).
 *
 * Sizes (px): tearsheet-detailed 1240 × 1754 (A4 portrait at 150 dpi); infographic-custom 1080 × 1350 (4:5).
 *
 * The `styleSlug` option picks a VisualStyle (image-styles.ts): its palette (background, foreground, accent)
 * colours everything, its typeface picks the bundled family (sans: Source Sans 3, serif: Source Serif 4,
 * mono: IBM Plex Mono; CJK text falls back to the bundled Noto Sans CJK family), and its layout hint picks the
 * body: grid (item cards), columns (key dates | priorities and trends), table (items table; on the infographic
 * a jurisdiction × impact heat map), list, timeline, radial (jurisdiction hub), cards (bento tiles), hero (big
 * number and pull quote), map (jurisdiction pins on a plain lon/lat grid), lanes (items by stage). The
 * tearsheet adds headline numbers and the bottom line above the body.
 *
 * A page has a fixed size, so it shows the top-ranked items that fit whole and says so in its footer ("Top 8
 * of 40 shown; full list in the PDF report.", with the selection line, the disclaimer and the snapshot id).
 * Text is never cut: it is wrapped with the fonts' metrics and set smaller within limits; an item that does
 * not fit whole is left for the report. Each item carries its key date as a period when that is all that is
 * known ("expected H2 2026"), its milestone and its source.
 */
import { DEFAULT_STYLE_SLUGS, findVisualStyle, type VisualStyle } from '../export-types/image-styles';
import { artefactFilename } from './artefact-filename';
import { IMPACT_LABELS, IMPACTS } from './item-labels';
import { countBy } from './item-grouping';
import { selectionFacts } from './render-facts';
import { formatDate, formatLongDate, horizonText, scanDateOf } from './render-dates';
import { listText, snapshotTexts, stripCites } from './render-text';
import { svgFonts } from './fonts';
import { isDark, mix, Svg } from './svg';
import type { RenderedArtefact, RenderInput, RenderSnapshot } from './types';
import type { Look, Content } from './image-layout-parts';
import { drawBody } from './image-layouts';
import { stack } from './image-blocks';
import { footer, noticeLines } from './image-page';
import { matchedFacts, totalTileLabel } from './matched-facts';

export type ImageArtifactType = 'tearsheet-detailed' | 'infographic-custom';

export const IMAGE_SIZES: Readonly<Record<ImageArtifactType, { width: number; height: number }>> = {
  'tearsheet-detailed': { width: 1240, height: 1754 },
  'infographic-custom': { width: 1080, height: 1350 },
};

export function imageStyle(artifactType: ImageArtifactType, slug: string | undefined): VisualStyle {
  const fallback = DEFAULT_STYLE_SLUGS['imagegen-a-infographic'][artifactType];
  return findVisualStyle(slug ?? fallback) ?? findVisualStyle(fallback)!;
}

function lookOf(style: VisualStyle): Look {
  const { background: bg, foreground: fg, accent } = style.palette;
  const dark = isDark(bg);
  return {
    bg,
    fg,
    accent,
    muted: mix(fg, bg, 0.42),
    panel: mix(bg, fg, dark ? 0.08 : 0.05),
    rule: mix(bg, fg, 0.16),
    onAccent: isDark(accent) ? '#FFFFFF' : '#111111',
    impact: dark
      ? { high: '#FF6B5E', medium: '#FDB022', low: mix(fg, bg, 0.35) }
      : { high: '#C62828', medium: '#D97706', low: mix(fg, bg, 0.45) },
  };
}

function contentOf(snapshot: RenderSnapshot): Content {
  const data = snapshot.data;
  const briefing = data._briefing;
  const bottomLine = stripCites(data.executive_summary?.bottom_line) || stripCites(briefing?.bottom_line_tight);
  return {
    snapshot,
    items: data.items ?? [],
    headline: stripCites(briefing?.briefing_headline) || snapshot.title,
    standfirst: stripCites(briefing?.briefing_standfirst) || bottomLine,
    bottomLine,
    // The executive summary's priorities are whole sentences; the briefing's are cut short for slides.
    priorities: (data.executive_summary?.priorities?.length ? data.executive_summary.priorities : (briefing?.priorities ?? []))
      .map(stripCites)
      .filter((p) => p.length > 0),
    pullQuote: stripCites(briefing?.pull_quote),
  };
}

const LABELS = [
  'Regulatory horizon · detailed tearsheet',
  'Items',
  'High impact',
  'Bottom line',
  'Key dates',
  'Priorities',
  'Trends',
  'Source: none cited',
  '·—“”',
];

function draw(artifactType: ImageArtifactType, input: RenderInput): { svg: Svg; style: VisualStyle } {
  const style = imageStyle(artifactType, input.options.styleSlug);
  const { width, height } = IMAGE_SIZES[artifactType];
  const svg = new Svg(width, height, svgFonts([...snapshotTexts(input.snapshot), ...LABELS], input.locale, style.typeface));
  const look = lookOf(style);
  svg.rect(0, 0, width, height, look.bg);
  if (artifactType === 'tearsheet-detailed') drawTearsheet(svg, look, style, input);
  else drawInfographic(svg, look, style, input);
  return { svg, style };
}

export async function renderImage(artifactType: ImageArtifactType, input: RenderInput): Promise<RenderedArtefact> {
  const { svg, style } = draw(artifactType, input);
  const bytes = await svg.toPng();
  const suffix = artifactType === 'tearsheet-detailed' ? `tearsheet-${style.slug}` : `infographic-${style.slug}`;
  return { bytes, mime: 'image/png', filename: artefactFilename(input.snapshot, 'png', suffix) };
}

/** The SVG markup before rasterisation (what the PNG shows, for inspection and tests). */
export function renderImageSvg(artifactType: ImageArtifactType, input: RenderInput): string {
  return draw(artifactType, input).svg.toString();
}

function scopeLine(snapshot: RenderSnapshot): string {
  return [
    formatLongDate(scanDateOf(snapshot)),
    horizonText(snapshot),
    listText(snapshot.config.jurisdictions),
    listText(snapshot.config.areas),
  ].join('  ·  ');
}

function drawTearsheet(svg: Svg, look: Look, style: VisualStyle, input: RenderInput): void {
  const pad = 80;
  const w = svg.width - 2 * pad;
  const content = contentOf(input.snapshot);
  const { snapshot } = content;
  svg.rect(0, 0, svg.width, 12, look.accent);
  svg.text(
    pad,
    84,
    'Regulatory horizon  ·  detailed tearsheet',
    { size: 20, bold: true, fill: look.accent, upper: true, letterSpacing: 3 },
    w,
  );
  let y = 116;
  y += noticeLines(svg, look, input, pad, y, w);
  const heading = stack(
    svg,
    [
      { text: snapshot.title, size: 54, minSize: 32, maxLines: 2, bold: true, fill: look.fg, leading: 1.15, overflow: 'whole' },
      { text: scopeLine(snapshot), size: 22, minSize: 17, maxLines: 2, fill: look.muted, overflow: 'whole', gap: 14 },
    ],
    w,
  );
  heading.draw(pad, y);
  y += heading.height + 24;
  svg.line(pad, y, pad + w, y, look.rule, 2);
  y += 30;

  // Headline numbers.
  const facts = matchedFacts(snapshot);
  const tiles: Array<[string, number, string]> = [
    [totalTileLabel(facts), facts.counted, look.accent],
    ...IMPACTS.map((impact): [string, number, string] => [`${IMPACT_LABELS[impact]} impact`, facts.byImpact[impact], look.impact[impact]!]),
  ];
  const gap = 24;
  const tileW = (w - gap * 3) / 4;
  const labels = tiles.map(([name]) =>
    stack(svg, [{ text: name, size: 21, minSize: 16, maxLines: 2, fill: look.muted, overflow: 'whole' }], tileW - 44),
  );
  const tileH = 100 + Math.max(...labels.map((block) => block.height));
  tiles.forEach(([, value, color], index) => {
    const x = pad + index * (tileW + gap);
    svg.rect(x, y, tileW, tileH, look.panel, { rx: 6 });
    svg.rect(x, y, tileW, 6, color);
    svg.text(x + 28, y + 74, String(value), { size: 60, bold: true, fill: color }, tileW - 48);
    labels[index]!.draw(x + 28, y + 92);
  });
  y += tileH + 30;

  // Bottom line: its leading whole sentences.
  const bottom = content.bottomLine
    ? stack(
        svg,
        [{ text: content.bottomLine, size: 25, minSize: 21, maxLines: 4, fill: look.fg, overflow: 'sentences', leading: 1.35 }],
        w - 64,
      )
    : null;
  if (bottom && bottom.height > 0) {
    const h = 74 + bottom.height;
    svg.rect(pad, y, w, h, look.panel, { rx: 6 });
    svg.rect(pad, y, 8, h, look.accent);
    svg.text(pad + 36, y + 40, 'Bottom line', { size: 18, bold: true, fill: look.accent, upper: true, letterSpacing: 2.5 });
    bottom.draw(pad + 36, y + 56);
    y += h + 36;
  }

  const foot = footer(svg, look, input, pad, false);
  const shown = drawBody(svg, look, style.layout, content, { x: pad, y, w, h: foot.top - 30 - y }, 'tearsheet');
  foot.draw(shown);
}

function drawInfographic(svg: Svg, look: Look, style: VisualStyle, input: RenderInput): void {
  const pad = 72;
  const w = svg.width - 2 * pad;
  const content = contentOf(input.snapshot);
  svg.rect(0, 0, svg.width, 10, look.accent);
  svg.text(
    pad,
    76,
    `Regulatory horizon  ·  ${formatDate(scanDateOf(content.snapshot))}`,
    { size: 20, bold: true, fill: look.accent, upper: true, letterSpacing: 3 },
    w,
  );
  let y = 104;
  y += noticeLines(svg, look, input, pad, y, w);
  const heading = stack(
    svg,
    [
      { text: content.headline, size: 50, minSize: 34, maxLines: 3, bold: true, fill: look.fg, leading: 1.15, overflow: 'whole' },
      content.standfirst
        ? { text: content.standfirst, size: 23, minSize: 19, maxLines: 3, fill: look.muted, overflow: 'sentences', gap: 16 }
        : null,
    ],
    w,
  );
  heading.draw(pad, y);
  y += heading.height + 34;
  const foot = footer(svg, look, input, pad, true);
  const shown = drawBody(svg, look, style.layout, content, { x: pad, y, w, h: foot.top - 30 - y }, 'infographic');
  foot.draw(shown);
}
