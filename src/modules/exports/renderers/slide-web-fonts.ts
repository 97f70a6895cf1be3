/**
 * Fonts embedded in the web slides: each bundled font file the slides use, cut down to the characters the
 * slides contain and inlined as a base64 @font-face, so the page looks the same everywhere without loading
 * anything. Whole files would not do: the CJK families are 8 MB a weight.
 *
 * fontkit cuts the glyph outlines (TrueType `glyf` or CFF) but writes no character map, names or OS/2 metrics
 * (it subsets for PDF, which needs none), so the font file is assembled here around its output: a new `cmap`
 * for the kept characters, `hmtx` / `hhea` / `maxp` for the kept glyphs, and the original `head`, `OS/2` and
 * `name`, with `post` reduced to version 3 (no glyph names). Layout tables (GSUB, GPOS, kern) are left out:
 * the slides are measured without kerning (slide-web-layout.ts), so the browser then sets exactly what was
 * measured.
 */
import { type BundledFont, fontFileBytes, openFont } from './fonts';

interface Table {
  tag: string;
  data: Buffer;
}

function readTables(bytes: Uint8Array): Map<string, Buffer> {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const count = buffer.readUInt16BE(4);
  const tables = new Map<string, Buffer>();
  for (let i = 0; i < count; i++) {
    const at = 12 + i * 16;
    const tag = buffer.toString('latin1', at, at + 4);
    const offset = buffer.readUInt32BE(at + 8);
    const length = buffer.readUInt32BE(at + 12);
    // Views, not copies: the file's bytes are cached for the process (fonts.ts) and only copies are ever written.
    tables.set(tag, buffer.subarray(offset, offset + length));
  }
  return tables;
}

function checksum(data: Buffer): number {
  const padded = Buffer.concat([data, Buffer.alloc((4 - (data.length % 4)) % 4)]);
  let sum = 0;
  for (let i = 0; i < padded.length; i += 4) sum = (sum + padded.readUInt32BE(i)) >>> 0;
  return sum;
}

/** An sfnt file: table directory sorted by tag, tables 4-byte aligned, head.checkSumAdjustment set. */
function writeSfnt(flavor: 'ttf' | 'otf', tables: Table[]): Buffer {
  const sorted = [...tables].sort((a, b) => (a.tag < b.tag ? -1 : 1));
  const n = sorted.length;
  const entrySelector = Math.floor(Math.log2(n));
  const searchRange = 2 ** entrySelector * 16;
  const header = Buffer.alloc(12 + 16 * n);
  header.writeUInt32BE(flavor === 'otf' ? 0x4f54544f : 0x00010000, 0);
  header.writeUInt16BE(n, 4);
  header.writeUInt16BE(searchRange, 6);
  header.writeUInt16BE(entrySelector, 8);
  header.writeUInt16BE(n * 16 - searchRange, 10);
  const bodies: Buffer[] = [];
  let offset = header.length;
  let headOffset = -1;
  sorted.forEach((table, index) => {
    const at = 12 + index * 16;
    header.write(table.tag, at, 'latin1');
    header.writeUInt32BE(checksum(table.data), at + 4);
    header.writeUInt32BE(offset, at + 8);
    header.writeUInt32BE(table.data.length, at + 12);
    if (table.tag === 'head') headOffset = offset;
    const padded = Buffer.concat([table.data, Buffer.alloc((4 - (table.data.length % 4)) % 4)]);
    bodies.push(padded);
    offset += padded.length;
  });
  const file = Buffer.concat([header, ...bodies]);
  if (headOffset >= 0) file.writeUInt32BE((0xb1b0afba - checksum(file)) >>> 0, headOffset + 8);
  return file;
}

/** cmap with a format 4 subtable (BMP) and a format 12 one (all), both Windows Unicode. */
function cmapTable(pairs: Array<[codePoint: number, glyph: number]>): Buffer {
  const sorted = [...pairs].sort((a, b) => a[0] - b[0]);
  // Runs of consecutive code points mapped to consecutive glyphs share one segment (one idDelta).
  const runs: Array<{ start: number; end: number; glyph: number }> = [];
  for (const [cp, glyph] of sorted) {
    const last = runs[runs.length - 1];
    if (last && cp === last.end + 1 && glyph === last.glyph + (cp - last.start)) last.end = cp;
    else runs.push({ start: cp, end: cp, glyph });
  }
  const bmpRuns = runs.filter((run) => run.end <= 0xfffe);
  const segments = [...bmpRuns, { start: 0xffff, end: 0xffff, glyph: 0 }];
  const segCount = segments.length;
  const format4 = Buffer.alloc(16 + segCount * 8);
  const selector = Math.floor(Math.log2(segCount));
  format4.writeUInt16BE(4, 0);
  format4.writeUInt16BE(format4.length, 2);
  format4.writeUInt16BE(segCount * 2, 6);
  format4.writeUInt16BE(2 * 2 ** selector, 8);
  format4.writeUInt16BE(selector, 10);
  format4.writeUInt16BE(segCount * 2 - 2 * 2 ** selector, 12);
  segments.forEach((segment, i) => {
    format4.writeUInt16BE(segment.end, 14 + i * 2);
    format4.writeUInt16BE(segment.start, 16 + segCount * 2 + i * 2);
    const delta = segment.start === 0xffff ? 1 : (segment.glyph - segment.start) & 0xffff;
    format4.writeUInt16BE(delta, 16 + segCount * 4 + i * 2);
  });
  const format12 = Buffer.alloc(16 + runs.length * 12);
  format12.writeUInt16BE(12, 0);
  format12.writeUInt32BE(format12.length, 4);
  format12.writeUInt32BE(runs.length, 12);
  runs.forEach((run, i) => {
    format12.writeUInt32BE(run.start, 16 + i * 12);
    format12.writeUInt32BE(run.end, 20 + i * 12);
    format12.writeUInt32BE(run.glyph, 24 + i * 12);
  });
  const header = Buffer.alloc(4 + 2 * 8);
  header.writeUInt16BE(2, 2);
  header.writeUInt16BE(3, 4);
  header.writeUInt16BE(1, 6);
  header.writeUInt32BE(header.length, 8);
  header.writeUInt16BE(3, 12);
  header.writeUInt16BE(10, 14);
  header.writeUInt32BE(header.length + format4.length, 16);
  return Buffer.concat([header, format4, format12]);
}

