import { input, realisticSnapshot, sampleDrift, wideSnapshot } from '../../../../test/fixtures/snapshots';
import { groupByJurisdiction } from './item-grouping';
import { keyDateLabel, removalLabel } from './render-facts';
import { driftEntries, packByHeight, packColumns, pageLabel, type SlideLayout, slideSections, splitWords } from './slide-sections';

/** A layout that puts `perPage` entries on a slide, whatever their size. */
function fixedLayout(perPage: number): SlideLayout {
  const chunk = <T>(list: T[]): T[][] =>
    Array.from({ length: Math.ceil(list.length / perPage) }, (_, i) => list.slice(i * perPage, i * perPage + perPage));
  return {
    summaryPages: (bottomLine, quote, priorities) => [
      { lead: [bottomLine], quote, priorities: priorities.map((text, i) => ({ number: i + 1, text })) },
    ],
    driftPages: (_, entries) => chunk(entries),
    itemPages: (items) => chunk(items),
    trendPages: (trends) => chunk(trends.map((trend) => ({ trend, description: trend.description, continued: false }))),
    referencePages: (references) => chunk(references),
  };
}

describe('slideSections', () => {
  it('lists title, summary, drift when given, each jurisdiction page by page, trends and sources, numbering continuations', () => {
    const snapshot = realisticSnapshot();
    const sections = slideSections({ snapshot, drift: sampleDrift(snapshot) }, fixedLayout(5));
    const labels = sections.map((s) =>
      'page' in s ? `${s.kind}:${s.kind === 'jurisdiction' ? s.jurisdiction : ''}${s.page}/${s.pages}` : s.kind,
    );
    // Pages of five: the counts follow from the snapshot (built from the shipped calendar), not from fixed numbers.
    const pages = (kind: string, count: number, prefix = '') =>
      Array.from({ length: Math.max(1, Math.ceil(count / 5)) }, (_, i) => `${kind}:${prefix}${i + 1}/${Math.max(1, Math.ceil(count / 5))}`);
    const itemsOf = (j: string) => snapshot.data.items.filter((item) => item.jurisdiction === j).length;
    const references = new Set(snapshot.data.items.flatMap((item) => item.citations.map((c) => c.url))).size;
    expect(itemsOf('EU')).toBeGreaterThan(5);
    expect(labels).toEqual([
      'title',
      'summary:1/1',
      'drift:1/1',
      'timeline',
      ...pages('jurisdiction', itemsOf('EU'), 'EU'),
      ...pages('jurisdiction', itemsOf('UK'), 'UK'),
      ...pages('trends', snapshot.data.trends.length),
      ...pages('sources', references),
    ]);
    const eu = sections.filter((s) => s.kind === 'jurisdiction' && s.jurisdiction === 'EU');
    expect(eu.map((s) => (s.kind === 'jurisdiction' ? s.first : 0))).toEqual(eu.map((_, i) => 1 + i * 5));
    expect(sections.flatMap((s) => (s.kind === 'jurisdiction' ? s.items : []))).toHaveLength(snapshot.data.items.length);
    expect(slideSections(input(snapshot), fixedLayout(5)).some((s) => s.kind === 'drift')).toBe(false);
  });

  it('keeps one slide for an empty list, so it can say so', () => {
    const snapshot = realisticSnapshot();
    const empty = { ...snapshot, data: { ...snapshot.data, items: [], trends: [] } };
    // The quarter grid counts every match (_meta.matched_summary), so it stays even when no item is kept.
    expect(slideSections(input(empty), fixedLayout(5)).map((s) => s.kind)).toEqual(['title', 'summary', 'timeline', 'trends', 'sources']);
  });

  it('labels continuations', () => {
    expect(pageLabel('EU', { page: 1, pages: 1 })).toBe('EU');
    expect(pageLabel('EU', { page: 2, pages: 3 })).toBe('EU (2 of 3)');
  });
});

