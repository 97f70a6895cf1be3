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
import type { SnapshotItem } from '../../../engine/envelope.types';
import { DEFAULT_STYLE_SLUGS, findVisualStyle, type StyleLayout, type VisualStyle } from '../export-types/image-styles';
import { artefactFilename } from './artefact-filename';
import { CONFIDENCE_LABELS, IMPACT_LABELS, IMPACTS, label, STAGE_LABELS } from './item-labels';
import { countBy, upcomingItems } from './item-grouping';
import { formatDate, formatLongDate, horizonText, scanDateOf } from './render-dates';
import { listText, snapshotTexts, stripCites } from './render-text';
import { svgFonts } from './fonts';
import { isDark, mix, Svg } from './svg';
import type { RenderedArtefact, RenderInput, RenderSnapshot } from './types';

export type ImageArtifactType = 'tearsheet-detailed' | 'infographic-custom';

export const IMAGE_SIZES: Readonly<Record<ImageArtifactType, { width: number; height: number }>> = {
  'tearsheet-detailed': { width: 1240, height: 1754 },
  'infographic-custom': { width: 1080, height: 1350 },
};

interface Look {
  bg: string;
  fg: string;
  accent: string;
  muted: string;
  panel: string;
  rule: string;
  onAccent: string;
  impact: Record<string, string>;
}

interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

interface Content {
  snapshot: RenderSnapshot;
  items: SnapshotItem[];
  upcoming: SnapshotItem[];
  headline: string;
  standfirst: string;
  bottomLine: string;
  priorities: string[];
  pullQuote: string;
}

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

/* ------------------------------------------------------------------------------------------------------------ */
/* Page frames                                                                                                  */
/* ------------------------------------------------------------------------------------------------------------ */

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

/* ------------------------------------------------------------------------------------------------------------ */
/* Bodies by layout hint                                                                                        */
/* ------------------------------------------------------------------------------------------------------------ */

type Variant = 'tearsheet' | 'infographic';

function drawBody(svg: Svg, look: Look, layout: StyleLayout, content: Content, box: Box, variant: Variant): void {
  if (content.items.length === 0) {
    svg.text(box.x, box.y + 40, 'No items fall inside the horizon.', { size: 28, fill: look.muted });
    return;
  }
  switch (layout) {
    case 'grid':
      return cardsGrid(svg, look, content, box, variant);
    case 'columns':
      return columns(svg, look, content, box);
    case 'table':
      return variant === 'infographic' ? heatmap(svg, look, content, box) : itemsTable(svg, look, content, box);
    case 'list':
      return itemList(svg, look, content, box);
    case 'timeline':
      return timeline(svg, look, content, box);
    case 'radial':
      return radial(svg, look, content, box);
    case 'cards':
      return bento(svg, look, content, box);
    case 'hero':
      return hero(svg, look, content, box);
    case 'map':
      return pins(svg, look, content, box);
    case 'lanes':
      return lanes(svg, look, content, box);
    default:
      return itemList(svg, look, content, box);
  }
}

function sectionTitle(svg: Svg, look: Look, x: number, y: number, text: string, width: number): void {
  svg.text(x, y, text, { size: 18, bold: true, fill: look.accent, upper: true, letterSpacing: 2.5 }, width);
}

function impactChip(svg: Svg, look: Look, x: number, y: number, impact: string, size = 15): number {
  const text = label(IMPACT_LABELS, impact).toUpperCase();
  const w = svg.measure(text, size, true, 1.5) + 22;
  const color = look.impact[impact] ?? look.muted;
  svg.rect(x, y, w, size + 14, color, { rx: (size + 14) / 2 });
  svg.text(x + 11, y + size + 3, text, { size, bold: true, fill: '#FFFFFF', letterSpacing: 1.5 });
  return w;
}

function moreNote(svg: Svg, look: Look, x: number, y: number, shown: number, total: number): void {
  if (total > shown)
    svg.text(x, y, `+ ${total - shown} more item${total - shown === 1 ? '' : 's'} in the full report`, { size: 18, fill: look.muted });
}

