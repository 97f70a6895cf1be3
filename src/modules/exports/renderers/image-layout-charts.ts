/**
 * Image bodies that chart the items: timeline, radial hub, heat map, stage lanes (map pins: image-layout-map.ts). The charts count
 * every item; the item lists beside them show the top-ranked items that fit whole and return how many.
 */
import { IMPACT_LABELS, IMPACTS, label, STAGE_LABELS } from './item-labels';
import { Svg } from './svg';
import { type Block, stack } from './image-blocks';
import { byDate, dateRuns, sourceText, titleRun, unbrokenDate } from './image-items';
import { type Look, type Box, type Content, type Shown, jurisdictionCounts, jurisdictionImpacts, miniList } from './image-layout-parts';
import { matchedFacts } from './matched-facts';

export function timeline(svg: Svg, look: Look, content: Content, box: Box): number {
  const lineX = box.x + 190;
  const x = lineX + 40;
  const w = box.x + box.w - x;
  const gap = 30;
  const entries: Array<{ left: Block; right: Block; height: number }> = [];
  let used = 0;
  for (const item of content.items) {
    const left = stack(
      svg,
      dateRuns(item, look, 21).map((run) => ({ ...run, anchor: 'end' as const })),
      150,
    );
    const milestone = (item.milestone ?? '').trim();
    const right = stack(
      svg,
      [
        titleRun(item, look, { title: 24, titleMin: 17, titleLines: 2, meta: 16 }),
        {
          text: `${label(STAGE_LABELS, item.stage)} · ${label(IMPACT_LABELS, item.impact)} impact · ${item.regulator}`,
          size: 16,
          minSize: 13,
          maxLines: 2,
          fill: look.muted,
          overflow: 'whole',
          gap: 6,
        },
        {
          text: [milestone, sourceText(item)].filter(Boolean).join(' · '),
          size: 16,
          minSize: 13,
          maxLines: 3,
          fill: look.muted,
          overflow: 'whole',
          gap: 4,
        },
      ],
      w,
    );
    const height = Math.max(left.height, right.height);
    if (used + (entries.length > 0 ? gap : 0) + height > box.h) break;
    used += (entries.length > 0 ? gap : 0) + height;
    entries.push({ left, right, height });
  }
  // Drawn as a calendar: the entries that fit, soonest first.
  const order = byDate(content.items.slice(0, entries.length));
  const spare = entries.length > 1 ? Math.min(24, (box.h - used) / (entries.length - 1)) : 0;
  const placed: Array<{ item: (typeof order)[number]; y: number }> = [];
  let y = box.y;
  for (const item of order) {
    placed.push({ item, y });
    y += entries[content.items.indexOf(item)]!.height + gap + spare;
  }
  if (placed.length > 1) svg.line(lineX, box.y + 28, lineX, placed.at(-1)!.y, look.rule, 4);
  for (const { item, y: top } of placed) {
    const entry = entries[content.items.indexOf(item)]!;
    svg.circle(lineX, top + 14, 14, look.bg, { stroke: look.impact[item.impact] ?? look.accent, strokeWidth: 6 });
    entry.left.draw(lineX - 34, top);
    entry.right.draw(x, top);
  }
  return entries.length;
}

/** Node sizes at full scale: the largest and smallest node, the hub's largest and smallest radius. */
const NODE_MAX = 44;
const NODE_MIN = 22;
const HUB_MAX = 84;
const HUB_MIN = 52;
/** Space between a node and its name; the width a name beside its node may take. */
const LABEL_GAP = 12;
const LABEL_W = 150;

/**
 * Jurisdictions round a hub, then the key dates. The figure (nodes, ring and names) is measured before it is
 * drawn and kept inside its share of the box: it is set smaller (down to 60%) when the box is short, and takes
 * room from the list below only when even that does not fit, so it never reaches the text above or below.
 */
