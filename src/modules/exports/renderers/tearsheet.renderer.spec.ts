import { upcomingItems } from './item-grouping';
import { buildReferences, disclaimerLine, driftLine, keyDateLabel, languageNotice, selectionLine, shortSource } from './render-facts';
import { pdfText, squash } from '../../../../test/support/inspect-artefact';
import {
  hardSnapshot,
  hardTitle,
  input,
  realisticSnapshot,
  sampleDrift,
  syntheticSnapshot,
  zhSnapshot,
} from '../../../../test/fixtures/snapshots';
import { renderTearsheet } from './tearsheet.renderer';

describe('tearsheet renderer (internal-tearsheet)', () => {
  it('is one page with headline numbers, the next key dates and the bottom line', async () => {
    const snapshot = realisticSnapshot();
    const out = await renderTearsheet(input(snapshot));
    expect(out.filename).toBe('regulatory-horizon-eu-uk-2026-11-22-tearsheet.pdf');
    const { text, pages } = await pdfText(out.bytes);
    expect(pages).toBe(1);
    const flat = squash(text);
    expect(flat).toContain(squash(snapshot.title));
    expect(text).toContain('MATCHING INSTRUMENTS BY JURISDICTION');
    expect(text).toContain('NEXT KEY DATES');
    expect(text).toContain('High impact');
    expect(flat).toContain(squash(snapshot.data.executive_summary.bottom_line));
    const shown = new RegExp(`Next(\\d+)of${snapshot.data.items.length}shown;fulllistinthePDFreport\\.`).exec(flat);
    expect(shown).not.toBeNull();
    const next = upcomingItems(snapshot, Number(shown![1]));
    expect(next.length).toBeGreaterThanOrEqual(3);
    const references = buildReferences(snapshot.data.items);
    for (const item of next) {
      expect(flat).toContain(squash(item.title));
      expect(flat).toContain(squash(keyDateLabel(item)));
      expect(flat).toContain(squash(`[${references.itemNumbers(item).join(', ')}] ${shortSource(item)}`));
    }
  });

  it('prints every title of the hard snapshot whole on one page and says how many rows it shows', async () => {
    const snapshot = hardSnapshot();
    const { text, pages } = await pdfText((await renderTearsheet({ ...input(snapshot), drift: sampleDrift(snapshot) })).bytes);
    expect(pages).toBe(1);
    const flat = squash(text);
    expect(text).not.toContain('…');
    expect(flat).toContain(squash(snapshot.title));
    const printed = [...new Set([...flat.matchAll(/HARD-(\d{3})/g)].map((match) => Number(match[1])))];
    for (const number of printed) expect(flat).toContain(squash(hardTitle(number - 1)));
    expect(flat).toContain(squash(selectionLine(snapshot)));
    expect(selectionLine(snapshot)).toContain('Top 100 of 240');
    const shown = /Next(\d+)of100shown;fulllistinthePDFreport\./.exec(flat);
    expect(shown).not.toBeNull();
    expect(Number(shown![1])).toBeGreaterThanOrEqual(3);
    for (const item of upcomingItems(snapshot, Number(shown![1]))) {
      expect(flat).toContain(squash(item.title));
      expect(flat).toContain(squash(keyDateLabel(item)));
    }
  });

  it('prints period dates as periods', async () => {
    const snapshot = realisticSnapshot();
    // Every date a period, so the one shown first is one (firm dates would otherwise come first).
    for (const each of snapshot.data.items) Object.assign(each, { key_date_precision: 'half', date_confidence: 'expected' });
    const [first] = upcomingItems(snapshot, 1);
    const item = snapshot.data.items.find((candidate) => candidate.id === first!.id)!;
    item.milestone = 'Application to every firm in scope';
    const flat = squash((await pdfText((await renderTearsheet(input(snapshot))).bytes)).text);
    expect(keyDateLabel(item)).toMatch(/^expected H[12] \d{4}$/);
    expect(flat).toContain(squash(keyDateLabel(item)));
    expect(flat).toContain(squash(`${item.jurisdiction} · Application to every firm in scope`));
  });

  it('carries the disclaimer, the selection, the drift and the language notice', async () => {
    const snapshot = realisticSnapshot();
    const drift = sampleDrift(snapshot);
    const request = { ...input(snapshot, { targetLanguage: 'zh' }, 'en'), drift };
    const flat = squash((await pdfText((await renderTearsheet(request)).bytes)).text);
    expect(flat).toContain(squash(disclaimerLine(snapshot)));
    expect(flat).toContain(squash(selectionLine(snapshot)));
    expect(flat).toContain(squash(driftLine(drift)));
    expect(flat).toContain(squash(languageNotice(request)!));
    const plain = squash((await pdfText((await renderTearsheet(input(snapshot))).bytes)).text);
    expect(plain).not.toContain(squash('Requested in'));
    expect(plain).not.toContain(squash('Since the scan of'));
  });

  it('stays one page at 100 items, eight jurisdictions and in Chinese', async () => {
    for (const [snapshot, locale] of [
      [syntheticSnapshot(100), 'en'],
      [zhSnapshot(), 'zh'],
    ] as const) {
      const { text, pages } = await pdfText((await renderTearsheet(input(snapshot, {}, locale))).bytes);
      expect(pages).toBe(1);
      expect(text).toContain('Page 1 of 1');
      expect(squash(text)).toContain(squash(snapshot.title));
    }
  });
});