function cardsGrid(svg: Svg, look: Look, content: Content, box: Box, variant: Variant): void {
  const cols = 2;
  const gap = 24;
  const cardW = (box.w - gap) / cols;
  const summaryLines = variant === 'tearsheet' ? 3 : 2;
  const minH = 96 + 2 * 30 + summaryLines * 25;
  const rows = Math.max(1, Math.floor((box.h - 30 + gap) / (minH + gap)));
  const cardH = Math.max(minH, (box.h - 40 - gap * (rows - 1)) / rows);
  const lines = Math.max(summaryLines, Math.floor((cardH - 96 - 60 - 10) / 25));
  const items = content.upcoming.slice(0, rows * cols);
  items.forEach((item, index) => {
    const x = box.x + (index % cols) * (cardW + gap);
    const y = box.y + Math.floor(index / cols) * (cardH + gap);
    svg.rect(x, y, cardW, cardH, look.panel, { rx: 6 });
    svg.rect(x, y, cardW, 6, look.impact[item.impact] ?? look.accent);
    svg.text(
      x + 24,
      y + 46,
      `${formatDate(item.key_date)}  ·  ${item.jurisdiction}`,
      { size: 20, bold: true, fill: look.accent },
      cardW - 48,
    );
    const titleH = svg.paragraph(x + 24, y + 84, item.title, {
      size: 24,
      bold: true,
      fill: look.fg,
      maxWidth: cardW - 48,
      maxLines: 2,
      lineHeight: 30,
    });
    svg.paragraph(x + 24, y + 84 + titleH + 8, stripCites(item.summary), {
      size: 18,
      fill: look.muted,
      maxWidth: cardW - 48,
      maxLines: lines + (titleH < 40 ? 1 : 0),
      lineHeight: 25,
    });
  });
  moreNote(svg, look, box.x, box.y + box.h, items.length, content.items.length);
}

function columns(svg: Svg, look: Look, content: Content, box: Box): void {
  const gap = 48;
  const leftW = (box.w - gap) * 0.55;
  const rightX = box.x + leftW + gap;
  const rightW = box.w - leftW - gap;
  sectionTitle(svg, look, box.x, box.y + 20, 'Next key dates', leftW);
  let y = box.y + 52;
  let shown = 0;
  for (const item of content.upcoming) {
    if (y + 96 > box.y + box.h - 30) break;
    svg.line(box.x, y, box.x + leftW, y, look.rule, 1.5);
    svg.text(box.x, y + 38, formatDate(item.key_date), { size: 22, bold: true, fill: look.impact[item.impact] ?? look.fg }, 170);
    svg.text(
      box.x,
      y + 66,
      `${item.jurisdiction} · ${label(CONFIDENCE_LABELS, item.date_confidence)}`,
      { size: 16, fill: look.muted },
      170,
    );
    const h = svg.paragraph(box.x + 180, y + 36, item.title, {
      size: 22,
      bold: true,
      fill: look.fg,
      maxWidth: leftW - 180,
      maxLines: 2,
      lineHeight: 28,
    });
    y += Math.max(86, h + 40);
    shown++;
  }
  moreNote(svg, look, box.x, box.y + box.h, shown, content.items.length);

  sectionTitle(svg, look, rightX, box.y + 20, 'Priorities', rightW);
  let ry = box.y + 60;
  content.priorities.slice(0, 5).forEach((priority, index) => {
    if (ry + 60 > box.y + box.h * 0.62) return;
    svg.text(rightX, ry + 6, String(index + 1), { size: 30, bold: true, fill: look.accent });
    ry += svg.paragraph(rightX + 40, ry, priority, { size: 20, fill: look.fg, maxWidth: rightW - 40, maxLines: 3, lineHeight: 27 }) + 20;
  });
  const trends = content.snapshot.data.trends ?? [];
  if (trends.length > 0 && ry + 120 < box.y + box.h) {
    ry += 20;
    sectionTitle(svg, look, rightX, ry, 'Trends', rightW);
    ry += 40;
    for (const trend of trends) {
      if (ry + 70 > box.y + box.h) break;
      svg.text(rightX, ry, trend.title, { size: 21, bold: true, fill: look.fg }, rightW);
      svg.text(
        rightX,
        ry + 28,
        `${trend.momentum} · ${trend.item_ids.length} items`,
        { size: 17, fill: trend.momentum === 'rising' ? look.impact.high! : look.muted },
        rightW,
      );
      ry += 66;
    }
  }
}

