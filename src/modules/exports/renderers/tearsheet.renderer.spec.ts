import { upcomingItems } from './item-grouping';
import { pdfText, squash } from '../../../../test/support/inspect-artefact';
import { input, realisticSnapshot, syntheticSnapshot, zhSnapshot } from '../../../../test/fixtures/snapshots';
import { renderTearsheet } from './tearsheet.renderer';

describe('tearsheet renderer (internal-tearsheet)', () => {
  it('is one page with headline numbers, the next 5 dates and the bottom line', async () => {
    const snapshot = realisticSnapshot();
    const out = await renderTearsheet(input(snapshot));
    expect(out.filename).toBe('regulatory-horizon-eu-uk-2026-11-22-tearsheet.pdf');
    const { text, pages } = await pdfText(out.bytes);
    expect(pages).toBe(1);
    const flat = squash(text);
    expect(flat).toContain(squash(snapshot.title));
    expect(text).toContain('ITEMS BY JURISDICTION');
    expect(text).toContain('NEXT 5 KEY DATES');
    expect(text).toContain('High impact');
    expect(flat).toContain(squash(snapshot.data.executive_summary.bottom_line));
    const next = upcomingItems(snapshot, 5);
    expect(next).toHaveLength(5);
    // Titles may be cut with an ellipsis to fit two lines: their first words are there.
    for (const item of next) expect(flat).toContain(squash(item.title.split(' ').slice(0, 3).join(' ')));
  });

  it('stays one page at 100 items, eight jurisdictions and in Chinese', async () => {
    for (const [snapshot, locale] of [
      [syntheticSnapshot(100), 'en'],
      [zhSnapshot(), 'zh'],
    ] as const) {
      const { text, pages } = await pdfText((await renderTearsheet(input(snapshot, {}, locale))).bytes);
      expect(pages).toBe(1);
      expect(text).toContain('Page 1 of 1');
    }
  });
});
