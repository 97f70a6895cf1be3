/**
 * Where the map's pin labels go: each is tried against every pin, every text already on the map (grid degrees,
 * earlier labels) and every leader line, beside, below, above and diagonally off its pin, then shifted along
 * that side, then further out on a leader line; each of the label's forms in turn (the caller's order: whole,
 * then with the name on two lines, and only then without its second line, "4 high impact"). Labels that find
 * no room are placed first on another try.
 */

export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface Circle {
  x: number;
  y: number;
  radius: number;
}

export interface LabelSpot {
  rect: Rect;
  anchor: 'start' | 'middle' | 'end';
  /** The x the text is drawn at for `anchor`. */
  textX: number;
  /** Where the leader line meets the label, when the label sits away from its pin. */
  leader?: { x: number; y: number };
}

/** Clear space kept between a label and anything else. */
const MARGIN = 4;

export function rectsOverlap(a: Rect, b: Rect, margin = MARGIN): boolean {
  return a.x < b.x + b.w + margin && b.x < a.x + a.w + margin && a.y < b.y + b.h + margin && b.y < a.y + a.h + margin;
}

export function rectHitsCircle(rect: Rect, circle: Circle, margin = MARGIN): boolean {
  const nx = Math.min(Math.max(circle.x, rect.x), rect.x + rect.w);
  const ny = Math.min(Math.max(circle.y, rect.y), rect.y + rect.h);
  return Math.hypot(circle.x - nx, circle.y - ny) < circle.radius + margin;
}

function inside(rect: Rect, frame: Rect): boolean {
  return rect.x >= frame.x && rect.y >= frame.y && rect.x + rect.w <= frame.x + frame.w && rect.y + rect.h <= frame.y + frame.h;
}

function spot(rect: Rect, anchor: LabelSpot['anchor']): LabelSpot {
  const textX = anchor === 'start' ? rect.x : anchor === 'end' ? rect.x + rect.w : rect.x + rect.w / 2;
  return { rect, anchor, textX };
}

/** Spots touching the pin: right, left, below, above, then the four diagonals; then each side shifted along. */
function nearSpots(pin: Circle, w: number, h: number): LabelSpot[] {
  const gap = 8;
  const d = pin.radius * Math.SQRT1_2 + gap / 2;
  const right = (dy: number): LabelSpot => spot({ x: pin.x + pin.radius + gap, y: pin.y - h / 2 + dy, w, h }, 'start');
  const left = (dy: number): LabelSpot => spot({ x: pin.x - pin.radius - gap - w, y: pin.y - h / 2 + dy, w, h }, 'end');
  const below = (dx: number): LabelSpot => spot({ x: pin.x - w / 2 + dx, y: pin.y + pin.radius + gap / 2, w, h }, 'middle');
  const above = (dx: number): LabelSpot => spot({ x: pin.x - w / 2 + dx, y: pin.y - pin.radius - gap / 2 - h, w, h }, 'middle');
  const spots = [
    right(0),
    left(0),
    below(0),
    above(0),
    spot({ x: pin.x + d, y: pin.y - d - h, w, h }, 'start'),
    spot({ x: pin.x + d, y: pin.y + d, w, h }, 'start'),
    spot({ x: pin.x - d - w, y: pin.y - d - h, w, h }, 'end'),
    spot({ x: pin.x - d - w, y: pin.y + d, w, h }, 'end'),
  ];
  const step = 10;
  for (let shift = step; shift <= Math.max(h, w / 2) + pin.radius; shift += step) {
    for (const sign of [-1, 1]) {
      if (shift <= h / 2 + pin.radius) spots.push(right(sign * shift), left(sign * shift));
      if (shift <= w / 2 + pin.radius) spots.push(below(sign * shift), above(sign * shift));
    }
  }
  return spots;
}

/** Spots further out in every direction, nearest first, each reached by a leader line from the pin. */
function farSpots(pin: Circle, w: number, h: number): LabelSpot[] {
  const spots: LabelSpot[] = [];
  for (let distance = pin.radius + 30; distance <= pin.radius + 190; distance += 16) {
    for (let step = 0; step < 24; step++) {
      const angle = (step * Math.PI) / 12;
      const cos = Math.cos(angle);
      const sin = Math.sin(angle);
      // The label's edge nearest the pin sits `distance` away from it.
      const x = cos > 0.3 ? pin.x + distance * cos : cos < -0.3 ? pin.x + distance * cos - w : pin.x + distance * cos - w / 2;
      const y = sin > 0.3 ? pin.y + distance * sin : sin < -0.3 ? pin.y + distance * sin - h : pin.y + distance * sin - h / 2;
      const found = spot({ x, y, w, h }, cos > 0.3 ? 'start' : cos < -0.3 ? 'end' : 'middle');
      const leaderX = Math.min(Math.max(pin.x, x), x + w);
      const leaderY = Math.min(Math.max(pin.y, y), y + h);
      spots.push({ ...found, leader: { x: leaderX, y: leaderY } });
    }
  }
  return spots;
}