function itemsTable(svg: Svg, look: Look, content: Content, box: Box): void {
  const cols: Array<[string, number]> = [
    ['Date', 170],
    ['Jur.', 110],
    ['Instrument', box.w - 170 - 110 - 160 - 150],
    ['Stage', 160],
    ['Impact', 150],
  ];
  let x = box.x;
  for (const [name, w] of cols) {
    svg.text(x + 12, box.y + 24, name, { size: 16, bold: true, fill: look.muted, upper: true, letterSpacing: 2 }, w - 16);
    x += w;
  }
  svg.line(box.x, box.y + 40, box.x + box.w, box.y + 40, look.accent, 2.5);
  const rowH = 76;
  const rows = Math.max(1, Math.floor((box.h - 80) / rowH));
  const items = content.upcoming.slice(0, rows);
  items.forEach((item, index) => {
    const y = box.y + 40 + index * rowH;
    if (index % 2 === 1) svg.rect(box.x, y, box.w, rowH, look.panel);
    let cx = box.x;
    const cells = [formatDate(item.key_date), item.jurisdiction, item.title, label(STAGE_LABELS, item.stage)];
    cells.forEach((cell, cellIndex) => {
      const w = cols[cellIndex]![1];
      if (cellIndex === 2) {
        const lines = svg.lineCount(cell, 20, w - 24, 2, true);
        svg.paragraph(cx + 12, y + (lines === 1 ? 46 : 33), cell, {
          size: 20,
          bold: true,
          fill: look.fg,
          maxWidth: w - 24,
          maxLines: 2,
          lineHeight: 25,
        });
      } else {
        svg.text(cx + 12, y + 46, cell, { size: 19, bold: cellIndex === 0, fill: look.fg }, w - 20);
      }
      cx += w;
    });
    svg.circle(cx + 20, y + 39, 9, look.impact[item.impact] ?? look.muted);
    svg.text(cx + 38, y + 46, label(IMPACT_LABELS, item.impact), { size: 19, fill: look.fg }, cols[4]![1] - 44);
  });
  moreNote(svg, look, box.x, box.y + box.h, items.length, content.items.length);
}

function itemList(svg: Svg, look: Look, content: Content, box: Box): void {
  let y = box.y + 10;
  let shown = 0;
  for (const item of content.upcoming) {
    const needed = 150;
    if (y + needed > box.y + box.h - 30) break;
    svg.text(box.x, y + 34, String(shown + 1).padStart(2, '0'), { size: 34, bold: true, fill: look.accent });
    const x = box.x + 76;
    const w = box.w - 76;
    const chipW = impactChip(svg, look, x, y + 6, item.impact, 14);
    svg.text(
      x + chipW + 14,
      y + 26,
      `${formatDate(item.key_date)}  ·  ${item.jurisdiction}  ·  ${label(STAGE_LABELS, item.stage)}`,
      { size: 18, fill: look.muted },
      w - chipW - 14,
    );
    const titleH = svg.paragraph(x, y + 68, item.title, { size: 26, bold: true, fill: look.fg, maxWidth: w, maxLines: 2, lineHeight: 32 });
    const sumH = svg.paragraph(x, y + 68 + titleH + 2, stripCites(item.summary), {
      size: 19,
      fill: look.muted,
      maxWidth: w,
      maxLines: 2,
      lineHeight: 26,
    });
    y += 68 + titleH + sumH + 24;
    svg.line(x, y - 12, box.x + box.w, y - 12, look.rule, 1);
    shown++;
  }
  moreNote(svg, look, box.x, box.y + box.h, shown, content.items.length);
}

