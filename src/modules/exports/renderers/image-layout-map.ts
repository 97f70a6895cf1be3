/**
 * The map body: a pin per jurisdiction on a plain lon/lat grid (no map data is drawn), sized by its item
 * count and labelled with its name and high-impact count, then the key dates. Labels never cover other text
 * or pins (image-map-labels.ts).
 */
import { Svg } from './svg';
import { type Look, type Box, type Content, jurisdictionCounts, jurisdictionImpacts, miniList } from './image-layout-parts';
import { type Circle, placeLabels, type Placed, type Rect, rectHitsCircle } from './image-map-labels';

/** Approximate [longitude, latitude] of jurisdictions. */
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

/** More pins than this crowd the map; the rest are counted in a note under it. */
const MAX_PINS = 12;

const NAME = 22;
const SUB = 16;
/** The name's size when space is short. */
const NAME_MIN = 17;
/** Baseline of the high-impact line below the name's last line. */
const SUB_DY = 24;
/** Width a long name wraps to when it does not fit on one line. */
const NAME_WRAP = 220;

interface Pin extends Circle {
  name: string;
  n: number;
}

/** Top of a text box above its baseline, and its depth below, as fractions of the size (as the tests measure). */
const ASCENT = 0.9;
const DESCENT = 0.25;

interface Label {
  lines: string[];
  /** Size and line height of the name. */
  size: number;
  lineHeight: number;
  sub: string;
  w: number;
  h: number;
}

/** Pins, the grid degrees left visible, the labels' forms and where they went, at one pin scale. */
interface Layout {
  pins: Pin[];
  degrees: Array<{ text: string; x: number; y: number }>;
  labels: Label[][];
  placed: Array<Placed | null>;
  dropped: number;
}

export function pins(svg: Svg, look: Look, content: Content, box: Box): number {
  const mapH = Math.min(box.h * 0.58, box.w * 0.62);
  const every = jurisdictionCounts(content);
  const all = every.slice(0, MAX_PINS);
  const projection = project(all, box, mapH);
  const { toX, toY, grid } = projection;
  const high = new Map([...jurisdictionImpacts(content)].map(([name, byImpact]) => [name, byImpact.high]));
  // Smaller pins when the labels do not all find room at full size.
  let layout: Layout | null = null;
  for (const scale of [1, 0.85, 0.7, 0.6]) {
    const candidate = layOut(svg, all, high, projection, { x: box.x, y: box.y, w: box.w, h: mapH }, scale);
    if (!layout || candidate.dropped < layout.dropped) layout = candidate;
    if (candidate.dropped === 0) break;
  }
  const { pins: pinsAt, degrees, labels, placed } = layout!;

  svg.rect(box.x, box.y, box.w, mapH, look.panel, { rx: 12 });
  for (const lon of grid.lons) svg.line(toX(lon), box.y + 8, toX(lon), box.y + mapH - 8, look.rule, 1.2);
  for (const lat of grid.lats) svg.line(box.x + 8, toY(lat), box.x + box.w - 8, toY(lat), look.rule, 1.2);
  for (const degree of degrees) svg.text(degree.x, degree.y, degree.text, { size: 13, fill: look.muted });
  // A pin whose name finds no room anywhere is left off the map and counted in the note under it.
  let left = every.length - all.length;
  pinsAt.forEach((pin, index) => {
    const label = placed[index];
    if (!label) {
      left++;
      return;
    }
    const { spot } = label;
    const form = labels[index]![label.form]!;
    svg.circle(pin.x, pin.y, pin.radius, look.accent, { opacity: 0.95, stroke: look.panel, strokeWidth: 4 });
    const size = Math.round(Math.min(28, pin.radius * 0.75));
    svg.text(pin.x, pin.y + size * 0.36, String(pin.n), { size, bold: true, fill: look.onAccent, anchor: 'middle' });
    if (spot.leader) {
      const length = Math.hypot(spot.leader.x - pin.x, spot.leader.y - pin.y);
      const from = {
        x: pin.x + ((spot.leader.x - pin.x) * pin.radius) / length,
        y: pin.y + ((spot.leader.y - pin.y) * pin.radius) / length,
      };
      svg.line(from.x, from.y, spot.leader.x, spot.leader.y, look.muted, 1.5);
    }
    const baseline = spot.rect.y + ASCENT * form.size;
    svg.lines(spot.textX, baseline, form.lines, { size: form.size, bold: true, fill: look.fg, anchor: spot.anchor }, form.lineHeight);
    const subBaseline = baseline + (form.lines.length - 1) * form.lineHeight + SUB_DY;
    if (form.sub) svg.text(spot.textX, subBaseline, form.sub, { size: SUB, fill: look.muted, anchor: spot.anchor });
  });
  let top = box.y + mapH + 30;
  if (left > 0) {
    const note = `+ ${left} more jurisdiction${left === 1 ? '' : 's'} in the report`;
    svg.text(box.x + box.w, box.y + mapH + 26, note, { size: 16, fill: look.muted, anchor: 'end' }, box.w);
    top += 24;
  }
  return miniList(svg, look, content, { x: box.x, y: top, w: box.w, h: box.y + box.h - top }, 'Key dates');
}

interface Projection {
  inner: Rect;
  toX(lon: number): number;
  toY(lat: number): number;
  grid: { lons: number[]; lats: number[] };
}

