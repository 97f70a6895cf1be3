/**
 * Image bodies that chart the items: timeline, radial hub, heat map, map pins, stage lanes. The charts count
 * every item; the item lists beside them show the top-ranked items that fit whole and return how many.
 */
import { IMPACT_LABELS, IMPACTS, label, STAGE_LABELS } from './item-labels';
import { countBy } from './item-grouping';
import { Svg } from './svg';
import { type Block, stack } from './image-blocks';
import { byDate, dateRuns, sourceText, titleRun, unbrokenDate } from './image-items';
import { type Look, type Box, type Content, type Shown, jurisdictionCounts, miniList } from './image-layout-parts';

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

export function radial(svg: Svg, look: Look, content: Content, box: Box): number {
  const shown = jurisdictionCounts(content).slice(0, 8);
  const listH = Math.max(280, Math.round(box.h * 0.4));
  const hubH = box.h - listH;
  const cx = box.x + box.w / 2;
  const cy = box.y + hubH / 2;
  const maxR = 44;
  const labelW = 150;
  const hub = Math.min(84, hubH * 0.2);
  // Names sit outside their nodes (beside them left and right, above and below at the top and bottom), so
  // the ring leaves room for a name on every side.
  const ring = Math.max(hub + maxR + 16, Math.min(box.w / 2 - maxR - labelW - 16, hubH / 2 - maxR - 34));
  const max = Math.max(1, ...shown.map(([, n]) => n));
  shown.forEach(([name, n], index) => {
    const angle = -Math.PI / 2 + (index * 2 * Math.PI) / shown.length;
    const cos = Math.cos(angle);
    const sin = Math.sin(angle);
    const nx = cx + ring * cos;
    const ny = cy + ring * sin;
    const radius = 22 + (maxR - 22) * Math.sqrt(n / max);
    svg.line(cx, cy, nx, ny, look.rule, 3);
    svg.circle(nx, ny, radius, look.accent, { opacity: 0.9 });
    const size = Math.round(Math.min(28, radius * 0.8));
    svg.text(nx, ny + size * 0.36, String(n), { size, bold: true, fill: look.onAccent, anchor: 'middle' }, radius * 1.7);
    const style = { size: 20, bold: true, fill: look.fg, minSize: 13 };
    if (Math.abs(cos) < 0.35) {
      svg.text(nx, sin < 0 ? ny - radius - 12 : ny + radius + 26, name, { ...style, anchor: 'middle' }, 2 * labelW);
    } else {
      svg.text(nx + (radius + 12) * Math.sign(cos), ny + 7, name, { ...style, anchor: cos > 0 ? 'start' : 'end' }, labelW);
    }
  });
  svg.circle(cx, cy, hub, look.fg);
  svg.text(
    cx,
    cy + 8,
    String(content.items.length),
    { size: Math.round(hub * 0.7), bold: true, fill: look.bg, anchor: 'middle' },
    hub * 1.6,
  );
  svg.text(cx, cy + hub * 0.55, 'items', { size: Math.round(Math.min(20, hub * 0.24)), fill: look.bg, anchor: 'middle' });
  return miniList(svg, look, content, { x: box.x, y: box.y + hubH, w: box.w, h: listH }, 'Key dates');
}

export function heatmap(svg: Svg, look: Look, content: Content, box: Box): number {
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
  return miniList(svg, look, content, { x: box.x, y: top, w: box.w, h: box.y + box.h - top }, 'Key dates');
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

export function pins(svg: Svg, look: Look, content: Content, box: Box): number {
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
    const name = pin.name;
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
  return miniList(svg, look, content, { x: box.x, y: box.y + mapH + 30, w: box.w, h: box.h - mapH - 30 }, 'Key dates');
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