/** `post` version 3: the metrics of the original, no glyph names. */
function postTable(original: Buffer | undefined): Buffer {
  const post = Buffer.alloc(32);
  if (original) original.copy(post, 0, 0, Math.min(32, original.length));
  post.writeUInt32BE(0x00030000, 0);
  return post;
}

interface FontSubset {
  bytes: Buffer;
  format: 'truetype' | 'opentype';
}

/** The font file reduced to the glyphs of `codePoints` (those it has), as a standalone TrueType / OpenType file. */
function subsetFont(file: string, codePoints: Iterable<number>): FontSubset {
  const font = openFont(file);
  const subset = font.createSubset() as unknown as { includeGlyph(id: number): number; encode(): Uint8Array; glyphs: number[] };
  const pairs: Array<[number, number]> = [];
  for (const cp of new Set(codePoints)) {
    if (!font.hasGlyphForCodePoint(cp)) continue;
    pairs.push([cp, subset.includeGlyph(font.glyphForCodePoint(cp).id)]);
  }
  const encoded = subset.encode();
  const original = readTables(fontFileBytes(file));
  const kept = (tag: string): Table[] => {
    const data = original.get(tag);
    return data ? [{ tag, data }] : [];
  };
  const common: Table[] = [
    { tag: 'cmap', data: cmapTable(pairs) },
    { tag: 'post', data: postTable(original.get('post')) },
    ...kept('OS/2'),
    ...kept('name'),
  ];
  if (original.has('CFF ')) {
    const glyphs = subset.glyphs;
    const hhea = Buffer.from(original.get('hhea')!);
    const sourceMetrics = original.get('hmtx')!;
    const longMetrics = hhea.readUInt16BE(34);
    const hmtx = Buffer.alloc(glyphs.length * 4);
    glyphs.forEach((id, index) => {
      // Glyphs past the last long metric share its advance and keep their own left side bearing.
      const advanceAt = Math.min(id, longMetrics - 1) * 4;
      const bearingAt = id < longMetrics ? id * 4 + 2 : longMetrics * 4 + (id - longMetrics) * 2;
      hmtx.writeUInt16BE(sourceMetrics.readUInt16BE(advanceAt), index * 4);
      hmtx.writeInt16BE(bearingAt + 2 <= sourceMetrics.length ? sourceMetrics.readInt16BE(bearingAt) : 0, index * 4 + 2);
    });
    hhea.writeUInt16BE(glyphs.length, 34);
    const maxp = Buffer.alloc(6);
    maxp.writeUInt32BE(0x00005000, 0);
    maxp.writeUInt16BE(glyphs.length, 4);
    const head = Buffer.from(original.get('head')!);
    head.writeUInt32BE(0, 8);
    const tables: Table[] = [
      { tag: 'CFF ', data: Buffer.from(encoded) },
      { tag: 'head', data: head },
      { tag: 'hhea', data: hhea },
      { tag: 'hmtx', data: hmtx },
      { tag: 'maxp', data: maxp },
      ...common,
    ];
    return { bytes: writeSfnt('otf', tables), format: 'opentype' };
  }
  const outlines = readTables(encoded);
  const tables: Table[] = [...outlines.entries()].map(([tag, data]) => ({ tag, data }));
  const head = tables.find((table) => table.tag === 'head');
  if (head) head.data.writeUInt32BE(0, 8);
  return { bytes: writeSfnt('ttf', [...tables, ...common]), format: 'truetype' };
}

/** One @font-face per file of `font` (regular and bold), each cut down to `codePoints`. */
export function fontFaces(font: BundledFont, codePoints: ReadonlySet<number>): string {
  return (
    [
      [font.regular, 400],
      [font.bold, 700],
    ] as const
  )
    .map(([file, weight]) => {
      const { bytes, format } = subsetFont(file, codePoints);
      const mime = format === 'opentype' ? 'font/otf' : 'font/ttf';
      return `@font-face{font-family:'${font.family}';font-weight:${weight};font-style:normal;font-display:block;src:url(data:${mime};base64,${bytes.toString('base64')}) format('${format}')}`;
    })
    .join('\n');
}
