/**
 * The deck as a viewer without PowerPoint shows it: LibreOffice on a machine that has neither the face the deck
 * names (Arial) nor Calibri, only their metric twins or stand-ins. Rows must not run into each other.
 */
import { execFileSync } from 'node:child_process';
import { libreOfficePdf, pdfTextBoxes, type TextBox } from '../../../../test/support/inspect-artefact';
import { boardSnapshot, hardSnapshot, input, wideSnapshot } from '../../../../test/fixtures/snapshots';
import { renderSlideDeck } from './slide-deck.renderer';

/** Pairs of text runs on one page whose boxes overlap by more than a third of the smaller one's height. */
function overlaps(page: readonly TextBox[]): Array<[string, string]> {
  const found: Array<[string, string]> = [];
  for (let i = 0; i < page.length; i++) {
    for (let j = i + 1; j < page.length; j++) {
      const a = page[i]!;
      const b = page[j]!;
      const horizontal = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
      const vertical = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
      // Runs of one line sit side by side (same baseline); only runs of different lines can collide.
      if (Math.abs(a.y - b.y) < 0.5) continue;
      if (horizontal > 2 && vertical > Math.min(a.height, b.height) / 3) found.push([a.text, b.text]);
    }
  }
  return found;
}

describe('slide deck in LibreOffice without the named font', () => {
  it('names a face every viewer has or replaces by a metric twin, and this machine has neither it nor Calibri', () => {
    
    const installed = execFileSync('fc-list', [':', 'family'], { encoding: 'utf8' });
    expect(installed).not.toMatch(/^(Arial|Calibri)(,|$)/im);
  });

  it.each([
    ['board', boardSnapshot],
    ['wide', wideSnapshot],
    ['hard', hardSnapshot],
  ])('the %s deck renders with no two rows of text on top of each other', async (_name, make) => {
    const deck = await renderSlideDeck(input(make()));
    const pages = pdfTextBoxes(libreOfficePdf(deck.bytes));
    expect(pages.length).toBeGreaterThan(3);
    const collisions = pages.flatMap((page, index) => overlaps(page).map(([a, b]) => `slide ${index + 1}: "${a}" / "${b}"`));
    expect(collisions).toEqual([]);
  }, 240_000);
});