export function radial(svg: Svg, look: Look, content: Content, box: Box): number {
  const shown = jurisdictionCounts(content).slice(0, 8);
  const max = Math.max(1, ...shown.map(([, n]) => n));
  // Names above and below their nodes at the top and bottom, beside them elsewhere; up to two lines each.
  const nodes = shown.map(([name, n], index) => {
    const angle = -Math.PI / 2 + (index * 2 * Math.PI) / shown.length;
    const cos = Math.cos(angle);
    const sin = Math.sin(angle);
    const vertical = Math.abs(cos) < 0.35;
    const fitted = svg.fit(name, { size: 20, minSize: 13, maxWidth: vertical ? 2 * LABEL_W : LABEL_W, maxLines: 2, bold: true });
    const lineHeight = Math.round(fitted.size * 1.2);
    const height = (fitted.lines.length - 1) * lineHeight + 1.15 * fitted.size;
    return { name, n, cos, sin, vertical, fitted, lineHeight, height };
  });
  // How far the figure reaches above and below the hub's centre for a ring and scale: each node with its name.
  const reach = (ring: number, scale: number): { up: number; down: number } => {
    const nodeMax = NODE_MAX * scale;
    let up = 0;
    let down = 0;
    for (const node of nodes) {
      const y = ring * node.sin;
      const named = nodeMax + LABEL_GAP + node.height;
      const beside = Math.max(nodeMax, node.height / 2 + 2);
      up = Math.max(up, -y + (node.vertical ? (node.sin < 0 ? named : nodeMax) : beside));
      down = Math.max(down, y + (node.vertical ? (node.sin > 0 ? named : nodeMax) : beside));
    }
    return { up: up + 4, down: down + 4 };
  };
  const fits = (ring: number, scale: number, height: number): boolean => {
    const { up, down } = reach(ring, scale);
    return up + down <= height;
  };
  const minRing = (scale: number): number => {
    const nodeMax = NODE_MAX * scale;
    // Neighbouring nodes clear of each other, and the hub clear of every node.
    const apart = shown.length > 1 ? (nodeMax + 6) / Math.sin(Math.PI / shown.length) : 0;
    return Math.max(HUB_MIN * scale + nodeMax + 16, apart);
  };
  const listH = Math.max(280, Math.round(box.h * 0.4));
  let hubH = box.h - listH;
  let scale = 0.6;
  for (let candidate = 1; candidate >= 0.6; candidate -= 0.05) {
    if (fits(minRing(candidate), candidate, hubH)) {
      scale = candidate;
      break;
    }
  }
  const nodeMax = NODE_MAX * scale;
  if (!fits(minRing(scale), scale, hubH)) {
    const { up, down } = reach(minRing(scale), scale);
    hubH = Math.ceil(up + down);
  }
  // The widest ring that fits, leaving room for a name beside a node at either side.
  let ring = Math.max(minRing(scale), box.w / 2 - nodeMax - LABEL_GAP - LABEL_W - 16);
  while (ring > minRing(scale) && !fits(ring, scale, hubH)) ring = Math.max(minRing(scale), ring - 2);
  const hub = Math.min(HUB_MAX * scale, ring - nodeMax - 16);
  const { up, down } = reach(ring, scale);
  const cx = box.x + box.w / 2;
  const cy = box.y + (hubH - up - down) / 2 + up;
  for (const node of nodes) {
    const nx = cx + ring * node.cos;
    const ny = cy + ring * node.sin;
    const radius = (NODE_MIN + (NODE_MAX - NODE_MIN) * Math.sqrt(node.n / max)) * scale;
    svg.line(cx, cy, nx, ny, look.rule, 3);
    svg.circle(nx, ny, radius, look.accent, { opacity: 0.9 });
    const size = Math.round(Math.min(28, radius * 0.8));
    svg.text(nx, ny + size * 0.36, String(node.n), { size, bold: true, fill: look.onAccent, anchor: 'middle' }, radius * 1.7);
    const { fitted, lineHeight } = node;
    const style = { size: fitted.size, bold: true, fill: look.fg };
    const extra = (fitted.lines.length - 1) * lineHeight;
    if (node.vertical) {
      // Above: the last line's baseline sits over the node; below: the first line's top sits under it.
      const first = node.sin < 0 ? ny - radius - LABEL_GAP - 0.25 * fitted.size - extra : ny + radius + LABEL_GAP + 0.9 * fitted.size;
      svg.lines(nx, first, fitted.lines, { ...style, anchor: 'middle' }, lineHeight);
    } else {
      const first = ny + 0.35 * fitted.size - extra / 2;
      const x = nx + (radius + LABEL_GAP) * Math.sign(node.cos);
      svg.lines(x, first, fitted.lines, { ...style, anchor: node.cos > 0 ? 'start' : 'end' }, lineHeight);
    }
  }
  svg.circle(cx, cy, hub, look.fg);
  svg.text(
    cx,
    cy + hub * 0.1,
    String(matchedFacts(content.snapshot).total),
    { size: Math.round(hub * 0.7), bold: true, fill: look.bg, anchor: 'middle' },
    hub * 1.6,
  );
  svg.text(cx, cy + hub * 0.55, 'matching', { size: Math.round(Math.min(20, hub * 0.24)), fill: look.bg, anchor: 'middle' });
  return miniList(svg, look, content, { x: box.x, y: box.y + hubH, w: box.w, h: box.h - hubH }, 'Key dates');
}