function timeline(svg: Svg, look: Look, content: Content, box: Box): void {
  const lineX = box.x + 190;
  const slot = 118;
  const count = Math.max(1, Math.min(content.upcoming.length, Math.floor((box.h - 40) / slot)));
  const items = content.upcoming.slice(0, count);
  const step = Math.min(slot + 30, (box.h - 40) / count);
  svg.line(lineX, box.y, lineX, box.y + step * (count - 1) + 40, look.rule, 4);
  items.forEach((item, index) => {
    const y = box.y + 20 + index * step;
    svg.text(lineX - 34, y + 8, formatDate(item.key_date), { size: 22, bold: true, fill: look.fg, anchor: 'end' }, 150);
    svg.text(lineX - 34, y + 36, label(CONFIDENCE_LABELS, item.date_confidence), { size: 16, fill: look.muted, anchor: 'end' }, 150);
    svg.circle(lineX, y, 14, look.bg, { stroke: look.impact[item.impact] ?? look.accent, strokeWidth: 6 });
    const x = lineX + 40;
    const w = box.x + box.w - x;
    const h = svg.paragraph(x, y + 8, item.title, { size: 24, bold: true, fill: look.fg, maxWidth: w, maxLines: 2, lineHeight: 30 });
    svg.text(
      x,
      y + 8 + h + 2,
      `${item.jurisdiction}  ·  ${label(STAGE_LABELS, item.stage)}  ·  ${label(IMPACT_LABELS, item.impact)} impact  ·  ${item.regulator}`,
      { size: 17, fill: look.muted },
      w,
    );
  });
  moreNote(svg, look, box.x, box.y + box.h, items.length, content.items.length);
}

function jurisdictionCounts(content: Content): Array<[string, number]> {
  return [...countBy(content.items, (item) => item.jurisdiction || 'Other').entries()].sort(
    ([a, x], [b, y]) => y - x || a.localeCompare(b),
  );
}

function radial(svg: Svg, look: Look, content: Content, box: Box): void {
  const all = jurisdictionCounts(content);
  const shown = all.slice(0, 8);
  const listH = Math.min(300, box.h * 0.34);
  const hubH = box.h - listH;
  const cx = box.x + box.w / 2;
  const cy = box.y + hubH / 2;
  const ring = Math.min(box.w / 2 - 110, hubH / 2 - 70);
  const max = Math.max(1, ...shown.map(([, n]) => n));
  shown.forEach(([name, n], index) => {
    const angle = -Math.PI / 2 + (index * 2 * Math.PI) / shown.length;
    const nx = cx + ring * Math.cos(angle);
    const ny = cy + ring * Math.sin(angle);
    svg.line(cx, cy, nx, ny, look.rule, 3);
    const radius = 34 + 30 * Math.sqrt(n / max);
    svg.circle(nx, ny, radius, look.accent, { opacity: 0.9 });
    svg.text(nx, ny + 12, String(n), { size: 34, bold: true, fill: look.onAccent, anchor: 'middle' });
    const below = ny + radius + 30;
    svg.text(nx, below, name, { size: 20, bold: true, fill: look.fg, anchor: 'middle' }, 200);
  });
  svg.circle(cx, cy, 92, look.fg);
  svg.text(cx, cy + 10, String(content.items.length), { size: 64, bold: true, fill: look.bg, anchor: 'middle' });
  svg.text(cx, cy + 46, 'items', { size: 20, fill: look.bg, anchor: 'middle' });
  miniList(svg, look, content, { x: box.x, y: box.y + hubH, w: box.w, h: listH }, 'Next key dates');
}

function miniList(svg: Svg, look: Look, content: Content, box: Box, title: string): void {
  sectionTitle(svg, look, box.x, box.y + 20, title, box.w);
  const rowH = 46;
  const rows = Math.max(0, Math.floor((box.h - 40) / rowH));
  content.upcoming.slice(0, rows).forEach((item, index) => {
    const y = box.y + 62 + index * rowH;
    svg.circle(box.x + 8, y - 7, 7, look.impact[item.impact] ?? look.muted);
    svg.text(box.x + 28, y, formatDate(item.key_date), { size: 20, bold: true, fill: look.fg }, 150);
    svg.text(box.x + 180, y, `${item.title} (${item.jurisdiction})`, { size: 20, fill: look.fg }, box.w - 180);
  });
}

