import { loadCalendar } from '../calendar/calendar.loader';
import { keyDate, makeCalendar, makeEntry } from '../../../test/fixtures/calendar.fixture';
import { addMonths } from './dates';
import { MAX_SELECTED_ITEMS, milestonesInWindow, selectEntries, selectEntriesWithStats, windowEnd } from './selection';

const SCAN = '2026-11-22';
const HORIZONS = [3, 6, 12, 18, 24, 36];

describe('offline selection', () => {
  describe('hand-made calendar', () => {
    const calendar = makeCalendar([
      makeEntry({ id: 'eu-a', areas: ['AML / KYC'], milestones: [keyDate('2025-01-01'), keyDate('2027-01-10')] }),
      makeEntry({ id: 'eu-b', areas: ['Payments', 'AML / KYC'], milestones: [keyDate('2027-03-01')] }),
      makeEntry({ id: 'uk-c', jurisdiction: 'UK', regulator: 'FCA', areas: ['Payments'], milestones: [keyDate('2027-06-01')] }),
      makeEntry({ id: 'us-d', jurisdiction: 'US', regulator: 'SEC', areas: ['AML / KYC'], milestones: [keyDate('2027-01-01')] }),
      makeEntry({ id: 'eu-e', areas: ['Sanctions'], milestones: [keyDate('2027-01-01')] }),
      makeEntry({ id: 'eu-past', areas: ['AML / KYC'], milestones: [keyDate('2024-01-01'), keyDate('2026-11-21')] }),
    ]);

    it('matches jurisdiction AND area AND a key date inside the window', () => {
      const ids = selectEntries(calendar, {
        jurisdictions: ['EU', 'UK'],
        areas: ['AML / KYC', 'Payments'],
        horizonMonths: 12,
        scanDate: SCAN,
      }).map((s) => s.entry.id);
      expect(ids.sort()).toEqual(['eu-a', 'eu-b', 'uk-c']);
    });

    it('is case-insensitive and understands aliases for both jurisdictions and areas', () => {
      const a = selectEntries(calendar, {
        jurisdictions: ['european union', 'U.K.'],
        areas: ['anti money laundering', 'PAYMENTS'],
        horizonMonths: 12,
        scanDate: SCAN,
      });
      const b = selectEntries(calendar, { jurisdictions: ['EU', 'UK'], areas: ['AML/KYC', 'Payments'], horizonMonths: 12, scanDate: SCAN });
      expect(a.map((s) => s.entry.id)).toEqual(b.map((s) => s.entry.id));
      expect(a).toHaveLength(3);
    });

    it('files an item under the requested area most central to the instrument, whatever the request order', () => {
      const first = selectEntries(calendar, { jurisdictions: ['EU'], areas: ['Payments', 'AML / KYC'], horizonMonths: 12, scanDate: SCAN });
      expect(first.find((s) => s.entry.id === 'eu-b')?.area).toBe('Payments');
      expect(first.find((s) => s.entry.id === 'eu-a')?.area).toBe('AML / KYC');
      const swapped = selectEntries(calendar, { jurisdictions: ['EU'], areas: ['aml', 'payments'], horizonMonths: 12, scanDate: SCAN });
      expect(swapped.find((s) => s.entry.id === 'eu-b')?.area).toBe('Payments');
      const amlOnly = selectEntriesWithStats(calendar, { jurisdictions: ['EU'], areas: ['aml'], horizonMonths: 12, scanDate: SCAN });
      const incidental = amlOnly.selected.find((s) => s.entry.id === 'eu-b');
      expect(incidental).toMatchObject({ area: 'AML / KYC', centrality: 1 });
    });

    it('leads an item with its first firm milestone in the window, not an earlier year-only placeholder', () => {
      const cal = makeCalendar([
        makeEntry({
          id: 'eu-genius-like',
          milestones: [{ ...keyDate('2026-12-31', 'expected'), precision: 'year' }, keyDate('2027-01-18', 'confirmed'), keyDate('2027-06-01')],
        }),
        makeEntry({ id: 'eu-placeholders-only', milestones: [{ ...keyDate('2026-12-31', 'expected'), precision: 'year' }, { ...keyDate('2027-06-30', 'expected'), precision: 'half' }] }),
      ]);
      const selected = selectEntries(cal, { jurisdictions: ['EU'], areas: ['AML / KYC'], horizonMonths: 12, scanDate: SCAN });
      const genius = selected.find((s) => s.entry.id === 'eu-genius-like')!;
      expect(genius.nextKeyDate.date).toBe('2027-01-18');
      expect(genius.windowDates.map((m) => m.date)).toEqual(['2026-12-31', '2027-01-18', '2027-06-01']);
      expect(selected.find((s) => s.entry.id === 'eu-placeholders-only')!.nextKeyDate.date).toBe('2026-12-31');
    });

    it('never takes a past date as the next key date, and drops entries whose dates have all passed', () => {
      const selected = selectEntries(calendar, { jurisdictions: ['EU'], areas: ['AML / KYC'], horizonMonths: 36, scanDate: SCAN });
      expect(selected.map((s) => s.entry.id)).not.toContain('eu-past');
      for (const s of selected) expect(s.nextKeyDate.date >= SCAN).toBe(true);
      expect(selected.find((s) => s.entry.id === 'eu-a')?.nextKeyDate.date).toBe('2027-01-10');
    });

    it('unrecognised names select nothing and do not throw', () => {
      const result = selectEntriesWithStats(calendar, { jurisdictions: ['Narnia'], areas: ['Widgets'], horizonMonths: 12, scanDate: SCAN });
      expect(result.selected).toEqual([]);
      expect(result.unmatchedJurisdictions).toEqual(['Narnia']);
      expect(result.unmatchedAreas).toEqual(['Widgets']);
      expect(
        selectEntries(calendar, { jurisdictions: ['EU', 'Narnia'], areas: ['AML / KYC'], horizonMonths: 12, scanDate: SCAN }),
      ).not.toHaveLength(0);
    });

    it('rejects an invalid scan date or horizon (programming errors)', () => {
      expect(() => selectEntries(calendar, { jurisdictions: ['EU'], areas: ['AML'], horizonMonths: 12, scanDate: '2026-13-01' })).toThrow(
        RangeError,
      );
      expect(() => selectEntries(calendar, { jurisdictions: ['EU'], areas: ['AML'], horizonMonths: -1, scanDate: SCAN })).toThrow(
        RangeError,
      );
    });
  });

  describe('window edges', () => {
    const edges = makeCalendar([
      makeEntry({ id: 'eu-on-scan-date', milestones: [keyDate('2026-11-22')] }),
      makeEntry({ id: 'eu-day-before', milestones: [keyDate('2026-11-21')] }),
      makeEntry({ id: 'eu-on-end', milestones: [keyDate('2027-11-22')] }),
      makeEntry({ id: 'eu-day-after-end', milestones: [keyDate('2027-11-23')] }),
    ]);

    it('includes both the scan date and the window end; excludes the days outside', () => {
      const ids = selectEntries(edges, { jurisdictions: ['EU'], areas: ['AML / KYC'], horizonMonths: 12, scanDate: SCAN }).map(
        (s) => s.entry.id,
      );
      expect(ids.sort()).toEqual(['eu-on-end', 'eu-on-scan-date']);
    });

    it.each(HORIZONS)('horizon %p months: window end is scan date + months, inclusive', (h) => {
      const end = addMonths(SCAN, h);
      const cal = makeCalendar([
        makeEntry({ id: 'eu-end', milestones: [keyDate(end)] }),
        makeEntry({ id: 'eu-after', milestones: [keyDate(addMonths(SCAN, h + 1))] }),
      ]);
      expect(windowEnd(SCAN, h)).toBe(end);
      const ids = selectEntries(cal, { jurisdictions: ['EU'], areas: ['AML / KYC'], horizonMonths: h, scanDate: SCAN }).map(
        (s) => s.entry.id,
      );
      expect(ids).toEqual(['eu-end']);
    });

    it('clamps month-end arithmetic (31 August + 6 months ends on 28 February)', () => {
      const cal = makeCalendar([
        makeEntry({ id: 'eu-feb-28', milestones: [keyDate('2027-02-28')] }),
        makeEntry({ id: 'eu-mar-01', milestones: [keyDate('2027-03-01')] }),
        makeEntry({ id: 'eu-mar-03', milestones: [keyDate('2027-03-03')] }),
      ]);
      const result = selectEntriesWithStats(cal, { jurisdictions: ['EU'], areas: ['AML / KYC'], horizonMonths: 6, scanDate: '2026-08-31' });
      expect(result.windowEnd).toBe('2027-02-28');
      expect(result.selected.map((s) => s.entry.id)).toEqual(['eu-feb-28']);
    });

    it('milestonesInWindow returns only in-window dates, ascending', () => {
      const entry = makeEntry({
        id: 'eu-x',
        milestones: [keyDate('2026-01-01'), keyDate('2027-02-01'), keyDate('2027-01-01'), keyDate('2030-01-01')],
      });
      expect(milestonesInWindow(entry, SCAN, '2027-11-22').map((k) => k.date)).toEqual(['2027-01-01', '2027-02-01']);
    });
  });

  describe('ranking', () => {
    it('puts instruments whose main area was requested ahead of those that only touch it, whatever their impact', () => {
      const cal = makeCalendar([
        makeEntry({ id: 'eu-markets-rule', impact: 'high', areas: ['Capital Markets', 'Operational Resilience'], milestones: [keyDate('2026-12-01')] }),
        makeEntry({ id: 'eu-third-tag', impact: 'high', areas: ['Capital Markets', 'Payments', 'Operational Resilience'], milestones: [keyDate('2026-12-01')] }),
        makeEntry({ id: 'eu-resilience-guidance', impact: 'low', areas: ['Operational Resilience'], milestones: [keyDate('2027-09-01')] }),
        makeEntry({ id: 'eu-resilience-act', impact: 'medium', areas: ['Operational Resilience', 'Capital Markets'], milestones: [keyDate('2027-06-01')] }),
      ]);
      const result = selectEntriesWithStats(cal, { jurisdictions: ['EU'], areas: ['Operational Resilience'], horizonMonths: 12, scanDate: SCAN });
      expect(result.selected.map((s) => [s.entry.id, s.centrality])).toEqual([
        ['eu-resilience-act', 0],
        ['eu-resilience-guidance', 0],
        ['eu-markets-rule', 1],
        ['eu-third-tag', 2],
      ]);
      expect(result.selected[0].entry.areas[0]).toBe('Operational Resilience');
    });

    it('orders by impact, then next key date, then confidence, then id', () => {
      const cal = makeCalendar([
        makeEntry({ id: 'eu-low-early', impact: 'low', milestones: [keyDate('2026-12-01')] }),
        makeEntry({ id: 'eu-high-late', impact: 'high', milestones: [keyDate('2027-09-01')] }),
        makeEntry({ id: 'eu-high-early', impact: 'high', milestones: [keyDate('2027-01-01')] }),
        makeEntry({ id: 'eu-med-spec', impact: 'medium', milestones: [keyDate('2027-03-01', 'speculative')] }),
        makeEntry({ id: 'eu-med-expected', impact: 'medium', milestones: [keyDate('2027-03-01', 'expected')] }),
        makeEntry({ id: 'eu-med-confirmed-b', impact: 'medium', milestones: [keyDate('2027-03-01', 'confirmed')] }),
        makeEntry({ id: 'eu-med-confirmed-a', impact: 'medium', milestones: [keyDate('2027-03-01', 'confirmed')] }),
      ]);
      const ids = selectEntries(cal, { jurisdictions: ['EU'], areas: ['AML / KYC'], horizonMonths: 12, scanDate: SCAN }).map(
        (s) => s.entry.id,
      );
      expect(ids).toEqual([
        'eu-high-early',
        'eu-high-late',
        'eu-med-confirmed-a',
        'eu-med-confirmed-b',
        'eu-med-expected',
        'eu-med-spec',
        'eu-low-early',
      ]);
    });

    it('ranks a firm date before a placeholder period or an estimate of the same impact, however early the placeholder', () => {
      const cal = makeCalendar([
        makeEntry({ id: 'eu-end-of-year', impact: 'high', milestones: [{ ...keyDate('2026-12-31', 'expected'), precision: 'year' }] }),
        makeEntry({ id: 'eu-h1', impact: 'high', milestones: [{ ...keyDate('2027-06-30', 'expected'), precision: 'half' }] }),
        makeEntry({ id: 'eu-estimate', impact: 'high', milestones: [keyDate('2027-01-05', 'speculative')] }),
        makeEntry({ id: 'eu-firm-late', impact: 'high', milestones: [keyDate('2027-09-01', 'expected')] }),
        makeEntry({ id: 'eu-firm-month', impact: 'high', milestones: [{ ...keyDate('2027-10-31', 'confirmed'), precision: 'month' }] }),
        makeEntry({ id: 'eu-medium-firm', impact: 'medium', milestones: [keyDate('2027-01-01')] }),
      ]);
      const ids = selectEntries(cal, { jurisdictions: ['EU'], areas: ['AML / KYC'], horizonMonths: 12, scanDate: SCAN }).map(
        (s) => s.entry.id,
      );
      expect(ids).toEqual(['eu-firm-late', 'eu-firm-month', 'eu-end-of-year', 'eu-estimate', 'eu-h1', 'eu-medium-firm']);
    });

    it('caps the list, keeping the highest-ranked entries and reporting the total', () => {
      const entries = Array.from({ length: 50 }, (_, i) =>
        makeEntry({ id: `eu-${String(i).padStart(2, '0')}`, impact: i < 5 ? 'high' : 'low', milestones: [keyDate('2027-01-01')] }),
      );
      const result = selectEntriesWithStats(makeCalendar(entries), {
        jurisdictions: ['EU'],
        areas: ['AML / KYC'],
        horizonMonths: 12,
        scanDate: SCAN,
      });
      expect(result.selected).toHaveLength(MAX_SELECTED_ITEMS);
      expect(result.matchedCount).toBe(50);
      expect(result.capped).toBe(true);
      expect(result.selected.slice(0, 5).every((s) => s.entry.impact === 'high')).toBe(true);
      const small = selectEntriesWithStats(makeCalendar(entries), {
        jurisdictions: ['EU'],
        areas: ['AML / KYC'],
        horizonMonths: 12,
        scanDate: SCAN,
        maxItems: 3,
      });
      expect(small.selected.map((s) => s.entry.id)).toEqual(['eu-00', 'eu-01', 'eu-02']);
    });
  });

  describe('real calendar', () => {
    const calendar = loadCalendar();

    it('EU + UK, AML / KYC + Payments, 12 months from 2026-11-22 returns ranked, in-window items', () => {
      const selected = selectEntries(calendar, {
        jurisdictions: ['EU', 'UK'],
        areas: ['AML / KYC', 'Payments'],
        horizonMonths: 12,
        scanDate: SCAN,
      });
      expect(selected.length).toBeGreaterThanOrEqual(5);
      const ids = selected.map((s) => s.entry.id);
      expect(ids).toContain('eu-amlr-application');
      for (const s of selected) {
        expect(['EU', 'UK']).toContain(s.entry.jurisdiction);
        expect(['AML / KYC', 'Payments']).toContain(s.area);
        expect(s.entry.areas).toContain(s.area);
        expect(s.nextKeyDate.date >= SCAN && s.nextKeyDate.date <= '2027-11-22').toBe(true);
        expect(s.entry.milestones).toContainEqual(s.nextKeyDate);
      }
      const amlr = selected.find((s) => s.entry.id === 'eu-amlr-application');
      expect(amlr?.nextKeyDate.date).toBe('2027-07-10');
      const ranks = selected.map((s) => s.centrality * 3 + { high: 0, medium: 1, low: 2 }[s.entry.impact]);
      expect([...ranks].sort((a, b) => a - b)).toEqual(ranks);
    });

    it('a realistic scan (EU, UK, US x AML, Payments, Resilience, 18 months) is led by an instrument about a requested area', () => {
      const areas = ['AML / KYC', 'Payments', 'Operational Resilience'];
      const result = selectEntriesWithStats(calendar, { jurisdictions: ['EU', 'UK', 'US'], areas, horizonMonths: 18, scanDate: SCAN });
      expect(areas).toContain(result.selected[0].entry.areas[0]);
      const firstIncidental = result.matched.findIndex((s) => s.centrality > 0);
      if (firstIncidental >= 0) expect(result.matched.slice(firstIncidental).every((s) => s.centrality > 0)).toBe(true);
    });

    it.each(HORIZONS)('horizon %p: longer horizons never lose items and every next date is inside the window', (h) => {
      const criteria = { jurisdictions: ['EU', 'UK', 'US'], areas: ['AML / KYC', 'Payments', 'Crypto'], scanDate: SCAN, maxItems: 1000 };
      const selected = selectEntries(calendar, { ...criteria, horizonMonths: h });
      const end = addMonths(SCAN, h);
      for (const s of selected) expect(s.nextKeyDate.date >= SCAN && s.nextKeyDate.date <= end).toBe(true);
      if (h > 3) {
        const shorter = selectEntries(calendar, { ...criteria, horizonMonths: HORIZONS[HORIZONS.indexOf(h) - 1] });
        const ids = new Set(selected.map((s) => s.entry.id));
        for (const s of shorter) expect(ids.has(s.entry.id)).toBe(true);
      }
    });

    it('never presents a passed date as upcoming, for any scan date', () => {
      for (const scanDate of ['2026-01-01', '2026-11-22', '2027-07-11', '2028-03-31']) {
        const selected = selectEntries(calendar, {
          jurisdictions: ['EU', 'UK', 'US', 'Singapore', 'Hong Kong', 'Australia'],
          areas: ['AML / KYC', 'Payments', 'Digital Assets / Crypto', 'Banking / Prudential'],
          horizonMonths: 36,
          scanDate,
          maxItems: 1000,
        });
        for (const s of selected) expect(s.nextKeyDate.date >= scanDate).toBe(true);
      }
      // The AMLR applies on 2027-07-10; the day after, its next date is the 2029 milestone, or it is out of a short window.
      const short = selectEntries(calendar, { jurisdictions: ['EU'], areas: ['AML / KYC'], horizonMonths: 3, scanDate: '2027-07-11' });
      expect(short.map((s) => s.entry.id)).not.toContain('eu-amlr-application');
      const long = selectEntries(calendar, { jurisdictions: ['EU'], areas: ['AML / KYC'], horizonMonths: 36, scanDate: '2027-07-11' });
      expect(long.find((s) => s.entry.id === 'eu-amlr-application')?.nextKeyDate.date).toBe('2029-07-10');
    });
  });
});
