import type { CalendarEntry, Milestone } from '../calendar/calendar.types';
import { makeCalendar, makeEntry } from '../../../test/fixtures/calendar.fixture';
import { loadCalendar } from '../calendar/calendar.loader';
import { analyseOffline } from './compose';
import { MAX_TRENDS, buildTrends, momentumEvidence, trendMomentum } from './trends';

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

  describe('momentum from dated evidence', () => {
    const window = { scanDate: SCAN, windowEnd: '2027-11-22', areaIds: [] };
    const entry = (id: string, dates: Array<[string, Milestone['confidence'], Milestone['precision']?]>) =>
      makeEntry({ id, milestones: dates.map(([date, confidence, precision]) => ({ date, event: 'Milestone', confidence, ...(precision ? { precision } : {}) })) });

    it('counts the instruments by stage, and every milestone ahead in the window against those confirmed in the span before', () => {
      const evidence = momentumEvidence(
        [
          entry('eu-a', [['2025-12-01', 'confirmed'], ['2027-01-10', 'confirmed'], ['2027-06-30', 'expected', 'half']]),
          { ...entry('eu-b', [['2024-01-01', 'confirmed'], ['2026-06-01', 'expected'], ['2027-03-01', 'expected'], ['2027-04-01', 'speculative'], ['2028-01-01', 'confirmed']]), stage: 'consultation' },
        ],
        window,
      );
      // Ahead: 10 Jan, H1 2027, 1 Mar and the April estimate (H1 and the estimate are tentative); 2028 is past the window.
      // Behind: 1 Dec 2025 is confirmed within the 12 months before; 1 Jun 2026 is only expected; 2024 is too early.
      expect(evidence).toEqual({ proposed: 1, adopted: 1, applying: 0, ahead: 4, tentative: 2, behind: 1 });
    });

    it('rising when more lies ahead than behind or the group is mostly new rules; fading only when everything already applies and less lies ahead', () => {
      const stages = { proposed: 0, adopted: 2, applying: 0 };
      expect(trendMomentum({ ...stages, ahead: 3, behind: 1, tentative: 0 })).toBe('rising');
      expect(trendMomentum({ ...stages, ahead: 1, behind: 0, tentative: 1 })).toBe('steady');
      expect(trendMomentum({ proposed: 1, adopted: 1, applying: 0, ahead: 1, behind: 4, tentative: 1 })).toBe('rising');
      expect(trendMomentum({ ...stages, ahead: 2, behind: 2, tentative: 0 })).toBe('steady');
      expect(trendMomentum({ proposed: 0, adopted: 0, applying: 2, ahead: 1, behind: 3, tentative: 0 })).toBe('fading');
      // New or adopted rules still to land: never fading, however busy the past was.
      expect(trendMomentum({ proposed: 0, adopted: 1, applying: 1, ahead: 1, behind: 9, tentative: 0 })).toBe('steady');
    });

    it('no trend of the wide scan is labelled fading while an instrument under it has still to land', () => {
      const { trends, items } = analyseOffline(loadCalendar(), {
        jurisdictions: ['EU', 'UK', 'US', 'Singapore', 'Hong Kong', 'Japan', 'Australia', 'Switzerland', 'Canada', 'Brazil', 'India', 'China', 'South Korea'],
        areas: ['Banking / Prudential', 'Capital Markets', 'Digital Assets / Crypto', 'AML / KYC', 'Payments', 'Data Privacy', 'Operational Resilience', 'ESG / Sustainable Finance', 'Sanctions', 'Consumer Protection'],
        horizonMonths: 36,
        scanDate: SCAN,
        engine: 'v4',
        realist: false,
        auditor: false,
      });
      expect(trends.length).toBeGreaterThan(0);
      const stageOf = new Map(items.map((item) => [item.id, item.stage]));
      for (const trend of trends) {
        expect(trend.description).toMatch(/Instruments: .+\. \d+ milestones? lies? ahead in the next 36 months/);
        if (trend.momentum === 'fading') expect(trend.item_ids.every((id) => stageOf.get(id) === 'applies')).toBe(true);
      }
      expect(trends.filter((t) => t.momentum === 'fading').length).toBeLessThan(trends.length / 2);
    });

    it('states its evidence in the trend description, so "rising" can be checked', () => {
      const { trends } = run([
        makeEntry({ id: 'eu-a', themes: ['stablecoins'], milestones: [{ date: '2027-01-10', event: 'Applies', confidence: 'confirmed' }] }),
        makeEntry({ id: 'uk-b', ...uk, themes: ['stablecoins'], milestones: [{ date: '2027-02-10', event: 'Applies', confidence: 'confirmed' }] }),
      ]);
      const trend = trends.find((t) => t.id === 'trend-theme-stablecoins')!;
      expect(trend.momentum).toBe('rising');
      expect(trend.description).toContain('Instruments: 2 adopted, not yet applying. 2 milestones lie ahead in the next 12 months, against 0 confirmed milestones in the previous 12 months.');
    });
  });
});