function bento(svg: Svg, look: Look, content: Content, box: Box): void {
  const gap = 20;
  const colW = (box.w - gap) / 2;
  const topH = Math.min(300, box.h * 0.36);
  // Big number tile.
  svg.rect(box.x, box.y, colW, topH, look.accent, { rx: 18 });
  svg.text(box.x + 32, box.y + 130, String(content.items.length), { size: 110, bold: true, fill: look.onAccent });
  svg.paragraph(box.x + 32, box.y + 180, `instruments due within ${horizonText(content.snapshot)}`, {
    size: 22,
    fill: look.onAccent,
    maxWidth: colW - 64,
    maxLines: 3,
    lineHeight: 29,
  });
  // Impact tiles.
  const byImpact = countBy(content.items, (item) => item.impact);
  const tileH = (topH - 2 * gap) / 3;
  IMPACTS.forEach((impact, index) => {
    const y = box.y + index * (tileH + gap);
    const x = box.x + colW + gap;
    svg.rect(x, y, colW, tileH, look.panel, { rx: 18 });
    svg.text(x + 28, y + tileH / 2 + 17, String(byImpact.get(impact) ?? 0), { size: 48, bold: true, fill: look.impact[impact]! });
    svg.text(x + 120, y + tileH / 2 + 9, `${IMPACT_LABELS[impact]} impact`, { size: 22, fill: look.fg }, colW - 140);
  });
  // Quote or bottom line tile.
  let y = box.y + topH + gap;
  const quote = content.pullQuote || content.bottomLine;
  const quoteLines = svg.lineCount(quote, 28, box.w - 64, 3, true);
  const quoteH = 64 + quoteLines * 36;
  svg.rect(box.x, y, box.w, quoteH, look.fg, { rx: 18 });
  svg.paragraph(box.x + 32, y + 58, quote, { size: 28, bold: true, fill: look.bg, maxWidth: box.w - 64, maxLines: 3, lineHeight: 36 });
  y += quoteH + gap;
  // Next items as tiles.
  const rest = box.y + box.h - y - 30;
  const tileRows = Math.max(1, Math.floor((rest + gap) / (170 + gap)));
  const items = content.upcoming.slice(0, tileRows * 2);
  const itemH = (rest - gap * (tileRows - 1)) / tileRows;
  items.forEach((item, index) => {
    const x = box.x + (index % 2) * (colW + gap);
    const ty = y + Math.floor(index / 2) * (itemH + gap);
    svg.rect(x, ty, colW, itemH, look.panel, { rx: 18 });
    svg.text(
      x + 28,
      ty + 44,
      `${formatDate(item.key_date)} · ${item.jurisdiction}`,
      { size: 19, bold: true, fill: look.impact[item.impact] ?? look.accent },
      colW - 56,
    );
    svg.paragraph(x + 28, ty + 80, item.title, {
      size: 22,
      bold: true,
      fill: look.fg,
      maxWidth: colW - 56,
      maxLines: Math.max(1, Math.floor((itemH - 90) / 28)),
      lineHeight: 28,
    });
  });
  moreNote(svg, look, box.x, box.y + box.h, items.length, content.items.length);
}

function hero(svg: Svg, look: Look, content: Content, box: Box): void {
  svg.text(box.x - 6, box.y + 190, String(content.items.length), { size: 220, bold: true, fill: look.accent });
  const numberW = svg.measure(String(content.items.length), 220, true) + 30;
  const byImpact = countBy(content.items, (item) => item.impact);
  svg.paragraph(box.x + numberW, box.y + 92, `regulatory milestones within ${horizonText(content.snapshot)}`, {
    size: 30,
    bold: true,
    fill: look.fg,
    maxWidth: box.w - numberW,
    maxLines: 3,
    lineHeight: 38,
  });
  svg.text(
    box.x + numberW,
    box.y + 200,
    IMPACTS.map((impact) => `${byImpact.get(impact) ?? 0} ${impact}`).join('  ·  '),
    { size: 22, fill: look.muted },
    box.w - numberW,
  );
  let y = box.y + 260;
  const quote = content.pullQuote || content.bottomLine;
  if (quote) {
    svg.rect(box.x, y, 8, 120, look.accent);
    const h = svg.paragraph(box.x + 36, y + 40, `“${quote}”`, {
      size: 34,
      bold: true,
      fill: look.fg,
      maxWidth: box.w - 36,
      maxLines: 3,
      lineHeight: 44,
    });
    y += Math.max(120, h + 10) + 40;
  }
  miniList(svg, look, content, { x: box.x, y, w: box.w, h: box.y + box.h - y }, 'Next key dates');
}

