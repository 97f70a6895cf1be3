/**
 * Every page of the full report but the last is at least a quarter full: a reader never turns to a page holding
 * only a heading or the disclaimer. Measured from where pdf.js finds the text on each page, the footer left out.
 */
import { pdfTextBoxes } from '../../../../test/support/inspect-artefact';
import { boardSnapshot, hardSnapshot, input, realisticSnapshot, sampleDrift, wideSnapshot } from '../../../../test/fixtures/snapshots';
import { A4 } from './pdf-kit';
import { renderPdf } from './pdf.renderer';
import { renderBriefingPdf } from './briefing-pdf.renderer';

/** How far down the page (0 = top, 1 = bottom) the lowest text above the footer reaches. */
function reach(page: ReadonlyArray<{ y: number }>): number {
  const footer = 60; // the footer band at the bottom of every page (disclaimer, page number)
  const body = page.filter((box) => box.y > footer);
  if (body.length === 0) return 0;
  const lowest = Math.min(...body.map((box) => box.y));
  return (A4.height - lowest) / A4.height;
}

describe('page fill', () => {
  it.each([
    ['realistic', () => ({ ...input(realisticSnapshot()), drift: sampleDrift(realisticSnapshot()) })],
    ['board', () => input(boardSnapshot())],
    ['wide', () => input(wideSnapshot())],
    ['hard', () => input(hardSnapshot())],
  ])('the %s PDF report and briefing leave no page but the last less than a quarter full', async (_name, make) => {
    for (const render of [renderPdf, renderBriefingPdf]) {
      const pages = pdfTextBoxes((await render(make())).bytes);
      const thin = pages.slice(0, -1).map((page, index) => [index + 1, reach(page)] as const).filter(([, fill]) => fill < 0.25);
      expect(thin).toEqual([]);
    }
  }, 60_000);
});
