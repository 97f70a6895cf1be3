/**
 * `tearsheet-detailed` and `infographic-custom` (imagegen-a-infographic / imagegen-b-infographic), drawn
 * offline: an SVG layout rasterised to PNG with @resvg/resvg-js and the bundled fonts only.
 *
 * Sizes (px): tearsheet-detailed 1240 × 1754 (A4 portrait at 150 dpi); infographic-custom 1080 × 1350 (4:5).
 *
 * The `styleSlug` option picks a VisualStyle (image-styles.ts): its palette (background, foreground, accent)
 * colours everything, its typeface picks the bundled family (sans: Source Sans 3, serif: Source Serif 4,
 * mono: IBM Plex Mono; CJK text falls back to the bundled Noto Sans CJK family), and its layout hint picks the
 * body: grid (item cards), columns (key dates | priorities and trends), table (items table; on the infographic
 * a jurisdiction × impact heat map), list, timeline, radial (jurisdiction hub), cards (bento tiles), hero (big
 * number and pull quote), map (jurisdiction pins on a plain lon/lat grid), lanes (items by stage). The
 * tearsheet adds headline numbers and the bottom line above the body. Text is escaped for SVG, wrapped with the
 * fonts' metrics and cut with an ellipsis to its box.
 */
import { DEFAULT_STYLE_SLUGS, findVisualStyle, type VisualStyle } from '../export-types/image-styles';
import { artefactFilename } from './artefact-filename';
import { IMPACT_LABELS, IMPACTS } from './item-labels';
import { countBy, upcomingItems } from './item-grouping';
import { formatDate, formatLongDate, horizonText, scanDateOf } from './render-dates';
import { listText, snapshotTexts, stripCites } from './render-text';
import { svgFonts } from './fonts';
import { isDark, mix, Svg } from './svg';
import type { RenderedArtefact, RenderInput, RenderSnapshot } from './types';
import type { Look, Content } from './image-layout-parts';
import { drawBody } from './image-layouts';

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
    upcoming: upcomingItems(snapshot, 40),
    headline: stripCites(briefing?.briefing_headline) || snapshot.title,
    standfirst: stripCites(briefing?.briefing_standfirst) || bottomLine,
    bottomLine,
    priorities: (briefing?.priorities?.length ? briefing.priorities : (data.executive_summary?.priorities ?? []))
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
  'Next key dates',
  'Priorities',
  'Trends',
  '…·—“”',
];

function draw(artifactType: ImageArtifactType, input: RenderInput): { svg: Svg; style: VisualStyle } {
  const style = imageStyle(artifactType, input.options.styleSlug);
  const { width, height } = IMAGE_SIZES[artifactType];
  const svg = new Svg(width, height, svgFonts([...snapshotTexts(input.snapshot), ...LABELS], input.locale, style.typeface));
  const look = lookOf(style);
  svg.rect(0, 0, width, height, look.bg);
  if (artifactType === 'tearsheet-detailed') drawTearsheet(svg, look, style, contentOf(input.snapshot));
  else drawInfographic(svg, look, style, contentOf(input.snapshot));
  return { svg, style };
}

export async function renderImage(artifactType: ImageArtifactType, input: RenderInput): Promise<RenderedArtefact> {
  const { svg, style } = draw(artifactType, input);
  const bytes = await svg.toPng();
  const suffix = artifactType === 'tearsheet-detailed' ? `tearsheet-${style.slug}` : `infographic-${style.slug}`;
  return { bytes, mime: 'image/png', filename: artefactFilename(input.snapshot, 'png', suffix) };
}

/** The SVG markup only (for inspection and tests). */
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

