/**
 * A small SVG builder for the image renderers: shapes, and text that is measured with the bundled fonts'
 * metrics (fontkit) so it can be wrapped and set smaller to fit a box, never cut, since SVG does not wrap.
 * Rasterised with @resvg/resvg-js using only the bundled font files (system fonts off).
 */
import { renderAsync } from '@resvg/resvg-js';
import { type BundledFont, hasGlyph, openFont } from './fonts';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for SVG/XML content and attribute values; drops characters XML 1.0 forbids. */
export function escapeXml(value: string | number | null | undefined): string {
  return String(value ?? '')
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '')
    .replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char);
}

export interface TextStyle {
  size: number;
  bold?: boolean;
  fill: string;
  anchor?: 'start' | 'middle' | 'end';
  letterSpacing?: number;
  upper?: boolean;
  opacity?: number;
  /** Smallest size `text` may shrink to when given a maxWidth. */
  minSize?: number;
}

export interface FitStyle {
  size: number;
  /** Smallest size to shrink to (default: `size`, no shrinking). */
  minSize?: number;
  maxWidth: number;
  maxLines?: number;
  bold?: boolean;
  letterSpacing?: number;
}

export interface Fitted {
  size: number;
  lines: string[];
  fits: boolean;
}

export interface SvgFonts {
  primary: BundledFont;
  fallback: BundledFont | null;
}

const advanceCache = new Map<string, Map<number, number>>();

function advance(file: string, codePoint: number): number {
  let cache = advanceCache.get(file);
  if (!cache) {
    cache = new Map();
    advanceCache.set(file, cache);
  }
  let value = cache.get(codePoint);
  if (value === undefined) {
    const font = openFont(file);
    value = glyphAdvance(font, codePoint) / font.unitsPerEm;
    cache.set(codePoint, value);
  }
  return value;
}

interface HorizontalMetrics {
  metrics: { length: number; get(index: number): { advance: number } | undefined };
}

/**
 * Advance width in font units, read from `hmtx` (fontkit's glyph.advanceWidth also decodes the outline, and
 * throws on some empty glyphs, e.g. the space of IBM Plex Mono). Glyphs past the last long metric share it.
 */
function glyphAdvance(font: ReturnType<typeof openFont>, codePoint: number): number {
  const id = font.glyphForCodePoint(codePoint).id;
  try {
    const hmtx = (font as unknown as { hmtx?: HorizontalMetrics }).hmtx;
    if (hmtx && hmtx.metrics.length > 0) {
      const entry = hmtx.metrics.get(Math.min(id, hmtx.metrics.length - 1));
      if (entry) return entry.advance;
    }
  } catch {
    // fall through
  }
  try {
    return font.getGlyph(id).advanceWidth;
  } catch {
    return font.unitsPerEm / 2;
  }
}

/** Characters after which a line may break without a space (CJK ideographs, kana, fullwidth forms). */
const CJK_CHAR = /[\u2E80-\u9FFF\uAC00-\uD7AF\uF900-\uFAFF\uFF00-\uFFEF\u3000-\u303F]/u;

export class Svg {
  private readonly parts: string[] = [];

  constructor(
    readonly width: number,
    readonly height: number,
    readonly fonts: SvgFonts,
  ) {}

  get family(): string {
    const families = [this.fonts.primary.family, this.fonts.fallback?.family].filter((family): family is string => !!family);
    return families.map((family) => `'${family}'`).join(', ');
  }

  /** The font-family list for an element holding `content` (see fileFor). */
  familyFor(content: string): string {
    if (!this.fonts.fallback || !this.needsFallback(content)) return this.family;
    return [this.fonts.fallback.family, this.fonts.primary.family].map((family) => `'${family}'`).join(', ');
  }

  raw(markup: string): void {
    this.parts.push(markup);
  }

