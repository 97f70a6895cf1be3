/**
 * Page-level checks of the briefing and the tearsheet, read back from the PDF with pdf.js: where each piece of
 * text sits (nothing outside the content box but the footer, the disclaimer on one line at the foot of every
 * page) and which links the pages carry.
 */
import { execFileSync } from 'node:child_process';
import { BRIEFING_MARGINS, renderBriefingPdf } from './briefing-pdf.renderer';
import { rankPriorities } from './briefing-sections';
import { upcomingItems } from './item-grouping';
import { A4 } from './pdf-kit';
import { buildReferences, disclaimerLine } from './render-facts';
import { TEARSHEET_MARGINS, renderTearsheet } from './tearsheet.renderer';
import { squash } from '../../../../test/support/inspect-artefact';
import { hardSnapshot, input, realisticSnapshot, sampleDrift, zhSnapshot } from '../../../../test/fixtures/snapshots';
import type { RenderInput } from './types';

interface TextRun {
  text: string;
  x: number;
  /** Baseline, from the top of the page. */
  baseline: number;
  width: number;
  size: number;
}

interface PageContent {
  runs: TextRun[];
  links: string[];
}

/** pdf.js is loaded with import(), which Jest's module system refuses; so it runs in a plain Node child. */
const READ_SCRIPT = `
const chunks = [];
process.stdin.on('data', (chunk) => chunks.push(chunk));
process.stdin.on('end', async () => {
  const { pathToFileURL } = require('node:url');
  const pdfjs = await import(pathToFileURL(require.resolve('pdfjs-dist/legacy/build/pdf.mjs', { paths: [process.cwd()] })).href);
  const doc = await pdfjs.getDocument({ data: new Uint8Array(Buffer.concat(chunks)), verbosity: 0 }).promise;
  const pages = [];
  for (let n = 1; n <= doc.numPages; n++) {
    const page = await doc.getPage(n);
    const { height } = page.getViewport({ scale: 1 });
    const content = await page.getTextContent();
    const links = (await page.getAnnotations()).filter((a) => a.url).map((a) => a.url);
    const runs = content.items
      .filter((item) => typeof item.str === 'string' && item.str.trim())
      .map((item) => ({ text: item.str, x: item.transform[4], baseline: height - item.transform[5], width: item.width, size: item.height }));
    pages.push({ runs, links });
  }
  await doc.destroy();
  process.stdout.write(JSON.stringify(pages));
});
`;

function readPages(bytes: Buffer): PageContent[] {
  const out = execFileSync(process.execPath, ['-e', READ_SCRIPT], { input: bytes, maxBuffer: 64 * 1024 * 1024, cwd: process.cwd() });
  return JSON.parse(out.toString('utf8')) as PageContent[];
}

type Margins = typeof BRIEFING_MARGINS;

/** Runs outside the content box that are not part of the footer (disclaimer, snapshot id, page number). */
function strays(pages: PageContent[], margins: Margins, footer: (page: number) => string): string[] {
  const box = { left: margins.left, right: A4.width - margins.right, top: margins.top, bottom: A4.height - margins.bottom };
  const found: string[] = [];
  pages.forEach((page, index) => {
    const footerText = squash(footer(index + 1));
    for (const run of page.runs) {
      const inside =
        run.x >= box.left - 0.5 &&
        run.x + run.width <= box.right + 0.5 &&
        run.baseline - 0.75 * run.size >= box.top - 0.5 &&
        run.baseline + 0.2 * run.size <= box.bottom + 0.5;
      const inFooter =
        run.baseline > box.bottom && run.baseline < A4.height - 20 && run.x >= box.left - 0.5 && run.x + run.width <= box.right + 0.5;
      if (inside || (inFooter && footerText.includes(squash(run.text)))) continue;
      found.push(
        `page ${index + 1}: "${run.text}" at x ${run.x.toFixed(1)}–${(run.x + run.width).toFixed(1)}, baseline ${run.baseline.toFixed(1)}`,
      );
    }
  });
  return found;
}

/** The disclaimer's runs on a page all share one baseline below the content and read as the whole line. */
function expectDisclaimerLine(page: PageContent, disclaimer: string, bottom: number): void {
  const runs = page.runs.filter(
    (run) => run.baseline > bottom && squash(disclaimer).includes(squash(run.text)) && squash(run.text).length > 2,
  );
  expect(new Set(runs.map((run) => run.baseline.toFixed(1))).size).toBe(1);
  expect(squash(runs.map((run) => run.text).join(''))).toBe(squash(disclaimer));
}

const CASES: Array<[string, () => RenderInput]> = [
  ['realistic', () => ({ ...input(realisticSnapshot()), drift: sampleDrift(realisticSnapshot()) })],
  ['hard', () => ({ ...input(hardSnapshot(), { targetLanguage: 'zh' }, 'en'), drift: sampleDrift(hardSnapshot()) })],
  ['zh', () => input(zhSnapshot(), {}, 'zh')],
];

describe('briefing and tearsheet pages', () => {
  it.each(CASES)('briefing (%s): text stays inside the margins, the disclaimer is the one-line footer of every page', async (_, make) => {
    const request = make();
    const pages = readPages((await renderBriefingPdf(request)).bytes);
    expect(pages.length).toBeLessThanOrEqual(2);
    const disclaimer = disclaimerLine(request.snapshot);
    const footer = (page: number): string => `${disclaimer} Snapshot ${request.snapshot.id} Page ${page} of ${pages.length}`;
    expect(strays(pages, BRIEFING_MARGINS, footer)).toEqual([]);
    for (const page of pages) expectDisclaimerLine(page, disclaimer, A4.height - BRIEFING_MARGINS.bottom);
  });

  it.each(CASES)('tearsheet (%s): one page, text inside the margins, the disclaimer on one line at the foot', async (_, make) => {
    const request = make();
    const pages = readPages((await renderTearsheet(request)).bytes);
    expect(pages).toHaveLength(1);
    const disclaimer = disclaimerLine(request.snapshot);
    const footer = (): string => `${disclaimer} Snapshot ${request.snapshot.id} Page 1 of 1`;
    expect(strays(pages, TEARSHEET_MARGINS, footer)).toEqual([]);
    expectDisclaimerLine(pages[0]!, disclaimer, A4.height - TEARSHEET_MARGINS.bottom);
  });

  it('the overflow check catches text past the bottom margin', () => {
    const page: PageContent = {
      links: [],
      runs: [{ text: 'overflowing', x: 60, baseline: A4.height - BRIEFING_MARGINS.bottom + 6, width: 40, size: 10 }],
    };
    expect(strays([page], BRIEFING_MARGINS, () => 'Disclaimer')).toHaveLength(1);
  });

  it('links each reference of the briefing and the tearsheet to its source', async () => {
    const snapshot = realisticSnapshot();
    const references = buildReferences(snapshot.data.items);
    const briefingLinks = readPages((await renderBriefingPdf(input(snapshot))).bytes).flatMap((page) => page.links);
    for (const item of rankPriorities(snapshot.data.items).slice(0, 8)) {
      expect(briefingLinks).toContain(item.citations[0]!.url);
      for (const number of references.itemNumbers(item)) expect(briefingLinks).toContain(references.list[number - 1]!.citation.url);
    }
    const tearsheetLinks = readPages((await renderTearsheet(input(snapshot))).bytes).flatMap((page) => page.links);
    const rows = upcomingItems(snapshot, 3);
    for (const item of rows) expect(tearsheetLinks).toContain(item.citations[0]!.url);
  });
});