export class LabelPlacer {
  private readonly rects: Rect[] = [];

  constructor(
    private readonly frame: Rect,
    private readonly pins: readonly Circle[],
  ) {}

  /** Marks text drawn elsewhere on the map (grid degrees, notes) as taken. */
  take(rect: Rect): void {
    this.rects.push(rect);
  }

  isFree(rect: Rect, own?: Circle): boolean {
    return (
      inside(rect, this.frame) &&
      !this.rects.some((other) => rectsOverlap(rect, other)) &&
      !this.pins.some((pin) => rectHitsCircle(rect, pin, pin === own ? MARGIN : MARGIN + 2))
    );
  }

  /** Later labels keep off a leader line: it is taken as a chain of small boxes. */
  private takeLine(pin: Circle, to: { x: number; y: number }): void {
    const length = Math.hypot(to.x - pin.x, to.y - pin.y);
    for (let t = pin.radius; t < length; t += 6) {
      const x = pin.x + ((to.x - pin.x) * t) / length;
      const y = pin.y + ((to.y - pin.y) * t) / length;
      this.rects.push({ x: x - 3, y: y - 3, w: 6, h: 6 });
    }
  }

  /** A leader line from the pin's edge must cross no other pin and no text. */
  private leaderClear(pin: Circle, to: { x: number; y: number }): boolean {
    const length = Math.hypot(to.x - pin.x, to.y - pin.y);
    for (let t = pin.radius + 2; t < length - 2; t += 4) {
      const x = pin.x + ((to.x - pin.x) * t) / length;
      const y = pin.y + ((to.y - pin.y) * t) / length;
      const dot = { x: x - 1, y: y - 1, w: 2, h: 2 };
      if (this.rects.some((other) => rectsOverlap(dot, other, 2))) return false;
      if (this.pins.some((other) => other !== pin && rectHitsCircle(dot, other, 2))) return false;
    }
    return true;
  }

  /**
   * The first free spot for each form in turn, near the pin before far from it; null when there is none. The
   * spot found is taken.
   */
  place(pin: Circle, forms: ReadonlyArray<{ w: number; h: number }>): Placed | null {
    for (let form = 0; form < forms.length; form++) {
      const { w, h } = forms[form]!;
      const found =
        nearSpots(pin, w, h).find((candidate) => this.isFree(candidate.rect, pin)) ??
        farSpots(pin, w, h).find((candidate) => this.isFree(candidate.rect, pin) && this.leaderClear(pin, candidate.leader!));
      if (found) {
        this.rects.push(found.rect);
        if (found.leader) this.takeLine(pin, found.leader);
        return { spot: found, form };
      }
    }
    return null;
  }
}

export interface Placed {
  spot: LabelSpot;
  /** Index of the form used. */
  form: number;
}

/**
 * Labels for every pin, each in the first of its `forms` ({w, h}) that finds a free spot; null for a pin none
 * of whose forms fits anywhere. Tries again with the pins that failed or lost their second line placed first,
 * and keeps the best try.
 */
export function placeLabels(
  frame: Rect,
  pins: readonly Circle[],
  taken: readonly Rect[],
  forms: ReadonlyArray<ReadonlyArray<{ w: number; h: number }>>,
): Array<Placed | null> {
  let order = pins.map((_, index) => index);
  let best: Array<Placed | null> = [];
  let bestScore = Number.POSITIVE_INFINITY;
  for (let attempt = 0; attempt < 6; attempt++) {
    const placer = new LabelPlacer(frame, pins);
    for (const rect of taken) placer.take(rect);
    const result: Array<Placed | null> = pins.map(() => null);
    for (const index of order) {
      result[index] = placer.place(pins[index]!, forms[index]!);
    }
    // Fewest pins without a label, then the smallest of them (pins come biggest first), then fewest shortened.
    const score = result.reduce((sum, placed, index) => sum + (placed ? placed.form : 100_000 + 100 * (pins.length - index)), 0);
    if (score < bestScore) {
      best = result;
      bestScore = score;
    }
    if (score === 0) break;
    const first = order.filter((index) => !result[index]).concat(order.filter((index) => (result[index]?.form ?? 0) > 0));
    const next = [...first, ...order.filter((index) => !first.includes(index))];
    if (next.every((index, position) => index === order[position])) break;
    order = next;
  }
  return best;
}