  rect(
    x: number,
    y: number,
    w: number,
    h: number,
    fill: string,
    options: { rx?: number; opacity?: number; stroke?: string; strokeWidth?: number } = {},
  ): void {
    if (w <= 0 || h <= 0) return;
    const attrs = [
      `x="${r(x)}" y="${r(y)}" width="${r(w)}" height="${r(h)}"`,
      `fill="${escapeXml(fill)}"`,
      options.rx ? `rx="${r(options.rx)}"` : '',
      options.opacity !== undefined ? `fill-opacity="${options.opacity}"` : '',
      options.stroke ? `stroke="${escapeXml(options.stroke)}" stroke-width="${options.strokeWidth ?? 1}"` : '',
    ];
    this.parts.push(`<rect ${attrs.filter(Boolean).join(' ')}/>`);
  }

  circle(
    cx: number,
    cy: number,
    radius: number,
    fill: string,
    options: { opacity?: number; stroke?: string; strokeWidth?: number } = {},
  ): void {
    const attrs = [
      `cx="${r(cx)}" cy="${r(cy)}" r="${r(radius)}" fill="${escapeXml(fill)}"`,
      options.opacity !== undefined ? `fill-opacity="${options.opacity}"` : '',
      options.stroke ? `stroke="${escapeXml(options.stroke)}" stroke-width="${options.strokeWidth ?? 1}"` : '',
    ];
    this.parts.push(`<circle ${attrs.filter(Boolean).join(' ')}/>`);
  }

  line(x1: number, y1: number, x2: number, y2: number, stroke: string, width = 1, options: { dash?: string; opacity?: number } = {}): void {
    const attrs = [
      `x1="${r(x1)}" y1="${r(y1)}" x2="${r(x2)}" y2="${r(y2)}" stroke="${escapeXml(stroke)}" stroke-width="${width}"`,
      options.dash ? `stroke-dasharray="${options.dash}"` : '',
      options.opacity !== undefined ? `stroke-opacity="${options.opacity}"` : '',
    ];
    this.parts.push(`<line ${attrs.filter(Boolean).join(' ')}/>`);
  }

  /**
   * The font file a text element is set in. resvg sets a whole element in one family: when the primary lacks a
   * glyph of the text, it falls back to the CJK family for all of it (Latin letters included, which are wider
   * there) and ignores the weight unless that family is listed first. So such text lists the fallback first
   * (textAttrs) and is measured in it.
   */
  private fileFor(text: string, bold: boolean): string {
    const primary = bold ? this.fonts.primary.bold : this.fonts.primary.regular;
    const fallback = this.fonts.fallback ? (bold ? this.fonts.fallback.bold : this.fonts.fallback.regular) : null;
    return fallback && this.needsFallback(text) ? fallback : primary;
  }

  private needsFallback(text: string): boolean {
    if (!this.fonts.fallback) return false;
    for (const char of text) {
      const cp = char.codePointAt(0) ?? 32;
      if (cp > 0x20 && !hasGlyph(this.fonts.primary.regular, cp)) return true;
    }
    return false;
  }

  /** Width in px of a single line of text, as set in the element `whole` (defaults to the line itself). */
  measure(text: string, size: number, bold = false, letterSpacing = 0, whole = text): number {
    const file = this.fileFor(whole, bold);
    let width = 0;
    let count = 0;
    for (const char of text) {
      width += advance(file, char.codePointAt(0) ?? 32);
      count++;
    }
    return width * size + count * letterSpacing;
  }

