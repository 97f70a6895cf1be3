/** Pieces the image layouts share: the look, the boxes and content they draw, section titles, impact chips. */
import type { SnapshotItem } from '../../../engine/envelope.types';
import { IMPACT_LABELS, label } from './item-labels';
import { countBy } from './item-grouping';
import { formatDate } from './render-dates';
import { Svg } from './svg';
import type { RenderSnapshot } from './types';

export interface Look {
  bg: string;
  fg: string;
  accent: string;
  muted: string;
  panel: string;
  rule: string;
  onAccent: string;
  impact: Record<string, string>;
}

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface Content {
  snapshot: RenderSnapshot;
  items: SnapshotItem[];
  upcoming: SnapshotItem[];
  headline: string;
  standfirst: string;
  bottomLine: string;
  priorities: string[];
  pullQuote: string;
}

export type Variant = 'tearsheet' | 'infographic';

export function sectionTitle(svg: Svg, look: Look, x: number, y: number, text: string, width: number): void {
  svg.text(x, y, text, { size: 18, bold: true, fill: look.accent, upper: true, letterSpacing: 2.5 }, width);
}

export function impactChip(svg: Svg, look: Look, x: number, y: number, impact: string, size = 15): number {
  const text = label(IMPACT_LABELS, impact).toUpperCase();
  const w = svg.measure(text, size, true, 1.5) + 22;
  const color = look.impact[impact] ?? look.muted;
  svg.rect(x, y, w, size + 14, color, { rx: (size + 14) / 2 });
  svg.text(x + 11, y + size + 3, text, { size, bold: true, fill: '#FFFFFF', letterSpacing: 1.5 });
  return w;
}

export function moreNote(svg: Svg, look: Look, x: number, y: number, shown: number, total: number): void {
  if (total > shown)
    svg.text(x, y, `+ ${total - shown} more item${total - shown === 1 ? '' : 's'} in the full report`, { size: 18, fill: look.muted });
}

export function jurisdictionCounts(content: Content): Array<[string, number]> {
  return [...countBy(content.items, (item) => item.jurisdiction || 'Other').entries()].sort(
    ([a, x], [b, y]) => y - x || a.localeCompare(b),
  );
}

export function miniList(svg: Svg, look: Look, content: Content, box: Box, title: string): void {
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
