import type { CalendarEntry } from '../calendar/calendar.types';
import type { SnapshotItem } from '../envelope.types';
import { makeCalendar, makeEntry } from '../../../test/fixtures/calendar.fixture';
import { analyseOffline } from './compose';
import { MAX_TRENDS, buildTrends, trendMomentum } from './trends';

const SCAN = '2026-11-22';

function run(entries: CalendarEntry[], areas = ['AML / KYC', 'Payments'], jurisdictions = ['EU', 'UK', 'US']) {
  return analyseOffline(makeCalendar(entries), {
    jurisdictions,
    areas,
    horizonMonths: 12,
    scanDate: SCAN,
    engine: 'v4',
    realist: false,
    auditor: false,
  });
}

const uk = { jurisdiction: 'UK', regulator: 'FCA' } as const;

describe('offline trends', () => {
  it('groups items that share a theme (>= 2 items), across jurisdictions', () => {
    const { trends } = run([
      makeEntry({ id: 'eu-a', themes: ['stablecoins'] }),
      makeEntry({ id: 'uk-b', ...uk, themes: ['stablecoins', 'custody'] }),
      makeEntry({ id: 'eu-c', themes: ['custody-solo'] }),
    ]);
    const theme = trends.find((t) => t.id === 'trend-theme-stablecoins');
    expect(theme).toBeDefined();
    expect(theme?.item_ids.sort()).toEqual(['eu-a', 'uk-b']);
    expect(theme?.jurisdictions.sort()).toEqual(['EU', 'UK']);
    expect(theme?.title).toBe('Stablecoins in EU and UK');
    expect(theme?.description).toMatch(/^2 instruments in EU and UK share the stablecoins theme/);
    expect(trends.find((t) => t.id === 'trend-theme-custody')).toBeUndefined();
    expect(trends.find((t) => t.id === 'trend-theme-custody-solo')).toBeUndefined();
  });

  it('groups a requested area carried by several jurisdictions', () => {
    const { trends } = run([
      makeEntry({ id: 'eu-a', areas: ['Payments'], themes: ['t1'] }),
      makeEntry({ id: 'uk-b', ...uk, areas: ['Payments'], themes: ['t2'] }),
      makeEntry({ id: 'eu-c', areas: ['AML / KYC'], themes: ['t3'] }),
      makeEntry({ id: 'eu-d', areas: ['AML / KYC'], regulator: 'EBA', themes: ['t4'] }),
    ]);
    const area = trends.find((t) => t.id === 'trend-area-payments');
    expect(area?.item_ids.sort()).toEqual(['eu-a', 'uk-b']);
    expect(area?.areas).toEqual(['Payments']);
    expect(area?.description).toContain('across 2 jurisdictions (EU and UK)');
    // AML / KYC is carried by EU only: no area trend for it.
    expect(trends.find((t) => t.id === 'trend-area-aml-kyc')).toBeUndefined();
  });

  it('groups a regulator with >= 2 items', () => {
    const { trends } = run([
      makeEntry({ id: 'uk-a', ...uk, themes: ['t1'] }),
      makeEntry({ id: 'uk-b', ...uk, themes: ['t2'] }),
      makeEntry({ id: 'uk-c', jurisdiction: 'UK', regulator: 'PRA', themes: ['t3'] }),
    ]);
    expect(trends.map((t) => t.id)).toEqual(['trend-regulator-uk-fca']);
    expect(trends[0].title).toBe('FCA agenda (UK)');
    expect(trends[0].item_ids).toEqual(['uk-a', 'uk-b']);
  });

  it('skips a group whose items are already covered by a chosen trend', () => {
    const { trends } = run([makeEntry({ id: 'eu-a', themes: ['alpha', 'beta'] }), makeEntry({ id: 'eu-b', themes: ['alpha', 'beta'] })]);
    // alpha and beta cover the same items; the regulator group too. Only the first survives.
    expect(trends.map((t) => t.id)).toEqual(['trend-theme-alpha']);
  });

  it('caps the number of trends, never emits item-less trends, and only references existing items', () => {
    const entries: CalendarEntry[] = [];
    for (let i = 0; i < 12; i++) {
      entries.push(makeEntry({ id: `eu-${i}`, themes: [`theme-${i % 6}`, `other-${i % 4}`], regulator: i % 2 ? 'EBA' : 'ESMA' }));
      entries.push(makeEntry({ id: `uk-${i}`, ...uk, areas: ['Payments'], themes: [`theme-${i % 6}`, `uk-only-${i % 3}`] }));
    }
    const { trends, items } = run(entries);
    expect(trends.length).toBeLessThanOrEqual(MAX_TRENDS);
    expect(trends.length).toBeGreaterThan(0);
    const ids = new Set(items.map((i) => i.id));
    for (const t of trends) {
      expect(t.item_ids.length).toBeGreaterThanOrEqual(2);
      for (const id of t.item_ids) expect(ids.has(id)).toBe(true);
      expect(t.jurisdictions.length).toBeGreaterThan(0);
      expect(t.areas.length).toBeGreaterThan(0);
      expect(['rising', 'steady', 'fading']).toContain(t.momentum);
    }
    expect(new Set(trends.map((t) => t.id)).size).toBe(trends.length);
    // Deterministic, including when the calendar lists entries in another order.
    expect(run([...entries].reverse()).trends).toEqual(trends);
  });

  it('returns no trends for fewer than two items', () => {
    expect(run([makeEntry({ id: 'eu-a' })]).trends).toEqual([]);
    expect(buildTrends([], { scanDate: SCAN, windowEnd: '2027-11-22', areaIds: [] })).toEqual([]);
  });

  describe('momentum', () => {
    const window = { scanDate: SCAN, windowEnd: '2027-11-22', areaIds: [] };
    const item = (key_date: string, stage: SnapshotItem['stage'], date_confidence: SnapshotItem['date_confidence']) =>
      ({ key_date, stage, date_confidence }) as SnapshotItem;

    it('rising when most items fall in the first half of the window or are adopted / in force / applying', () => {
      expect(trendMomentum([item('2027-01-01', 'proposed', 'expected'), item('2027-02-01', 'consultation', 'expected')], window)).toBe(
        'rising',
      );
      expect(trendMomentum([item('2027-10-01', 'applies', 'confirmed'), item('2027-11-01', 'in_force', 'confirmed')], window)).toBe(
        'rising',
      );
    });

    it('fading when every item is late in the window and speculative or a consultation', () => {
      expect(trendMomentum([item('2027-10-01', 'proposed', 'speculative'), item('2027-11-01', 'consultation', 'expected')], window)).toBe(
        'fading',
      );
    });

    it('steady otherwise', () => {
      expect(trendMomentum([item('2027-10-01', 'proposed', 'expected'), item('2027-11-01', 'consultation', 'expected')], window)).toBe(
        'steady',
      );
      expect(
        trendMomentum(
          [
            item('2027-01-01', 'proposed', 'expected'),
            item('2027-10-01', 'proposed', 'expected'),
            item('2027-11-01', 'proposed', 'confirmed'),
          ],
          window,
        ),
      ).toBe('steady');
    });
  });
});