  /**
   * Every line of `text` wrapped to `maxWidth`, nothing cut. Lines break at spaces and between CJK characters
   * (not before closing or after opening punctuation); a word wider than the line is broken by characters, and
   * `broken` says so.
   */
  wrap(text: string, size: number, maxWidth: number, bold = false, letterSpacing = 0): { lines: string[]; broken: boolean } {
    // Only ordinary white space breaks: a no-break space (U+00A0) holds "1 Dec 2026" together.
    const clean = text.replace(/[ \t\n\r\f\v]+/g, ' ').trim();
    const tokens = tokenize(clean);
    const lines: string[] = [];
    let line = '';
    let broken = false;
    const fits = (candidate: string): boolean => this.measure(candidate, size, bold, letterSpacing, clean) <= maxWidth;
    for (const token of tokens) {
      const candidate = line ? `${line}${token}` : token.trimStart();
      if (fits(candidate.trimEnd())) {
        line = candidate;
        continue;
      }
      if (line.trim()) lines.push(line.trimEnd());
      line = token.trimStart();
      while (!fits(line.trimEnd()) && [...line.trimEnd()].length > 1) {
        broken = true;
        const chars = [...line];
        let cut = chars.length - 1;
        while (cut > 1 && !fits(chars.slice(0, cut).join(''))) cut--;
        lines.push(chars.slice(0, cut).join(''));
        line = chars.slice(cut).join('');
      }
    }
    if (line.trim()) lines.push(line.trimEnd());
    return { lines, broken };
  }

  /**
   * `text` wrapped to `maxWidth` in at most `maxLines` lines at the largest size from `size` down to `minSize`
   * that needs no word broken. `fits` is false when even `minSize` needs more lines (all of them are returned).
   */
  fit(text: string, style: FitStyle): Fitted {
    const minSize = Math.min(style.size, style.minSize ?? style.size);
    const maxLines = style.maxLines ?? Number.POSITIVE_INFINITY;
    for (let size = style.size; size >= minSize; size -= size > 24 ? 2 : 1) {
      const { lines, broken } = this.wrap(text, size, style.maxWidth, style.bold, style.letterSpacing ?? 0);
      if (lines.length <= maxLines && !broken) return { size, lines, fits: true };
    }
    const { lines } = this.wrap(text, minSize, style.maxWidth, style.bold, style.letterSpacing ?? 0);
    return { size: minSize, lines, fits: lines.length <= maxLines };
  }

  /**
   * One line of text. With `maxWidth`, text that is too wide is set smaller (down to `style.minSize`, by default
   * 70% of the size); it is never cut. Returns the size used.
   */
  text(x: number, y: number, text: string, style: TextStyle, maxWidth?: number): number {
    const content = style.upper ? text.toUpperCase() : text;
    let size = style.size;
    if (maxWidth !== undefined) {
      const floor = style.minSize ?? Math.max(9, Math.round(style.size * 0.7));
      while (size > floor && this.measure(content, size, style.bold, style.letterSpacing ?? 0) > maxWidth) size -= size > 24 ? 2 : 1;
    }
    this.parts.push(`<text ${this.textAttrs(x, y, { ...style, size }, content)}>${escapeXml(content)}</text>`);
    return size;
  }

  /**
   * Wrapped text from baseline `y`, fitted as `fit` does (never cut); returns the height used (lines × line
   * height, where the line height scales with the size chosen).
   */
  paragraph(x: number, y: number, text: string, style: TextStyle & FitStyle & { lineHeight?: number }): number {
    const content = style.upper ? text.toUpperCase() : text;
    const fitted = this.fit(content, style);
    if (fitted.lines.length === 0) return 0;
    const lineHeight = Math.round((style.lineHeight ?? style.size * 1.3) * (fitted.size / style.size));
    this.lines(x, y, fitted.lines, { ...style, size: fitted.size }, lineHeight);
    return fitted.lines.length * lineHeight;
  }

  /** Pre-wrapped lines as one text element, first baseline at `y`. */
  lines(x: number, y: number, lines: readonly string[], style: TextStyle, lineHeight: number): void {
    if (lines.length === 0) return;
    const spans = lines.map((line, index) => `<tspan x="${r(x)}" y="${r(y + index * lineHeight)}">${escapeXml(line)}</tspan>`).join('');
    this.parts.push(`<text ${this.textAttrs(x, y, style, lines.join(' '))}>${spans}</text>`);
  }