function heatmap(svg: Svg, look: Look, content: Content, box: Box): void {
  const rows = jurisdictionCounts(content).slice(0, 8);
  const labelW = 200;
  const cellW = (box.w - labelW) / 3;
  const cellH = Math.min(78, (box.h * 0.58 - 50) / Math.max(rows.length, 1));
  IMPACTS.forEach((impact, index) => {
    svg.text(
      box.x + labelW + index * cellW + cellW / 2,
      box.y + 24,
      `${IMPACT_LABELS[impact]} impact`,
      { size: 18, bold: true, fill: look.muted, anchor: 'middle', upper: true, letterSpacing: 2 },
      cellW - 10,
    );
  });
  const counts = new Map<string, number>();
  for (const item of content.items)
    counts.set(`${item.jurisdiction}|${item.impact}`, (counts.get(`${item.jurisdiction}|${item.impact}`) ?? 0) + 1);
  const max = Math.max(1, ...counts.values());
  rows.forEach(([name], rowIndex) => {
    const y = box.y + 44 + rowIndex * cellH;
    svg.text(box.x, y + cellH / 2 + 8, name, { size: 22, bold: true, fill: look.fg }, labelW - 16);
    IMPACTS.forEach((impact, index) => {
      const n = counts.get(`${name}|${impact}`) ?? 0;
      const x = box.x + labelW + index * cellW;
      const color = look.impact[impact]!;
      svg.rect(x + 4, y + 4, cellW - 8, cellH - 8, n === 0 ? look.panel : color, { rx: 6, opacity: n === 0 ? 1 : 0.25 + 0.75 * (n / max) });
      svg.text(x + cellW / 2, y + cellH / 2 + 11, String(n), {
        size: 30,
        bold: true,
        fill: n === 0 ? look.muted : look.fg,
        anchor: 'middle',
      });
    });
  });
  const top = box.y + 44 + rows.length * cellH + 40;
  miniList(svg, look, content, { x: box.x, y: top, w: box.w, h: box.y + box.h - top }, 'Next key dates');
}

/** Approximate [longitude, latitude] of jurisdictions, for the pin layout (no map data is drawn). */
const PLACES: Record<string, [number, number]> = {
  EU: [8, 50],
  UK: [-2, 54],
  US: [-98, 39],
  Singapore: [104, 1.3],
  'Hong Kong': [114, 22],
  Japan: [138, 36],
  Australia: [134, -25],
  Switzerland: [8, 46.8],
  Canada: [-106, 56],
  Brazil: [-52, -10],
  India: [79, 22],
  China: [104, 35],
  'South Korea': [128, 36],
};