/** Frames the known places (same degrees per px on both axes, at least 60° of longitude) and picks grid lines. */
function project(all: Array<[string, number]>, box: Box, mapH: number): Projection {
  const pad = 70;
  const inner = { x: box.x + pad, y: box.y + pad * 0.7, w: box.w - 2 * pad, h: mapH - 1.4 * pad * 0.7 };
  const known = all.map(([name]) => PLACES[name]).filter((place): place is [number, number] => place !== undefined);
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
  const degPerPx = lonSpan / inner.w;
  const step = [5, 10, 15, 30, 45].find((candidate) => candidate / degPerPx >= 90) ?? 60;
  const lons: number[] = [];
  for (let lon = Math.ceil((lonMid - (lonSpan * box.w) / inner.w / 2) / step) * step; toX(lon) < box.x + box.w - 8; lon += step) {
    if (toX(lon) > box.x + 8) lons.push(lon);
  }
  const lats: number[] = [];
  for (let lat = Math.floor((latMid + (latSpan * mapH) / inner.h / 2) / step) * step; toY(lat) < box.y + mapH - 8; lat -= step) {
    if (toY(lat) >= box.y + 24 && Math.abs(lat) <= 90) lats.push(lat);
  }
  return { inner, toX, toY, grid: { lons, lats } };
}

/** Pins at `scale` of their full size, pushed apart, and their labels placed. */
function layOut(
  svg: Svg,
  all: Array<[string, number]>,
  high: Map<string, number>,
  { inner, toX, toY, grid }: Projection,
  map: Rect,
  scale: number,
): Layout {
  const max = Math.max(1, ...all.map(([, n]) => n));
  const pinsAt: Pin[] = all.map(([name, n]) => {
    const place = PLACES[name];
    const radius = (24 + 22 * Math.sqrt(n / max)) * scale;
    return { name, n, x: place ? toX(place[0]) : Number.NaN, y: place ? toY(place[1]) : Number.NaN, radius };
  });
  // Places the map does not know go where there is most room, biggest first: the point of a coarse grid
  // farthest from the pins already there (and from the map's edge), so their labels have room too.
  for (const pin of pinsAt.filter((candidate) => Number.isNaN(candidate.x))) {
    let best = { x: inner.x + inner.w / 2, y: inner.y + inner.h / 2, room: Number.NEGATIVE_INFINITY };
    for (let y = inner.y; y <= inner.y + inner.h; y += 20) {
      for (let x = inner.x; x <= inner.x + inner.w; x += 20) {
        const edge = Math.min(x - map.x, map.x + map.w - x, y - map.y, map.y + map.h - y) - pin.radius;
        const room = pinsAt
          .filter((other) => other !== pin && !Number.isNaN(other.x))
          .reduce((least, other) => Math.min(least, Math.hypot(other.x - x, other.y - y) - other.radius - pin.radius), 2 * edge);
        if (room > best.room) best = { x, y, room };
      }
    }
    pin.x = best.x;
    pin.y = best.y;
  }
  spreadPins(pinsAt, map);

  // The grid degrees are guides only: left out where a pin covers them, and kept clear by the labels.
  const degrees: Layout['degrees'] = [];
  for (const lat of grid.lats) {
    const text = `${Math.abs(lat)}°${lat > 0 ? 'N' : lat < 0 ? 'S' : ''}`;
    const degree = { text, x: map.x + 14, y: toY(lat) - 6 };
    if (!pinsAt.some((pin) => rectHitsCircle(textRect(degree.x, degree.y, svg.measure(text, 13), 13), pin, 2))) degrees.push(degree);
  }
  const taken = degrees.map((degree) => textRect(degree.x, degree.y, svg.measure(degree.text, 13), 13));

  // Each label's forms, best first: name and high-impact count, the same with a long name on two lines, then
  // the name alone (one line, then two), then the name alone set smaller.
  const labels = pinsAt.map((pin): Label[] => {
    const sub = `${high.get(pin.name) ?? 0} high impact`;
    const forms: Label[] = [];
    for (const [size, withSub] of [
      [NAME, true],
      [NAME, false],
      [NAME_MIN, false],
    ] as const) {
      const wrapped = svg.wrap(pin.name, size, NAME_WRAP, true);
      const names = wrapped.lines.length > 1 && !wrapped.broken ? [[pin.name], wrapped.lines] : [[pin.name]];
      for (const lines of names) {
        const lineHeight = Math.round(size * 1.2);
        const nameW = Math.max(...lines.map((line) => svg.measure(line, size, true)));
        const namesH = ASCENT * size + (lines.length - 1) * lineHeight;
        forms.push({
          lines,
          size,
          lineHeight,
          sub: withSub ? sub : '',
          w: Math.ceil(Math.max(nameW, withSub ? svg.measure(sub, SUB) : 0)),
          h: Math.ceil(namesH + (withSub ? SUB_DY + DESCENT * SUB : DESCENT * size)),
        });
      }
    }
    return forms;
  });
  const frame: Rect = { x: map.x + 6, y: map.y + 6, w: map.w - 12, h: map.h - 12 };
  const placed = placeLabels(frame, pinsAt, taken, labels);
  return { pins: pinsAt, degrees, labels, placed, dropped: placed.filter((label) => !label).length };
}

function textRect(x: number, baseline: number, w: number, size: number): Rect {
  return { x, y: baseline - ASCENT * size, w, h: (ASCENT + DESCENT) * size };
}

/** Pushes overlapping pins apart (EU, UK and Switzerland, or Hong Kong and Singapore, sit close together). */
function spreadPins(pins: Pin[], frame: Rect): void {
  for (let round = 0; round < 200; round++) {
    let moved = false;
    for (let i = 0; i < pins.length; i++) {
      for (let j = i + 1; j < pins.length; j++) {
        const a = pins[i]!;
        const b = pins[j]!;
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
    for (const pin of pins) {
      pin.x = Math.min(Math.max(pin.x, frame.x + pin.radius + 8), frame.x + frame.w - pin.radius - 8);
      pin.y = Math.min(Math.max(pin.y, frame.y + pin.radius + 8), frame.y + frame.h - pin.radius - 8);
    }
    if (!moved) break;
  }
}
