/** Pieces the image layouts share: the look, the boxes and content they draw, section titles, impact chips. */
import type { SnapshotItem } from '../../../engine/envelope.types';
import type { Impact } from '../../../engine/calendar/calendar.types';
import { IMPACT_LABELS, label } from './item-labels';
import { matchedFacts } from './matched-facts';
import { Svg } from './svg';
import { type Block, row, stack } from './image-blocks';
import { byDate, dateRuns, rowTextRuns } from './image-items';

export type { Box, Content, Look, Shown, Variant } from './image-types';
import type { Box, Content, Look } from './image-types';

/** A section title drawn from its top; returns its height with the space below it. */
export function sectionTitle(svg: Svg, look: Look, x: number, y: number, text: string, width: number): number {
  svg.text(x, y + 18, text, { size: 18, bold: true, fill: look.accent, upper: true, letterSpacing: 2.5 }, width);
  return 40;
}

export function impactChip(svg: Svg, look: Look, x: number, y: number, impact: string, size = 15): number {
  const text = label(IMPACT_LABELS, impact).toUpperCase();
  const w = svg.measure(text, size, true, 1.5) + 22;
  const color = look.impact[impact] ?? look.muted;
  svg.rect(x, y, w, size + 14, color, { rx: (size + 14) / 2 });
  svg.text(x + 11, y + size + 3, text, { size, bold: true, fill: '#FFFFFF', letterSpacing: 1.5 });
  return w;
}

/**
 * Matching instruments per jurisdiction, over every match (not only the items shown), most first; `withEmpty`
 * keeps the requested jurisdictions nothing matched.
 */
export function jurisdictionCounts(content: Content, withEmpty = false): Array<[string, number]> {
  return matchedFacts(content.snapshot)
    .jurisdictions.filter((row) => withEmpty || row.matched > 0)
    .map((row): [string, number] => [row.id, row.matched])
    .sort(([a, x], [b, y]) => y - x || a.localeCompare(b));
}

/** Matching instruments per jurisdiction and impact, over every match. */
export function jurisdictionImpacts(content: Content): Map<string, Record<Impact, number>> {
  return new Map(matchedFacts(content.snapshot).jurisdictions.map((row) => [row.id, row.by_impact]));
}

/**
 * Key dates of the top-ranked items that fit the box whole, soonest first: date and jurisdiction on the left,
 * title, milestone and source on the right. Returns how many it shows.
 */
export function miniList(svg: Svg, look: Look, content: Content, box: Box, title: string): number {
  const head = sectionTitle(svg, look, box.x, box.y, title, box.w);
  const dateW = 180;
  const gap = 16;
  const rowOf = (item: SnapshotItem): Block =>
    row([
      { block: stack(svg, dateRuns(item, look, 19), dateW - 44), dx: 26 },
      { block: stack(svg, rowTextRuns(item, look, { title: 20, titleMin: 15, titleLines: 4, meta: 15 }), box.w - dateW), dx: dateW },
    ]);
  // Built one at a time, only while they fit.
  const rows = new Map<SnapshotItem, Block>();
  let used = 0;
  for (const item of content.items) {
    const block = rowOf(item);
    const next = used + (rows.size > 0 ? gap : 0) + block.height;
    if (next > box.h - head) break;
    used = next;
    rows.set(item, block);
  }
  const count = rows.size;
  let y = box.y + head;
  for (const item of byDate([...rows.keys()])) {
    const block = rows.get(item)!;
    svg.circle(box.x + 8, y + 12, 7, look.impact[item.impact] ?? look.muted);
    block.draw(box.x, y);
    y += block.height + gap;
  }
  return count;
}
