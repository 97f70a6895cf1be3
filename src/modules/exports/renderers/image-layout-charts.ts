/** Image bodies that chart the items: timeline, radial hub, heat map, map pins, stage lanes. */
import { CONFIDENCE_LABELS, IMPACT_LABELS, IMPACTS, label, STAGE_LABELS } from './item-labels';
import { countBy } from './item-grouping';
import { formatDate } from './render-dates';
import { Svg } from './svg';
import { type Look, type Box, type Content, moreNote, jurisdictionCounts, miniList } from './image-layout-parts';

export function timeline(svg: Svg, look: Look, content: Content, box: Box): void {
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

export function radial(svg: Svg, look: Look, content: Content, box: Box): void {
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

export function heatmap(svg: Svg, look: Look, content: Content, box: Box): void {
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

export function pins(svg: Svg, look: Look, content: Content, box: Box): void {
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

export function lanes(svg: Svg, look: Look, content: Content, box: Box): void {
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