function pins(svg: Svg, look: Look, content: Content, box: Box): void {
  const mapH = Math.min(box.h * 0.58, box.w * 0.62);
  const pad = 70;
  const inner = { x: box.x + pad, y: box.y + pad * 0.7, w: box.w - 2 * pad, h: mapH - 1.4 * pad * 0.7 };
  const all = jurisdictionCounts(content);
  const known = all.map(([name]) => PLACES[name]).filter((place): place is [number, number] => place !== undefined);
  // Frame the known places (same degrees per px on both axes), at least 60° of longitude wide.
  let lonSpan = 360;
  let latSpan = (360 * inner.h) / inner.w;
  let lonMid = 0;
  let latMid = 10;
  if (known.length > 0) {
    const lons = known.map(([lon]) => lon);
    const lats = known.map(([, lat]) => lat);
    lonMid = (Math.min(...lons) + Math.max(...lons)) / 2;
    latMid = (Math.min(...lats) + Math.max(...lats)) / 2;
    lonSpan = Math.max(60, Math.max(...lons) - Math.min(...lons) + 20);
    latSpan = (lonSpan * inner.h) / inner.w;
    const latNeed = Math.max(...lats) - Math.min(...lats) + 10;
    if (latNeed > latSpan) {
      latSpan = latNeed;
      lonSpan = (latSpan * inner.w) / inner.h;
    }
  }
  const toX = (lon: number): number => inner.x + ((lon - (lonMid - lonSpan / 2)) / lonSpan) * inner.w;
  const toY = (lat: number): number => inner.y + ((latMid + latSpan / 2 - lat) / latSpan) * inner.h;
  svg.rect(box.x, box.y, box.w, mapH, look.panel, { rx: 12 });
  const degPerPx = lonSpan / inner.w;
  const step = [5, 10, 15, 30, 45].find((candidate) => candidate / degPerPx >= 90) ?? 60;
  for (let lon = Math.ceil((lonMid - (lonSpan * box.w) / inner.w / 2) / step) * step; toX(lon) < box.x + box.w - 8; lon += step) {
    if (toX(lon) > box.x + 8) svg.line(toX(lon), box.y + 8, toX(lon), box.y + mapH - 8, look.rule, 1.2);
  }
  for (let lat = Math.floor((latMid + (latSpan * mapH) / inner.h / 2) / step) * step; toY(lat) < box.y + mapH - 8; lat -= step) {
    if (toY(lat) < box.y + 24 || Math.abs(lat) > 90) continue;
    svg.line(box.x + 8, toY(lat), box.x + box.w - 8, toY(lat), look.rule, 1.2);
    svg.text(box.x + 14, toY(lat) - 6, `${Math.abs(lat)}°${lat > 0 ? 'N' : lat < 0 ? 'S' : ''}`, { size: 13, fill: look.muted });
  }

  const max = Math.max(1, ...all.map(([, n]) => n));
  const high = countBy(
    content.items.filter((item) => item.impact === 'high'),
    (item) => item.jurisdiction,
  );
  let unplaced = 0;
  const pinsAt = all.map(([name, n]) => {
    const place = PLACES[name];
    const pin = {
      name,
      n,
      x: place ? toX(place[0]) : inner.x + unplaced * 170,
      y: place ? toY(place[1]) : inner.y + inner.h,
      radius: 24 + 22 * Math.sqrt(n / max),
    };
    if (!place) unplaced++;
    return pin;
  });
  // Push overlapping pins apart (EU, UK and Switzerland, or Hong Kong and Singapore, sit close together).
  for (let round = 0; round < 80; round++) {
    let moved = false;
    for (let i = 0; i < pinsAt.length; i++) {
      for (let j = i + 1; j < pinsAt.length; j++) {
        const a = pinsAt[i]!;
        const b = pinsAt[j]!;
        const need = a.radius + b.radius + 14;
        let dx = b.x - a.x;
        let dy = b.y - a.y;
        const dist = Math.hypot(dx, dy);
        if (dist >= need) continue;
        if (dist < 0.01) {
          dx = 0;
          dy = 1;
        }
        const push = (need - dist) / 2 / Math.max(dist, 1);
        a.x -= dx * push;
        a.y -= dy * push;
        b.x += dx * push;
        b.y += dy * push;
        moved = true;
      }
    }
    for (const pin of pinsAt) {
      pin.x = Math.min(Math.max(pin.x, box.x + pin.radius + 8), box.x + box.w - pin.radius - 8);
      pin.y = Math.min(Math.max(pin.y, box.y + pin.radius + 8), box.y + mapH - pin.radius - 8);
    }
    if (!moved) break;
  }
  for (const pin of pinsAt) {
    svg.circle(pin.x, pin.y, pin.radius, look.accent, { opacity: 0.95, stroke: look.panel, strokeWidth: 4 });
    svg.text(pin.x, pin.y + 10, String(pin.n), { size: 28, bold: true, fill: look.onAccent, anchor: 'middle' });
  }
  // Labels: right, left, below or above the pin, whichever overlaps pins, other labels and the frame least.
  type Rect = { x: number; y: number; w: number; h: number };
  const overlap = (a: Rect, b: Rect): number =>
    Math.max(0, Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x)) * Math.max(0, Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y));
  const frame: Rect = { x: box.x, y: box.y, w: box.w, h: mapH };
  const taken: Rect[] = pinsAt.map((pin) => ({ x: pin.x - pin.radius, y: pin.y - pin.radius, w: 2 * pin.radius, h: 2 * pin.radius }));
  for (const pin of pinsAt) {
    const name = svg.ellipsize(pin.name, 22, 170, true);
    const sub = `${high.get(pin.name) ?? 0} high impact`;
    const w = Math.max(svg.measure(name, 22, true), svg.measure(sub, 16)) + 4;
    const h = 50;
    const options: Array<{ rect: Rect; anchor: 'start' | 'end' | 'middle'; x: number; y: number }> = [
      { rect: { x: pin.x + pin.radius + 8, y: pin.y - 24, w, h }, anchor: 'start', x: pin.x + pin.radius + 10, y: pin.y - 2 },
      { rect: { x: pin.x - pin.radius - 8 - w, y: pin.y - 24, w, h }, anchor: 'end', x: pin.x - pin.radius - 10, y: pin.y - 2 },
      { rect: { x: pin.x - w / 2, y: pin.y + pin.radius + 4, w, h }, anchor: 'middle', x: pin.x, y: pin.y + pin.radius + 24 },
      { rect: { x: pin.x - w / 2, y: pin.y - pin.radius - 4 - h, w, h }, anchor: 'middle', x: pin.x, y: pin.y - pin.radius - 30 },
    ];
    const cost = (rect: Rect): number =>
      taken.reduce((sum, other) => sum + overlap(rect, other), 0) + (rect.w * rect.h - overlap(rect, frame)) * 2;
    const best = options.reduce((a, b) => (cost(b.rect) < cost(a.rect) ? b : a));
    taken.push(best.rect);
    svg.text(best.x, best.y, name, { size: 22, bold: true, fill: look.fg, anchor: best.anchor });
    svg.text(best.x, best.y + 24, sub, { size: 16, fill: look.muted, anchor: best.anchor });
  }
  miniList(svg, look, content, { x: box.x, y: box.y + mapH + 30, w: box.w, h: box.h - mapH - 30 }, 'Next key dates');
}