describe('small jurisdictions share a slide', () => {
  it('a wide scan has no run of one- or two-item slides: they share one, each row naming its jurisdiction', () => {
    const wide = wideSnapshot();
    const sections = slideSections(input(wide), fixedLayout(5)).filter((s) => s.kind === 'jurisdiction');
    const small = sections.filter((s) => s.kind === 'jurisdiction' && s.items.length <= 2);
    // Two small slides in a row would have fitted on one.
    const index = (s: (typeof sections)[number]) => sections.indexOf(s);
    for (const s of small) expect(small.some((other) => index(other) === index(s) + 1)).toBe(false);
    const shared = sections.filter((s) => s.kind === 'jurisdiction' && s.jurisdiction.includes(' · '));
    expect(shared.length).toBeGreaterThan(0);
    for (const s of shared) {
      if (s.kind !== 'jurisdiction') continue;
      const names = s.jurisdiction.split(' · ');
      for (const item of s.items) {
        expect(names).toContain(item.jurisdiction);
        expect(item.regulator.endsWith(` · ${item.jurisdiction}`)).toBe(true);
      }
    }
    // Nothing is lost: every item is on exactly one slide.
    const shown = sections.flatMap((s) => (s.kind === 'jurisdiction' ? s.items.map((item) => item.id) : []));
    expect(shown.sort()).toEqual(groupByJurisdiction(wide).flatMap((g) => g.items.map((item) => item.id)).sort());
  });
});

describe('packing', () => {
  it('uses the fewest pages, never overfills one, and spreads entries evenly', () => {
    const pages = packByHeight(
      Array.from({ length: 13 }, (_, i) => i),
      () => 1,
      () => 4,
    );
    const sizes = pages.map((page) => page.length);
    expect(sizes).toHaveLength(4);
    expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
    expect(pages.flat()).toEqual(Array.from({ length: 13 }, (_, i) => i));
    const uneven = packByHeight(
      [3, 1, 1, 2, 2, 3, 1],
      (h) => h,
      () => 4,
    );
    for (const page of uneven) expect(page.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(4);
    expect(uneven).toHaveLength(4);
  });

  it('honours a smaller first page and the gap between entries', () => {
    const pages = packByHeight(
      [1, 1, 1, 1, 1],
      () => 1,
      (page) => (page === 0 ? 2 : 10),
      0.5,
    );
    expect(pages[0]).toHaveLength(1);
    expect(pages.flat()).toHaveLength(5);
  });

  it('fills columns page by page', () => {
    const pages = packColumns(
      Array.from({ length: 20 }, (_, i) => i),
      () => 1,
      6,
      2,
    );
    expect(pages).toHaveLength(2);
    for (const page of pages) {
      expect(page).toHaveLength(2);
      for (const column of page) expect(column.length).toBeLessThanOrEqual(6);
    }
    expect(pages.flat(2)).toEqual(Array.from({ length: 20 }, (_, i) => i));
  });

  it('splits a long paragraph at word boundaries, keeping every word', () => {
    const text = 'one two three four five six seven eight nine ten';
    const parts = splitWords(text, (part) => part.length <= 15);
    expect(parts.join(' ')).toBe(text);
    for (const part of parts) expect(part.length).toBeLessThanOrEqual(15);
    expect(splitWords('反洗钱条例统一规则手册', (part) => [...part].length <= 4).join('')).toBe('反洗钱条例统一规则手册');
    const prose = '...First sentence here. Second one, e.g. this! Third?';
    const sentences = splitWords(prose, (part) => part.length <= 30);
    expect(sentences.join(' ')).toBe(prose);
    expect(sentences[0]).toBe('...First sentence here.');
  });
});

describe('driftEntries', () => {
  it('lists new, removed with the reason and changed with each field', () => {
    const snapshot = realisticSnapshot();
    const entries = driftEntries(sampleDrift(snapshot), snapshot.data.items);
    const [first, second] = snapshot.data.items;
    expect(entries).toEqual([
      { change: 'new', title: first!.title, detail: `${first!.jurisdiction} · ${keyDateLabel(first!)}` },
      { change: 'removed', title: 'Instrument the item cap kept out this time', detail: removalLabel('dropped_by_cap') },
      { change: 'removed', title: 'Instrument withdrawn from the calendar', detail: removalLabel('left_calendar') },
      { change: 'changed', title: second!.title, detail: `key date: 31 Jan 2027 → ${keyDateLabel(second!)}` },
    ]);
  });
});
