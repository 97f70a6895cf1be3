/**
 * A repair of pptxgenjs output. pptxgenjs writes paragraph properties (`<a:pPr>`) before every run of a
 * paragraph, not only before the first, which breaks the schema (CT_TextParagraph allows one pPr, first):
 * PowerPoint 2016 asks to repair such a file (gitbrent/PptxGenJS#1081, #1083). The deck needs paragraphs of
 * several runs (a bold date and its milestone, linked reference numbers), so the extra pPr are removed from
 * the slide XML after writing. The deck zip is rewritten with node:zlib alone: entries other than slides are
 * copied as they are.
 */
import * as zlib from 'node:zlib';

const PPR = /<a:pPr\b[^>]*?(?:\/>|>[\s\S]*?<\/a:pPr>)/g;

/** Slide XML with at most one `<a:pPr>` per paragraph, the first one, where the schema puts it. */
export function singleParagraphProperties(xml: string): string {
  return xml
    .split('<a:p>')
    .map((chunk, index) => {
      if (index === 0) return chunk;
      let seen = false;
      return chunk.replace(PPR, (match, offset: number) => {
        // Keep only a pPr that opens the paragraph.
        if (!seen && offset === 0) {
          seen = true;
          return match;
        }
        return '';
      });
    })
    .join('<a:p>');
}

interface Entry {
  name: Buffer;
  method: number;
  time: number;
  date: number;
  crc: number;
  data: Buffer;
  size: number;
}

function readEntries(zip: Buffer): Entry[] {
  let end = zip.length - 22;
  while (end >= 0 && zip.readUInt32LE(end) !== 0x06054b50) end--;
  if (end < 0) throw new Error('Not a zip file: no end of central directory');
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const entries: Entry[] = [];
  for (let i = 0; i < count; i++) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error('Bad zip central directory');
    const method = zip.readUInt16LE(at + 10);
    const compressed = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const dataAt = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    entries.push({
      name: zip.subarray(at + 46, at + 46 + nameLength),
      method,
      time: zip.readUInt16LE(at + 12),
      date: zip.readUInt16LE(at + 14),
      crc: zip.readUInt32LE(at + 16),
      data: zip.subarray(dataAt, dataAt + compressed),
      size: zip.readUInt32LE(at + 24),
    });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

function writeEntries(entries: readonly Entry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6);
    local.writeUInt16LE(entry.method, 8);
    local.writeUInt16LE(entry.time, 10);
    local.writeUInt16LE(entry.date, 12);
    local.writeUInt32LE(entry.crc, 14);
    local.writeUInt32LE(entry.data.length, 18);
    local.writeUInt32LE(entry.size, 22);
    local.writeUInt16LE(entry.name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(entry.method, 10);
    central.writeUInt16LE(entry.time, 12);
    central.writeUInt16LE(entry.date, 14);
    central.writeUInt32LE(entry.crc, 16);
    central.writeUInt32LE(entry.data.length, 20);
    central.writeUInt32LE(entry.size, 24);
    central.writeUInt16LE(entry.name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, entry.name, entry.data);
    centrals.push(central, entry.name);
    offset += 30 + entry.name.length + entry.data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** The deck with every slide's XML passed through `transform` (stored or deflated entries). */
export function rewriteSlides(deck: Buffer, transform: (xml: string) => string): Buffer {
  const entries = readEntries(deck).map((entry): Entry => {
    if (!/^ppt\/slides\/slide\d+\.xml$/.test(entry.name.toString('utf8'))) return entry;
    const raw = entry.method === 8 ? zlib.inflateRawSync(entry.data) : Buffer.from(entry.data);
    const xml = Buffer.from(transform(raw.toString('utf8')), 'utf8');
    return { ...entry, method: 8, crc: zlib.crc32(xml), data: zlib.deflateRawSync(xml), size: xml.length };
  });
  return writeEntries(entries);
}