  private textAttrs(x: number, y: number, style: TextStyle, content: string): string {
    return [
      `x="${r(x)}" y="${r(y)}"`,
      `font-family="${escapeXml(this.familyFor(content))}"`,
      `font-size="${style.size}"`,
      `font-weight="${style.bold ? 700 : 400}"`,
      `fill="${escapeXml(style.fill)}"`,
      style.anchor && style.anchor !== 'start' ? `text-anchor="${style.anchor}"` : '',
      style.letterSpacing ? `letter-spacing="${style.letterSpacing}"` : '',
      style.opacity !== undefined ? `fill-opacity="${style.opacity}"` : '',
    ]
      .filter(Boolean)
      .join(' ');
  }

  toString(): string {
    return `<svg xmlns="http://www.w3.org/2000/svg" width="${this.width}" height="${this.height}" viewBox="0 0 ${this.width} ${this.height}">${this.parts.join('')}</svg>`;
  }

  /** PNG bytes at the SVG's own size, drawn with the bundled fonts only. */
  async toPng(): Promise<Buffer> {
    const files = [this.fonts.primary.regular, this.fonts.primary.bold];
    if (this.fonts.fallback) files.push(this.fonts.fallback.regular, this.fonts.fallback.bold);
    const image = await renderAsync(this.toString(), {
      fitTo: { mode: 'original' },
      font: {
        loadSystemFonts: false,
        fontFiles: files,
        defaultFontFamily: this.fonts.primary.family,
        sansSerifFamily: this.fonts.primary.family,
        serifFamily: this.fonts.primary.family,
        monospaceFamily: this.fonts.primary.family,
      },
      shapeRendering: 2,
      textRendering: 1,
      logLevel: 'off',
    });
    return image.asPng();
  }
}

/** Characters a line must not start with (closing punctuation), and must not end with (opening). */
const NO_START = /^[、。，．,.:;!?！？：；）)」』】〕〉》”’・ー～ゝゞヽヾぁぃぅぇぉっゃゅょァィゥェォッャュョ…]/u;
const NO_END = /[（(「『【〔〈《“‘]$/u;

/** Words with their following space; each CJK character is a token of its own, kept with adjoining punctuation. */
function tokenize(text: string): string[] {
  const raw: string[] = [];
  let current = '';
  for (const char of text) {
    if (char === ' ') {
      current += char;
      raw.push(current);
      current = '';
    } else if (CJK_CHAR.test(char)) {
      if (current) raw.push(current);
      raw.push(char);
      current = '';
    } else {
      current += char;
    }
  }
  if (current) raw.push(current);
  const tokens: string[] = [];
  for (const token of raw) {
    const last = tokens.at(-1);
    if (last !== undefined && ((NO_START.test(token) && !last.endsWith(' ')) || NO_END.test(last)))
      tokens[tokens.length - 1] = last + token;
    else tokens.push(token);
  }
  return tokens;
}

function r(value: number): string {
  return String(Math.round(value * 10) / 10);
}

/** Mixes two #RRGGBB colours; `amount` 0 gives `a`, 1 gives `b`. */
export function mix(a: string, b: string, amount: number): string {
  const pa = parseHex(a);
  const pb = parseHex(b);
  const channel = (i: number): string =>
    Math.round(pa[i]! + (pb[i]! - pa[i]!) * amount)
      .toString(16)
      .padStart(2, '0');
  return `#${channel(0)}${channel(1)}${channel(2)}`.toUpperCase();
}

function parseHex(hex: string): number[] {
  const m = /^#?([0-9a-f]{6})$/i.exec(hex);
  const value = m ? parseInt(m[1]!, 16) : 0;
  return [(value >> 16) & 255, (value >> 8) & 255, value & 255];
}

export function isDark(hex: string): boolean {
  const [red, green, blue] = parseHex(hex);
  return 0.2126 * red! + 0.7152 * green! + 0.0722 * blue! < 128;
}
