/**
 * A small SVG builder for the image renderers: shapes, and text that is measured with the bundled fonts'
 * metrics (fontkit) so it can be wrapped and truncated to a box, since SVG does not wrap. Rasterised with
 * @resvg/resvg-js using only the bundled font files (system fonts off).
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

  /** Width in px of a single line of text. */
  measure(text: string, size: number, bold = false, letterSpacing = 0): number {
    const primary = bold ? this.fonts.primary.bold : this.fonts.primary.regular;
    const fallback = this.fonts.fallback ? (bold ? this.fonts.fallback.bold : this.fonts.fallback.regular) : null;
    let width = 0;
    let count = 0;
    for (const char of text) {
      const cp = char.codePointAt(0) ?? 32;
      const file = hasGlyph(primary, cp) || !fallback ? primary : fallback;
      width += advance(file, cp);
      count++;
    }
    return width * size + Math.max(0, count - 1) * letterSpacing;
  }

  /** Lines of `text` that fit `maxWidth`; at most `maxLines`, the last one ending in an ellipsis when cut. */
  wrap(text: string, size: number, maxWidth: number, maxLines: number, bold = false, letterSpacing = 0): string[] {
    const tokens = tokenize(text.replace(/\s+/g, ' ').trim());
    const lines: string[] = [];
    let line = '';
    const fits = (candidate: string): boolean => this.measure(candidate, size, bold, letterSpacing) <= maxWidth;
    for (const token of tokens) {
      const candidate = line ? `${line}${token}` : token.trimStart();
      if (fits(candidate.trimEnd())) {
        line = candidate;
        continue;
      }
      if (line.trim()) lines.push(line.trimEnd());
      line = token.trimStart();
      // A token longer than the line: break it by characters.
      while (!fits(line) && [...line].length > 1) {
        const chars = [...line];
        let cut = chars.length - 1;
        while (cut > 1 && !fits(chars.slice(0, cut).join(''))) cut--;
        lines.push(chars.slice(0, cut).join(''));
        line = chars.slice(cut).join('');
      }
      if (lines.length > maxLines) break;
    }
    if (line.trim()) lines.push(line.trimEnd());
    if (lines.length <= maxLines) return lines;
    const kept = lines.slice(0, maxLines);
    kept[maxLines - 1] = this.ellipsize(`${kept[maxLines - 1]} ${lines[maxLines]}`, size, maxWidth, bold, letterSpacing, true);
    return kept;
  }

  /** Cuts a single line to `maxWidth` with an ellipsis. `force` adds the ellipsis even when it fits. */
  ellipsize(text: string, size: number, maxWidth: number, bold = false, letterSpacing = 0, force = false): string {
    if (!force && this.measure(text, size, bold, letterSpacing) <= maxWidth) return text;
    const chars = [...text];
    let end = chars.length;
    while (end > 0) {
      const candidate = `${chars
        .slice(0, end)
        .join('')
        .replace(/[\s,;:.\-–—(]+$/u, '')}…`;
      if (this.measure(candidate, size, bold, letterSpacing) <= maxWidth) return candidate;
      end--;
    }
    return '…';
  }

  /** One line of text, cut to `maxWidth` when given. */
  text(x: number, y: number, text: string, style: TextStyle, maxWidth?: number): void {
    let content = style.upper ? text.toUpperCase() : text;
    if (maxWidth !== undefined) content = this.ellipsize(content, style.size, maxWidth, style.bold, style.letterSpacing ?? 0);
    this.parts.push(`<text ${this.textAttrs(x, y, style)}>${escapeXml(content)}</text>`);
  }

  /** Wrapped text from baseline `y`; returns the height used (lines × line height). */
  paragraph(x: number, y: number, text: string, style: TextStyle & { maxWidth: number; maxLines: number; lineHeight?: number }): number {
    const content = style.upper ? text.toUpperCase() : text;
    const lines = this.wrap(content, style.size, style.maxWidth, style.maxLines, style.bold, style.letterSpacing ?? 0);
    if (lines.length === 0) return 0;
    const lineHeight = style.lineHeight ?? Math.round(style.size * 1.3);
    const spans = lines.map((line, index) => `<tspan x="${r(x)}" y="${r(y + index * lineHeight)}">${escapeXml(line)}</tspan>`).join('');
    this.parts.push(`<text ${this.textAttrs(x, y, style)}>${spans}</text>`);
    return lines.length * lineHeight;
  }

  /** Number of lines the text would take (capped at maxLines). */
  lineCount(text: string, size: number, maxWidth: number, maxLines: number, bold = false): number {
    return this.wrap(text, size, maxWidth, maxLines, bold).length;
  }

  private textAttrs(x: number, y: number, style: TextStyle): string {
    return [
      `x="${r(x)}" y="${r(y)}"`,
      `font-family="${escapeXml(this.family)}"`,
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

/** Words with their following space; each CJK character is a token of its own. */
function tokenize(text: string): string[] {
  const tokens: string[] = [];
  let current = '';
  for (const char of text) {
    if (char === ' ') {
      current += char;
      tokens.push(current);
      current = '';
    } else if (CJK_CHAR.test(char)) {
      if (current) tokens.push(current);
      tokens.push(char);
      current = '';
    } else {
      current += char;
    }
  }
  if (current) tokens.push(current);
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
