/**
 * Bundled fonts for the renderers, resolved from node_modules (no system fonts, nothing fetched at run time):
 *
 * | key   | family (name table)   | package                            | used for                                  |
 * | ----- | --------------------- | ---------------------------------- | ----------------------------------------- |
 * | sans  | Source Sans 3         | @expo-google-fonts/source-sans-3   | Latin, Greek, Cyrillic text (default)     |
 * | serif | Source Serif 4        | @expo-google-fonts/source-serif-4  | image styles with a serif typeface        |
 * | mono  | IBM Plex Mono         | @expo-google-fonts/ibm-plex-mono   | image styles with a mono typeface         |
 * | sc    | Noto Sans S Chinese   | @embedpdf/fonts-sc (Noto Sans CJK) | Simplified Chinese (also covers kana)     |
 * | jp    | Noto Sans Japanese    | @embedpdf/fonts-jp (Noto Sans CJK) | Japanese                                  |
 *
 * Each has a regular (400) and a bold (700) file. PDFs cannot fall back glyph by glyph, so a document uses one
 * family throughout: the Latin family when it has a glyph for every character of the document, else the CJK
 * family that covers the text (preferring SC for `zh`, JP for `ja`, JP when the text has kana). The CJK
 * families include Latin glyphs, so English labels render in the same face.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as fontkit from 'fontkit';

export type FontKey = 'sans' | 'serif' | 'mono' | 'sc' | 'jp' | 'arimo';
export type Typeface = 'sans' | 'serif' | 'mono';

export interface BundledFont {
  key: FontKey;
  /** Family name as in the font's name table (what resvg / an installed copy of the file answers to). */
  family: string;
  /** Absolute paths. */
  regular: string;
  bold: string;
  /** BCP 47 tag for the script the font is drawn for (PPTX `lang`, HTML `lang`), if not Latin. */
  lang?: string;
}

interface FontSpec {
  pkg: string;
  family: string;
  regular: string;
  bold: string;
  lang?: string;
}

const SPECS: Readonly<Record<FontKey, FontSpec>> = {
  sans: {
    pkg: '@expo-google-fonts/source-sans-3',
    family: 'Source Sans 3',
    regular: '400Regular/SourceSans3_400Regular.ttf',
    bold: '700Bold/SourceSans3_700Bold.ttf',
  },
  serif: {
    pkg: '@expo-google-fonts/source-serif-4',
    family: 'Source Serif 4',
    regular: '400Regular/SourceSerif4_400Regular.ttf',
    bold: '700Bold/SourceSerif4_700Bold.ttf',
  },
  mono: {
    pkg: '@expo-google-fonts/ibm-plex-mono',
    family: 'IBM Plex Mono',
    regular: '400Regular/IBMPlexMono_400Regular.ttf',
    bold: '700Bold/IBMPlexMono_700Bold.ttf',
  },
  // Metric twin of Arial (the face the PPTX deck names): used to measure the deck, never drawn by us.
  arimo: {
    pkg: '@expo-google-fonts/arimo',
    family: 'Arimo',
    regular: '400Regular/Arimo_400Regular.ttf',
    bold: '700Bold/Arimo_700Bold.ttf',
  },
  sc: {
    pkg: '@embedpdf/fonts-sc',
    family: 'Noto Sans S Chinese',
    regular: 'fonts/NotoSansHans-Regular.otf',
    bold: 'fonts/NotoSansHans-Bold.otf',
    lang: 'zh-CN',
  },
  jp: {
    pkg: '@embedpdf/fonts-jp',
    family: 'Noto Sans Japanese',
    regular: 'fonts/NotoSansJP-Regular.otf',
    bold: 'fonts/NotoSansJP-Bold.otf',
    lang: 'ja-JP',
  },
};

const packageDirs = new Map<string, string>();

/** The installed directory of a package, found from its entry point (some packages do not export package.json). */
function packageDir(pkg: string): string {
  const cached = packageDirs.get(pkg);
  if (cached) return cached;
  let dir = path.dirname(require.resolve(pkg));
  for (;;) {
    const manifest = path.join(dir, 'package.json');
    if (fs.existsSync(manifest)) {
      const name = (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { name?: string }).name;
      if (name === pkg) break;
    }
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`Cannot locate the installed package ${pkg}`);
    dir = parent;
  }
  packageDirs.set(pkg, dir);
  return dir;
}

const resolved = new Map<FontKey, BundledFont>();

export function bundledFont(key: FontKey): BundledFont {
  const cached = resolved.get(key);
  if (cached) return cached;
  const spec = SPECS[key];
  const dir = packageDir(spec.pkg);
  const font: BundledFont = { key, family: spec.family, regular: path.join(dir, spec.regular), bold: path.join(dir, spec.bold) };
  if (spec.lang) font.lang = spec.lang;
  for (const file of [font.regular, font.bold]) {
    if (!fs.existsSync(file)) throw new Error(`Bundled font file missing: ${file} (reinstall ${spec.pkg})`);
  }
  resolved.set(key, font);
  return font;
}