function drawTearsheet(svg: Svg, look: Look, style: VisualStyle, content: Content): void {
  const pad = 80;
  const w = svg.width - 2 * pad;
  const { snapshot } = content;
  svg.rect(0, 0, svg.width, 12, look.accent);
  svg.text(
    pad,
    92,
    'Regulatory horizon  ·  detailed tearsheet',
    { size: 20, bold: true, fill: look.accent, upper: true, letterSpacing: 3 },
    w,
  );
  let y = 160;
  y += svg.paragraph(pad, y, snapshot.title, { size: 54, bold: true, fill: look.fg, maxWidth: w, maxLines: 2, lineHeight: 64 });
  y += 2;
  svg.text(pad, y, scopeLine(snapshot), { size: 22, fill: look.muted }, w);
  y += 36;
  svg.line(pad, y, pad + w, y, look.rule, 2);
  y += 36;

  // Headline numbers.
  const byImpact = countBy(content.items, (item) => item.impact);
  const tiles: Array<[string, number, string]> = [
    ['Items', content.items.length, look.accent],
    ...IMPACTS.map((impact): [string, number, string] => [
      `${IMPACT_LABELS[impact]} impact`,
      byImpact.get(impact) ?? 0,
      look.impact[impact]!,
    ]),
  ];
  const gap = 24;
  const tileW = (w - gap * 3) / 4;
  tiles.forEach(([name, value, color], index) => {
    const x = pad + index * (tileW + gap);
    svg.rect(x, y, tileW, 150, look.panel, { rx: 6 });
    svg.rect(x, y, tileW, 6, color);
    svg.text(x + 28, y + 88, String(value), { size: 64, bold: true, fill: color });
    svg.text(x + 28, y + 126, name, { size: 22, fill: look.muted }, tileW - 40);
  });
  y += 150 + 36;

  // Bottom line.
  if (content.bottomLine) {
    const lines = svg.lineCount(content.bottomLine, 26, w - 64, 4);
    const h = 76 + lines * 36;
    svg.rect(pad, y, w, h, look.panel, { rx: 6 });
    svg.rect(pad, y, 8, h, look.accent);
    svg.text(pad + 36, y + 44, 'Bottom line', { size: 18, bold: true, fill: look.accent, upper: true, letterSpacing: 2.5 });
    svg.paragraph(pad + 36, y + 84, content.bottomLine, { size: 26, fill: look.fg, maxWidth: w - 64, maxLines: 4, lineHeight: 36 });
    y += h + 44;
  }

  const footerY = svg.height - 60;
  drawBody(svg, look, style.layout, content, { x: pad, y, w, h: footerY - 50 - y }, 'tearsheet');
  footer(svg, look, content, pad, footerY);
}

function drawInfographic(svg: Svg, look: Look, style: VisualStyle, content: Content): void {
  const pad = 72;
  const w = svg.width - 2 * pad;
  svg.rect(0, 0, svg.width, 10, look.accent);
  svg.text(
    pad,
    84,
    `Regulatory horizon  ·  ${formatDate(scanDateOf(content.snapshot))}`,
    { size: 20, bold: true, fill: look.accent, upper: true, letterSpacing: 3 },
    w,
  );
  let y = 152;
  y += svg.paragraph(pad, y, content.headline, { size: 52, bold: true, fill: look.fg, maxWidth: w, maxLines: 3, lineHeight: 60 });
  y += 4;
  if (content.standfirst) {
    y += svg.paragraph(pad, y, content.standfirst, { size: 24, fill: look.muted, maxWidth: w, maxLines: 3, lineHeight: 33 });
  }
  y += 28;
  const footerY = svg.height - 48;
  drawBody(svg, look, style.layout, content, { x: pad, y, w, h: footerY - 44 - y }, 'infographic');
  footer(svg, look, content, pad, footerY);
}

function footer(svg: Svg, look: Look, content: Content, pad: number, y: number): void {
  const w = svg.width - 2 * pad;
  svg.line(pad, y - 34, pad + w, y - 34, look.rule, 1.5);
  svg.text(pad, y, `${content.snapshot.title}  ·  snapshot ${content.snapshot.id}`, { size: 17, fill: look.muted }, w * 0.68);
  svg.text(
    pad + w,
    y,
    `${content.items.length} items  ·  ${listText(content.snapshot.config.jurisdictions)}`,
    { size: 17, fill: look.muted, anchor: 'end' },
    w * 0.3,
  );
}
