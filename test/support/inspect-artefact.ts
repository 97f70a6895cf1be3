/** Readers for the renderers' outputs, used by the tests (real parsers: pdf.js via pdf-parse, JSZip). */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import JSZip from 'jszip';

export interface PdfContent {
  text: string;
  pages: number;
  /** The text of each page, in order. */
  pageTexts: string[];
}

/**
 * pdf.js (through pdf-parse) loads its worker with a dynamic import(), which Jest's module system refuses
 * without --experimental-vm-modules; so the parse runs in a plain Node child process.
 */
const PARSE_SCRIPT = `
const chunks = [];
process.stdin.on('data', (chunk) => chunks.push(chunk));
process.stdin.on('end', async () => {
  const { PDFParse } = require(require.resolve('pdf-parse', { paths: [process.cwd()] }));
  const parser = new PDFParse({ data: new Uint8Array(Buffer.concat(chunks)) });
  try {
    const result = await parser.getText();
    process.stdout.write(JSON.stringify({ text: result.text, pages: result.total, pageTexts: result.pages.map((page) => page.text) }));
  } finally {
    await parser.destroy();
  }
});
`;

export async function pdfText(bytes: Buffer): Promise<PdfContent> {
  const out = execFileSync(process.execPath, ['-e', PARSE_SCRIPT], { input: bytes, maxBuffer: 64 * 1024 * 1024, cwd: process.cwd() });
  return JSON.parse(out.toString('utf8')) as PdfContent;
}

const BOXES_SCRIPT = `
const chunks = [];
process.stdin.on('data', (chunk) => chunks.push(chunk));
process.stdin.on('end', async () => {
  const pdfjs = await import(require.resolve('pdfjs-dist/legacy/build/pdf.mjs', { paths: [process.cwd()] }));
  const doc = await pdfjs.getDocument({ data: new Uint8Array(Buffer.concat(chunks)), useSystemFonts: false }).promise;
  const pages = [];
  for (let page = 1; page <= doc.numPages; page++) {
    const content = await (await doc.getPage(page)).getTextContent();
    pages.push(content.items.filter((item) => item.str && item.str.trim()).map((item) => ({
      text: item.str, x: item.transform[4], y: item.transform[5], width: item.width, height: Math.hypot(item.transform[2], item.transform[3]) || item.height,
    })));
  }
  await doc.destroy();
  process.stdout.write(JSON.stringify(pages));
});
`;

export interface TextBox {
  text: string;
  /** Left edge and baseline, in points from the bottom left. */
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Every run of text on each page of a PDF with where it sits (pdf.js). */
export function pdfTextBoxes(bytes: Buffer): TextBox[][] {
  const out = execFileSync(process.execPath, ['-e', BOXES_SCRIPT], { input: bytes, maxBuffer: 64 * 1024 * 1024, cwd: process.cwd() });
  return JSON.parse(out.toString('utf8')) as TextBox[][];
}

/** Every run of text in a PDF with the size it is set in (points): the height pdf.js gives an unrotated run. */
export function pdfTextSizes(bytes: Buffer): Array<{ page: number; text: string; size: number }> {
  return pdfTextBoxes(bytes).flatMap((page, index) => page.map((box) => ({ page: index + 1, text: box.text, size: box.height })));
}

/** A PPTX turned into a PDF by LibreOffice (Debian's libreoffice-impress-nogui), as a viewer without PowerPoint shows it. */
export function libreOfficePdf(pptx: Buffer): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'rgs-lo-'));
  try {
    writeFileSync(join(dir, 'deck.pptx'), pptx);
    // A private profile, so parallel runs and a user's own LibreOffice do not collide.
    execFileSync('soffice', [`-env:UserInstallation=file://${join(dir, 'profile')}`, '--headless', '--convert-to', 'pdf', '--outdir', dir, join(dir, 'deck.pptx')], {
      stdio: 'ignore',
      timeout: 180_000,
    });
    return readFileSync(join(dir, 'deck.pdf'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The link targets (URI actions) of a PDF written by pdfkit (uncompressed annotation dictionaries). */
export function pdfLinks(bytes: Buffer): string[] {
  return [...bytes.toString('latin1').matchAll(/\/URI \(((?:\\.|[^\\)])*)\)/g)].map((m) => m[1]!.replace(/\\(.)/g, '$1'));
}

/** Text without any whitespace, so a title broken across lines still matches. */
export function squash(text: string): string {
  return text.replace(/\s+/g, '');
}

export interface PngHeader {
  width: number;
  height: number;
  bitDepth: number;
  colorType: number;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Signature and IHDR of a PNG; throws when they are not there. */
export function pngHeader(bytes: Buffer): PngHeader {
  if (bytes.length < 33 || !bytes.subarray(0, 8).equals(PNG_SIGNATURE)) throw new Error('not a PNG (signature)');
  if (bytes.toString('ascii', 12, 16) !== 'IHDR') throw new Error('not a PNG (no IHDR first)');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20), bitDepth: bytes[24]!, colorType: bytes[25]! };
}

export async function unzip(bytes: Buffer): Promise<JSZip> {
  return JSZip.loadAsync(bytes);
}

export function slideFiles(zip: JSZip): string[] {
  return Object.keys(zip.files)
    .filter((name) => /^ppt\/slides\/slide\d+\.xml$/.test(name))
    .sort((a, b) => Number(/(\d+)\.xml$/.exec(a)![1]) - Number(/(\d+)\.xml$/.exec(b)![1]));
}

/**
 * pptxgenjs, when it sees Node (`process.release.name === 'node'`), starts loading node:fs and node:https with
 * a dynamic import() to embed media files (the deck has none). Jest's VM rejects dynamic import() without
 * --experimental-vm-modules, so specs that build decks call this first: it changes only the sandboxed
 * `process` Jest gives each test file, not the real one, and plain Node runs (bench/render.js) keep the
 * library's Node path.
 */
export function hideNodeFromPptxgenjs(): void {
  Object.defineProperty(process, 'release', { value: { ...process.release, name: 'jest-sandbox' }, configurable: true });
}