const fileBytes = new Map<string, Buffer>();

/** A font file's bytes, read once per process (the CJK files are several megabytes each). */
export function fontFileBytes(file: string): Buffer {
  let bytes = fileBytes.get(file);
  if (!bytes) {
    bytes = fs.readFileSync(file);
    fileBytes.set(file, bytes);
  }
  return bytes;
}

function parseFont(file: string): fontkit.Font {
  const opened = fontkit.create(fontFileBytes(file));
  const font = 'fonts' in opened ? opened.fonts[0] : opened;
  if (!font) throw new Error(`No font in ${file}`);
  return font;
}

const parsed = new Map<string, fontkit.Font>();

/** A parsed font (fontkit), cached per file for the life of the process. */
export function openFont(file: string): fontkit.Font {
  const cached = parsed.get(file);
  if (cached) return cached;
  const font = parseFont(file);
  parsed.set(file, font);
  return font;
}

/**
 * A fontkit font of its own for one PDF document that shares the tables openFont(file) has decoded. Decoding
 * the OpenType tables (GSUB / GPOS above all) was most of the cost of a worker's first PDF, paid again by every
 * document that laid out a word the shared shape cache did not hold. The glyph objects stay per document:
 * fontkit keeps a glyph's code points from its first creation and pdfkit writes them into the text map, so a
 * glyph first created without them (an accent's base in a subset, another renderer's subset) must not leak
 * into later documents. Falls back to a plain parse if fontkit's internals ever change shape.
 */
export function documentFont(file: string): fontkit.Font {
  const font = parseFont(file);
  const shared = openFont(file) as unknown as { _tables?: unknown };
  const own = font as unknown as { _tables?: unknown };
  if (isPlainObject(shared._tables) && isPlainObject(own._tables) && Object.keys(own._tables).length === 0) {
    own._tables = shared._tables;
  }
  return font;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

const glyphCache = new Map<string, Map<number, boolean>>();

/** Whether the font file has a glyph for the code point (cached). */
export function hasGlyph(file: string, codePoint: number): boolean {
  let cache = glyphCache.get(file);
  if (!cache) {
    cache = new Map();
    glyphCache.set(file, cache);
  }
  let known = cache.get(codePoint);
  if (known === undefined) {
    known = openFont(file).hasGlyphForCodePoint(codePoint);
    cache.set(codePoint, known);
  }
  return known;
}

/** Distinct code points of the texts that need a glyph (whitespace and controls excluded). */
export function codePointsOf(texts: Iterable<string>): Set<number> {
  const points = new Set<number>();
  for (const text of texts) {
    for (const char of text) {
      const cp = char.codePointAt(0) ?? 0;
      if (cp <= 0x20 || (cp >= 0x7f && cp <= 0xa0) || cp === 0x200b || cp === 0xfeff) continue;
      points.add(cp);
    }
  }
  return points;
}

const KANA = /[\u3040-\u30ff\u31f0-\u31ff\uff66-\uff9f]/;

/** CJK families to try, best first, for a locale and the text. */
export function cjkPreference(locale: string, texts: readonly string[]): FontKey[] {
  const lang = locale.toLowerCase().slice(0, 2);
  if (lang === 'ja') return ['jp', 'sc'];
  if (lang === 'zh') return ['sc', 'jp'];
  return texts.some((text) => KANA.test(text)) ? ['jp', 'sc'] : ['sc', 'jp'];
}

function missingCount(file: string, points: Set<number>): number {
  let missing = 0;
  for (const cp of points) if (!hasGlyph(file, cp)) missing++;
  return missing;
}

/**
 * The one family a document should be set in: `base` when it covers every character of `texts`, else the CJK
 * family that covers them (or, if none covers all, the one missing the fewest).
 */
export function pickDocumentFont(texts: readonly string[], locale: string, base: Typeface = 'sans'): BundledFont {
  const points = codePointsOf(texts);
  const baseFont = bundledFont(base);
  if (missingCount(baseFont.regular, points) === 0) return baseFont;
  let best: BundledFont = baseFont;
  let bestMissing = Number.POSITIVE_INFINITY;
  for (const key of cjkPreference(locale, texts)) {
    const candidate = bundledFont(key);
    const missing = missingCount(candidate.regular, points);
    if (missing === 0) return candidate;
    if (missing < bestMissing) {
      best = candidate;
      bestMissing = missing;
    }
  }
  return best;
}

/**
 * Fonts to load for an SVG render (resvg falls back glyph by glyph among the loaded fonts): the typeface's
 * family, plus the CJK family when the Latin one does not cover the text.
 */
export function svgFonts(
  texts: readonly string[],
  locale: string,
  typeface: Typeface,
): { primary: BundledFont; fallback: BundledFont | null } {
  const primary = bundledFont(typeface);
  const points = codePointsOf(texts);
  if (missingCount(primary.regular, points) === 0) return { primary, fallback: null };
  const fallback = pickDocumentFont(texts, locale, typeface);
  return { primary, fallback: fallback.key === primary.key ? null : fallback };
}