export function heatmap(svg: Svg, look: Look, content: Content, box: Box): number {
  const rows = jurisdictionCounts(content, true).slice(0, 8);
  const impacts = jurisdictionImpacts(content);
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
  const max = Math.max(1, ...[...impacts.values()].flatMap((byImpact) => IMPACTS.map((impact) => byImpact[impact])));
  rows.forEach(([name], rowIndex) => {
    const y = box.y + 44 + rowIndex * cellH;
    svg.text(box.x, y + cellH / 2 + 8, name, { size: 22, bold: true, fill: look.fg }, labelW - 16);
    IMPACTS.forEach((impact, index) => {
      const n = impacts.get(name)?.[impact] ?? 0;
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
  return miniList(svg, look, content, { x: box.x, y: top, w: box.w, h: box.y + box.h - top }, 'Key dates');
}

/**
 * Items by stage, one lane each: every lane shows its top-ranked items that fit it whole, so the page shows
 * the top of each stage rather than the overall top (which would leave lanes empty).
 */
export function lanes(svg: Svg, look: Look, content: Content, box: Box): Shown {
  const stages = Object.keys(STAGE_LABELS).filter((stage) => content.items.some((item) => item.stage === stage));
  const gap = 16;
  const laneW = (box.w - gap * (stages.length - 1)) / Math.max(stages.length, 1);
  const bottom = box.y + box.h - 10;
  let count = 0;
  stages.forEach((stage, index) => {
    const x = box.x + index * (laneW + gap);
    const items = content.items.filter((item) => item.stage === stage);
    svg.rect(x, box.y, laneW, box.h, look.panel, { rx: 12 });
    svg.text(
      x + 14,
      box.y + 36,
      label(STAGE_LABELS, stage),
      { size: 15, bold: true, fill: look.accent, upper: true, letterSpacing: 0.8, minSize: 10 },
      laneW - 60,
    );
    svg.text(x + laneW - 16, box.y + 36, String(items.length), { size: 22, bold: true, fill: look.fg, anchor: 'end' });
    let y = box.y + 56;
    let shown = 0;
    for (const item of items) {
      const block = stack(
        svg,
        [
          {
            text: `${item.jurisdiction} · ${unbrokenDate(item)}`,
            size: 14,
            minSize: 12,
            maxLines: 2,
            bold: true,
            fill: look.muted,
            overflow: 'whole',
          },
          titleRun(item, look, { title: 16, titleMin: 13, titleLines: 8, meta: 13 }, 6),
          { text: sourceText(item), size: 13, minSize: 11, maxLines: 3, fill: look.muted, overflow: 'whole', gap: 6 },
        ],
        laneW - 46,
      );
      const chipH = block.height + 28;
      // Keep room for the "+ N more" note under the last chip.
      const noteRoom = shown + 1 < items.length ? 40 : 0;
      if (y + chipH + noteRoom > bottom) break;
      svg.rect(x + 10, y, laneW - 20, chipH, look.bg, { rx: 8 });
      svg.rect(x + 10, y, 6, chipH, look.impact[item.impact] ?? look.accent);
      block.draw(x + 26, y + 14);
      y += chipH + 12;
      shown++;
    }
    count += shown;
    const left = items.length - shown;
    if (left > 0) {
      const note = stack(
        svg,
        [{ text: `+ ${left} more in the report`, size: 15, minSize: 12, maxLines: 3, fill: look.muted, overflow: 'whole' }],
        laneW - 28,
      );
      if (y + 4 + note.height <= bottom) note.draw(x + 14, y + 4);
    }
  });
  return { count, scope: 'the top-ranked of each stage' };
}