function lanes(svg: Svg, look: Look, content: Content, box: Box): void {
  const stages = Object.keys(STAGE_LABELS).filter((stage) => content.items.some((item) => item.stage === stage));
  const gap = 16;
  const laneW = (box.w - gap * (stages.length - 1)) / Math.max(stages.length, 1);
  const chipH = 112;
  stages.forEach((stage, index) => {
    const x = box.x + index * (laneW + gap);
    const items = content.upcoming.filter((item) => item.stage === stage);
    svg.rect(x, box.y, laneW, box.h - 30, look.panel, { rx: 12 });
    svg.text(
      x + 14,
      box.y + 36,
      label(STAGE_LABELS, stage),
      { size: 15, bold: true, fill: look.accent, upper: true, letterSpacing: 0.8 },
      laneW - 50,
    );
    svg.text(x + laneW - 16, box.y + 36, String(items.length), { size: 22, bold: true, fill: look.fg, anchor: 'end' });
    const room = Math.max(0, Math.floor((box.h - 30 - 60 - 40) / (chipH + 12)));
    const shown = items.length > room ? items.slice(0, Math.max(0, room - 1)) : items;
    shown.forEach((item, chipIndex) => {
      const y = box.y + 56 + chipIndex * (chipH + 12);
      svg.rect(x + 10, y, laneW - 20, chipH, look.bg, { rx: 8 });
      svg.rect(x + 10, y, 6, chipH, look.impact[item.impact] ?? look.accent);
      svg.text(
        x + 26,
        y + 28,
        `${formatDate(item.key_date)} · ${item.jurisdiction}`,
        { size: 15, bold: true, fill: look.muted },
        laneW - 46,
      );
      svg.paragraph(x + 26, y + 56, item.title, { size: 17, bold: true, fill: look.fg, maxWidth: laneW - 46, maxLines: 3, lineHeight: 21 });
    });
    if (shown.length < items.length) {
      svg.text(x + 16, box.y + 56 + shown.length * (chipH + 12) + 30, `+ ${items.length - shown.length} more`, {
        size: 17,
        fill: look.muted,
      });
    }
  });
}
