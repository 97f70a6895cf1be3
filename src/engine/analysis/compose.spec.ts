import { JURISDICTIONS } from '../../domain/vocabulary/jurisdictions';
import { AREAS } from '../../domain/vocabulary/areas';
import { loadCalendar } from '../calendar/calendar.loader';
import { keyDate, makeCalendar, makeEntry } from '../../../test/fixtures/calendar.fixture';
import { type OfflineAnalysis, analyseOffline, composeOfflineEnvelope, keyDateClause } from './compose';
import { MAX_SELECTED_ITEMS, SELECTION_ORDER, selectEntriesWithStats } from './selection';

const SCAN = '2026-11-22';
const HORIZONS = [3, 6, 12, 18, 24, 36];
const calendar = loadCalendar();

const realistic = {
  jurisdictions: ['EU', 'UK'],
  areas: ['AML / KYC', 'Payments'],
  horizonMonths: 12,
  scanDate: SCAN,
  engine: 'v4',
  realist: true,
  auditor: true,
};

function markers(text: string): number[] {
  return [...text.matchAll(/\[\[cite:(\d+)\]\]/g)].map((m) => Number(m[1]));
}

function allProse(r: OfflineAnalysis): string[] {
  return [
    r.executive_summary.bottom_line,
    ...r.executive_summary.priorities,
    r.executive_narrative,
    ...Object.values(r._briefing).flat(),
    ...r.items.flatMap((i) => [i.summary, i.implications, ...i.verification.passes.map((p) => p.note)]),
    ...r.trends.flatMap((t) => [t.title, t.description]),
  ];
}

function expectWellFormed(r: OfflineAnalysis) {
  const citationIds = r.items.flatMap((i) => i.citations.map((c) => c.id));
  expect(citationIds).toEqual(citationIds.map((_, i) => i + 1));
  const known = new Set(citationIds);
  for (const n of markers(r.executive_narrative)) expect(known.has(n)).toBe(true);
  for (const text of allProse(r)) {
    expect(typeof text).toBe('string');
    expect(text).not.toMatch(/undefined|NaN|null|\[object/);
    expect(text).not.toMatch(/ {2}/);
  }
  for (const item of r.items) expect(item.key_date >= r._meta.scan_date && item.key_date <= r._meta.window_end).toBe(true);
  expect(JSON.parse(JSON.stringify(r))).toEqual(r);
}

describe('composeOfflineEnvelope', () => {
  describe('realistic run: EU + UK, AML / KYC + Payments, 12 months from 2026-11-22', () => {
    const result = analyseOffline(calendar, realistic);

    it('returns calendar items with every envelope item field', () => {
      expect(result.items.length).toBeGreaterThanOrEqual(5);
      const byId = new Map(calendar.entries.map((e) => [e.id, e]));
      for (const item of result.items) {
        const entry = byId.get(item.id);
        expect(entry).toBeDefined();
        if (!entry) continue;
        expect(Object.keys(item).sort()).toEqual(
          [
            'area',
            'areas',
            'citations',
            'date_confidence',
            'id',
            'implications',
            'impact',
            'instrument_type',
            'jurisdiction',
            'key_date',
            'key_date_precision',
            'milestone',
            'regulator',
            'stage',
            'summary',
            'timeline',
            'title',
            'verification',
          ].sort(),
        );
        expect(item).toMatchObject({
          title: entry.title,
          jurisdiction: entry.jurisdiction,
          regulator: entry.regulator,
          instrument_type: entry.instrument_type,
          stage: entry.stage,
          impact: entry.impact,
        });
        expect(['AML / KYC', 'Payments']).toContain(item.area);
        const kd = entry.milestones.find((k) => k.date === item.key_date);
        expect(kd?.confidence).toBe(item.date_confidence);
        // The milestone is the event of the key date, and its precision is carried so no artefact prints a period as a day.
        expect(item.milestone).toBe(kd?.event);
        expect(item.key_date_precision).toBe(kd?.precision ?? 'day');
        expect(item.summary.startsWith(entry.summary.trim())).toBe(true);
        expect(item.summary).toContain(keyDateClause(kd!));
        expect(item.citations.map((c) => c.url).sort()).toEqual(entry.sources.map((s) => s.url).sort());
        expect(item.citations[0].kind).toBe(entry.sources.some((s) => s.kind === 'official') ? 'official' : 'secondary');
        // Every milestone the item shows cites the document that states its date.
        for (const m of item.timeline ?? []) {
          const stated = entry.milestones.find((k) => k.date === m.date && k.event === m.event);
          expect(item.citations.find((c) => c.id === m.citation_id)?.url).toBe(stated?.source);
        }
        for (const c of item.citations) expect(c.published_at === null || /^\d{4}-\d{2}-\d{2}$/.test(c.published_at)).toBe(true);
        expect(['verified', 'unverified', 'disputed']).toContain(item.verification.status);
        expect(item.verification.passes.map((p) => p.pass)).toEqual(['realist', 'auditor']);
      }
      const amlr = result.items.find((i) => i.id === 'eu-amlr-application');
      expect(amlr?.key_date).toBe('2027-07-10');
      expect(amlr?.summary).toContain('On 10 July 2027: general application');
    });

    it('numbers citations 1..N across the snapshot and every [[cite:N]] marker is valid', () => {
      expectWellFormed(result);
      expect(markers(result.executive_narrative).length).toBeGreaterThan(0);
      // Markers sit right after a sentence.
      expect(result.executive_narrative).toMatch(/[.] \[\[cite:\d+\]\]/);
      expect(result.executive_narrative).not.toMatch(/\w\[\[cite/);
    });

    it('writes a 2-4 paragraph narrative, an executive summary and a briefing block from the items', () => {
      const paragraphs = result.executive_narrative.split('\n\n');
      expect(paragraphs.length).toBeGreaterThanOrEqual(2);
      expect(paragraphs.length).toBeLessThanOrEqual(4);
      expect(result.executive_narrative).toContain(result.items[0].title);
      expect(result.executive_summary.bottom_line).toMatch(new RegExp(`^${result.items.length} instruments in EU and UK`));
      expect(result.executive_summary.priorities.length).toBeGreaterThanOrEqual(3);
      expect(result.executive_summary.priorities.length).toBeLessThanOrEqual(5);
      const b = result._briefing;
      for (const key of [
        'briefing_headline',
        'briefing_standfirst',
        'bottom_line_tight',
        'pull_quote',
        'sentiment_label',
        'sentiment_rationale',
      ] as const) {
        expect(b[key].length).toBeGreaterThan(0);
      }
      expect(['intensifying', 'steady', 'easing']).toContain(b.sentiment_label);
      expect(b.priorities.length).toBeGreaterThanOrEqual(3);
      for (const p of b.priorities) expect(p).toMatch(/^\[(EU|UK)\] \S/);
      expect(b.priorities.some((p) => p.startsWith('[EU] AMLR, 10 Jul 2027'))).toBe(true);
      expect(b.bottom_line_tight.length).toBeLessThanOrEqual(160);
    });

    it('groups trends by rule over the selected items', () => {
      expect(result.trends.length).toBeGreaterThan(0);
      expect(result.trends.length).toBeLessThanOrEqual(6);
      const ids = new Set(result.items.map((i) => i.id));
      for (const t of result.trends) {
        expect(t.id).toMatch(/^trend-(theme|area|regulator)-[a-z0-9-]+$/);
        expect(t.item_ids.every((id) => ids.has(id))).toBe(true);
      }
      expect(result.trends.some((t) => t.id === 'trend-area-payments')).toBe(true);
    });

    it('fills _meta, the auditor sidecar and the plain map', () => {
      expect(result._meta).toEqual({
        engine_mode: 'offline',
        engine: 'v4',
        calendar_version: calendar.version,
        scan_date: SCAN,
        horizon_months: 12,
        window_end: '2027-11-22',
        selected_count: result.items.length,
        matched_count: result.items.length,
        capped: false,
        selection: { max_items: MAX_SELECTED_ITEMS, order: SELECTION_ORDER },
        matched_summary: expect.objectContaining({ count: result.items.length, shown: result.items.length }),
        matched_jurisdictions: ['EU', 'UK'],
        unmatched_jurisdictions: [],
        matched_areas: ['AML / KYC', 'Payments'],
        unmatched_areas: [],
      });
      expect(result.auditor.ran).toBe(true);
      expect(result.auditor.passes).toEqual(['realist', 'auditor']);
      expect(result.auditor.verified_count).toBe(result.items.filter((i) => i.verification.status === 'verified').length);
      expect(result.auditor.verified_count).toBeGreaterThan(0);
      expect(Object.keys(result.plain).sort()).toEqual(result.items.map((i) => i.id).sort());
      const amlrEntry = calendar.entries.find((e) => e.id === 'eu-amlr-application');
      expect(result.plain['eu-amlr-application']).toBe(amlrEntry?.plain_summary);
    });

    it('is deterministic: same inputs, same output, whatever the calendar order; never reads the clock', () => {
      const now = jest.spyOn(Date, 'now');
      try {
        const again = analyseOffline(calendar, realistic);
        const shuffled = analyseOffline({ ...calendar, entries: [...calendar.entries].reverse() }, realistic);
        expect(again).toEqual(result);
        expect(shuffled).toEqual(result);
        expect(now).not.toHaveBeenCalled();
      } finally {
        now.mockRestore();
      }
    });

    it('accepts aliases and case variants with the same result', () => {
      const aliased = analyseOffline(calendar, {
        ...realistic,
        jurisdictions: ['european union', 'U.K.'],
        areas: ['anti-money laundering', 'payments'],
      });
      expect(aliased.items).toEqual(result.items);
      expect(aliased.trends).toEqual(result.trends);
    });
  });

  it.each(HORIZONS)('real calendar, many jurisdictions and areas, %p months: well-formed', (h) => {
    const r = analyseOffline(calendar, {
      jurisdictions: JURISDICTIONS.map((j) => j.id),
      areas: AREAS.map((a) => a.id),
      horizonMonths: h,
      scanDate: SCAN,
      engine: 'v4.5-alpha',
      realist: true,
      auditor: true,
    });
    expect(r.items.length).toBeGreaterThan(0);
    expect(r.items.length).toBeLessThanOrEqual(40);
    expectWellFormed(r);
    expect(r._meta.window_end).toBe(
      { 3: '2027-02-22', 6: '2027-05-22', 12: '2027-11-22', 18: '2028-05-22', 24: '2028-11-22', 36: '2029-11-22' }[h],
    );
    if (r._meta.capped) {
      expect(r._meta.matched_count).toBeGreaterThan(r.items.length);
      expect(r.executive_narrative).toContain(`holds ${r._meta.matched_count} instruments`);
      expect(r.executive_narrative).toContain(`covers the ${r.items.length} highest-ranked`);
    }
    // Only the three http-only sources in the calendar can be disputed by the auditor.
    for (const id of r.auditor.flagged_item_ids) {
      const item = r.items.find((i) => i.id === id);
      expect(item?.citations.some((c) => c.url.startsWith('http://'))).toBe(true);
    }
  });

  it('an honest empty result: nothing matched, unmatched names listed, briefing still present', () => {
    const r = analyseOffline(calendar, {
      jurisdictions: ['Narnia', 'EU'],
      areas: ['Widgets'],
      horizonMonths: 6,
      scanDate: SCAN,
      engine: 'v4',
      realist: true,
      auditor: true,
    });
    expect(r.items).toEqual([]);
    expect(r.trends).toEqual([]);
    expect(r.executive_summary.bottom_line).toMatch(/^No instrument in the regulatory calendar matches EU/);
    expect(r.executive_summary.bottom_line).toContain("'Narnia'");
    expect(r.executive_summary.bottom_line).toContain("'Widgets'");
    expect(r.executive_summary.priorities).toEqual([]);
    expect(r.executive_narrative).toContain("'Narnia'");
    expect(markers(r.executive_narrative)).toEqual([]);
    expect(r._briefing.briefing_headline).toMatch(/^No calendar milestones/);
    expect(r._briefing.sentiment_label).toBe('quiet');
    expect(r._meta).toMatchObject({
      selected_count: 0,
      unmatched_jurisdictions: ['Narnia'],
      unmatched_areas: ['Widgets'],
      matched_jurisdictions: ['EU'],
    });
    expect(r.auditor).toEqual({ ran: true, passes: ['realist', 'auditor'], verified_count: 0, flagged_item_ids: [] });
    expectWellFormed(r);
  });

  it('an item whose dates have all passed is never presented as upcoming', () => {
    const cal = makeCalendar([
      makeEntry({ id: 'eu-done', milestones: [keyDate('2025-01-01'), keyDate('2026-11-21')] }),
      makeEntry({ id: 'eu-next', milestones: [keyDate('2026-06-01'), keyDate('2027-03-01', 'expected')] }),
    ]);
    const r = analyseOffline(cal, {
      jurisdictions: ['EU'],
      areas: ['AML / KYC'],
      horizonMonths: 36,
      scanDate: SCAN,
      engine: 'v4',
      realist: false,
      auditor: false,
    });
    expect(r.items.map((i) => [i.id, i.key_date, i.date_confidence])).toEqual([['eu-next', '2027-03-01', 'expected']]);
    expect(r.items[0].summary).toContain('Expected on 1 March 2027: application date.');
    expect(r.executive_narrative).not.toContain('2026-11-21');
  });

  it('shows slipped and unconfirmed milestones as such, never as upcoming, each citing the document that states it', () => {
    const official = { url: 'https://eur-lex.europa.eu/eli/reg/2024/1624/oj', title: 'Regulation', publisher: 'EUR-Lex', kind: 'official' as const };
    const briefing = { url: 'https://www.example-law.com/briefing', title: 'Briefing', publisher: 'Example LLP', kind: 'secondary' as const };
    const cal = makeCalendar([
      makeEntry({
        id: 'eu-moving',
        sources: [briefing, official],
        milestones: [
          { ...keyDate('2026-09-30', 'expected', 'Level 2 standards adopted'), precision: 'quarter', slipped: true, source: briefing.url },
          { ...keyDate('2026-11-01', 'expected', 'Guidelines published'), source: briefing.url },
          {
            ...keyDate('2027-07-10', 'confirmed', 'Rules apply'),
            source: official.url,
            history: [{ date: '2027-01-10', precision: 'day', source: briefing.url }],
          },
          { ...keyDate('2028-07-10', 'confirmed', 'Second phase applies'), source: official.url },
        ],
      }),
    ]);
    const r = analyseOffline(cal, { jurisdictions: ['EU'], areas: ['AML / KYC'], horizonMonths: 36, scanDate: SCAN, engine: 'v4', realist: false, auditor: false });
    const [item] = r.items;
    expect(item).toMatchObject({ key_date: '2027-07-10', milestone: 'Rules apply' });
    expect(item.citations.map((c) => [c.id, c.kind])).toEqual([
      [1, 'official'],
      [2, 'secondary'],
    ]);
    expect(item.timeline).toEqual([
      { date: '2026-09-30', precision: 'quarter', event: 'Level 2 standards adopted', confidence: 'expected', status: 'slipped', citation_id: 2 },
      { date: '2026-11-01', precision: 'day', event: 'Guidelines published', confidence: 'expected', status: 'unconfirmed', citation_id: 2 },
      {
        date: '2027-07-10',
        precision: 'day',
        event: 'Rules apply',
        confidence: 'confirmed',
        status: 'upcoming',
        citation_id: 1,
        previous_dates: [{ date: '2027-01-10', precision: 'day' }],
      },
      { date: '2028-07-10', precision: 'day', event: 'Second phase applies', confidence: 'confirmed', status: 'upcoming', citation_id: 1 },
    ]);
    expect(item.summary).toContain('On 10 July 2027: rules apply.');
    expect(item.summary).toContain('Slipped: Level 2 standards adopted was expected in Q3 2026; no new date has been announced.');
    expect(item.summary).toContain('Unconfirmed: guidelines published was due on 1 November 2026; the calendar records no outcome yet.');
  });

  it('leaves out an instrument whose only pending milestone slipped, and never counts a slipped date as upcoming', () => {
    const cal = makeCalendar([makeEntry({ id: 'eu-stalled', milestones: [{ ...keyDate('2027-03-01', 'expected', 'Adoption'), slipped: true }] })]);
    const r = analyseOffline(cal, { jurisdictions: ['EU'], areas: ['AML / KYC'], horizonMonths: 12, scanDate: SCAN, engine: 'v4', realist: false, auditor: false });
    expect(r.items).toEqual([]);
  });

  it('writes one clause per key-date confidence', () => {
    expect(keyDateClause(keyDate('2027-07-10', 'confirmed', 'Application date'))).toBe('On 10 July 2027: application date.');
    expect(keyDateClause(keyDate('2027-07-10', 'expected', 'Final rules published.'))).toBe(
      'Expected on 10 July 2027: final rules published.',
    );
    expect(keyDateClause(keyDate('2027-07-10', 'speculative', 'Commission review'))).toBe(
      'Estimated for July 2027 (not yet announced): Commission review.',
    );
  });

  it('prints a placeholder date as the period it stands for, in the summary, the narrative and the briefing', () => {
    const cal = makeCalendar([
      makeEntry({ id: 'eu-h2', impact: 'high', title: 'Half-year rule', milestones: [{ ...keyDate('2026-12-31', 'expected', 'Final text published'), precision: 'half' }] }),
      makeEntry({ id: 'eu-q1', impact: 'high', title: 'Quarter rule', milestones: [{ ...keyDate('2027-03-31', 'speculative', 'Guidance'), precision: 'quarter' }] }),
    ]);
    const r = analyseOffline(cal, { jurisdictions: ['EU'], areas: ['AML / KYC'], horizonMonths: 12, scanDate: SCAN, engine: 'v4', realist: false, auditor: false });
    const h2 = r.items.find((i) => i.id === 'eu-h2')!;
    expect(h2).toMatchObject({ key_date: '2026-12-31', key_date_precision: 'half', milestone: 'Final text published' });
    expect(h2.summary).toContain('Expected in H2 2026: final text published.');
    expect(r.items.find((i) => i.id === 'eu-q1')!.summary).toContain('Estimated for Q1 2027 (not yet announced): guidance.');
    const prose = [r.executive_narrative, r.executive_summary.bottom_line, ...r.executive_summary.priorities, ...Object.values(r._briefing).flat()].join(' ');
    expect(prose).not.toMatch(/31 (December|Dec) 2026|31 (March|Mar) 2027/);
    expect(r._briefing.priorities[0]).toBe('[EU] Half-year rule, expected H2 2026: final text published');
  });

  it('never names a placeholder as "first up" when a firm date exists', () => {
    const cal = makeCalendar([
      makeEntry({ id: 'eu-placeholder', impact: 'high', title: 'Placeholder rule', milestones: [{ ...keyDate('2026-12-31', 'expected', 'Final text'), precision: 'year' }] }),
      makeEntry({ id: 'eu-firm', impact: 'low', title: 'Firm rule', milestones: [keyDate('2027-05-01', 'confirmed', 'Applies')] }),
    ]);
    const r = analyseOffline(cal, { jurisdictions: ['EU'], areas: ['AML / KYC'], horizonMonths: 12, scanDate: SCAN, engine: 'v4', realist: false, auditor: false });
    expect(r._briefing.bottom_line_tight).toContain('first up: Firm rule (EU) on 1 May 2027.');
  });

  it('counts in the prose cover every match, not the items shown; without the rest they say they cover the shown ones', () => {
    const entries = Array.from({ length: 6 }, (_, i) =>
      makeEntry({ id: `eu-${i}`, impact: i < 2 ? 'high' : i < 4 ? 'medium' : 'low', milestones: [keyDate(`2027-0${i + 1}-15`, i % 2 === 0 ? 'confirmed' : 'expected')] }),
    );
    const cal = makeCalendar(entries);
    const criteria = { jurisdictions: ['EU'], areas: ['AML / KYC'], horizonMonths: 12, scanDate: SCAN, maxItems: 2 };
    const sel = selectEntriesWithStats(cal, criteria);
    const ctx = { ...criteria, engine: 'v4', realist: false, auditor: false, calendarVersion: cal.version, matchedCount: sel.matchedCount };

    const all = composeOfflineEnvelope(sel.selected, cal, { ...ctx, beyondCap: sel.matched.slice(2) });
    expect(all.items).toHaveLength(2);
    expect(all.executive_narrative).toContain('Across all 6, by impact, 2 are high, 2 medium and 2 low; of the next key dates, 3 are confirmed and 3 expected.');
    expect(all.executive_summary.bottom_line).toContain('6 instruments in EU fall due for AML / KYC in the 12 months to 22 November 2027 (the 2 highest-ranked of 6 shown); 2 are high impact.');
    expect(all._briefing.briefing_standfirst).toContain('6 instruments across AML / KYC fall due between 22 Nov 2026 and 22 Nov 2027: 2 high impact, 3 with confirmed dates.');
    expect(all._briefing.briefing_headline).toBe('Instrument eu-0 heads 6 regulatory instruments due for EU over 12 months');
    expect(all._meta.matched_summary).toMatchObject({ count: 6, shown: 2, by_impact: { high: 2, medium: 2, low: 2 } });
    // "First up" names an instrument the reader finds in the document, never an earlier one the cap left out.
    const early = makeCalendar([
      makeEntry({ id: 'eu-a', impact: 'high', milestones: [keyDate('2027-06-01')] }),
      makeEntry({ id: 'eu-b', impact: 'high', milestones: [keyDate('2027-07-01')] }),
      makeEntry({ id: 'eu-c', impact: 'low', milestones: [keyDate('2026-12-15')] }),
    ]);
    const capped = analyseOffline(early, { ...criteria, engine: 'v4', realist: false, auditor: false });
    expect(capped.items.map((item) => item.id)).toEqual(['eu-a', 'eu-b']);
    expect(capped._briefing.bottom_line_tight).toContain('first up: Instrument eu-a (EU)');

    const shownOnly = composeOfflineEnvelope(sel.selected, cal, ctx);
    expect(shownOnly.executive_narrative).toContain('Of the 2 covered, by impact, 2 are high');
    expect(shownOnly.executive_summary.bottom_line).toContain('2 of the 2 shown are high impact');
  });

  it('summarises every match in _meta.matched_summary: each requested jurisdiction and area, even with nothing matched or shown', () => {
    const cal = makeCalendar([
      ...Array.from({ length: 5 }, (_, i) =>
        makeEntry({ id: `eu-${i}`, impact: 'high', areas: ['AML / KYC', 'Payments'], milestones: [keyDate(`2027-0${i + 1}-15`), { ...keyDate('2028-12-31', 'expected'), precision: 'year' }] }),
      ),
      makeEntry({ id: 'uk-0', jurisdiction: 'UK', regulator: 'FCA', impact: 'low', areas: ['Payments'], milestones: [keyDate('2027-05-01')] }),
    ]);
    const r = analyseOffline(cal, { jurisdictions: ['Singapore', 'UK', 'EU'], areas: ['Payments', 'Sanctions', 'AML / KYC'], horizonMonths: 36, scanDate: SCAN, engine: 'v4', realist: false, auditor: false, maxItems: 3 });
    expect(r._meta.matched_summary).toEqual({
      count: 6,
      shown: 3,
      by_impact: { high: 5, medium: 0, low: 1 },
      by_date_confidence: { confirmed: 6, expected: 0, speculative: 0 },
      by_stage: { adopted: 6 },
      by_jurisdiction: [
        { id: 'Singapore', matched: 0, shown: 0, by_impact: { high: 0, medium: 0, low: 0 } },
        { id: 'UK', matched: 1, shown: 0, by_impact: { high: 0, medium: 0, low: 1 } },
        { id: 'EU', matched: 5, shown: 3, by_impact: { high: 5, medium: 0, low: 0 } },
      ],
      by_area: [
        { id: 'Payments', matched: 1, shown: 0, by_impact: { high: 0, medium: 0, low: 1 } },
        { id: 'Sanctions', matched: 0, shown: 0, by_impact: { high: 0, medium: 0, low: 0 } },
        { id: 'AML / KYC', matched: 5, shown: 3, by_impact: { high: 5, medium: 0, low: 0 } },
      ],
      by_year: [{ year: '2027', matched: 6 }],
      by_quarter: [
        { quarter: '2027-Q1', milestones: 3, by_jurisdiction: { EU: 3 } },
        { quarter: '2027-Q2', milestones: 3, by_jurisdiction: { EU: 2, UK: 1 } },
      ],
      undated_in_quarter: 5,
    });
  });

  it('hand-made calendar: sentiment and briefing follow the rules', () => {
    const highs = makeCalendar(
      ['a', 'b', 'c'].map((s) => makeEntry({ id: `eu-${s}`, impact: 'high', stage: 'applies', milestones: [keyDate('2027-01-01')] })),
    );
    const ctx = {
      jurisdictions: ['EU'],
      areas: ['AML / KYC'],
      horizonMonths: 12,
      scanDate: SCAN,
      engine: 'v4',
      realist: false,
      auditor: false,
    };
    const intense = analyseOffline(highs, ctx)._briefing;
    expect(intense.sentiment_label).toBe('intensifying');
    expect(intense.briefing_headline).toBe('Instrument eu-a heads 3 regulatory instruments due for EU over 12 months');
    expect(intense.pull_quote).toBe('All 3 milestones land in the first 6 months of the 12-month window.');

    const proposals = makeCalendar(
      ['a', 'b'].map((s) =>
        makeEntry({ id: `eu-${s}`, impact: 'low', stage: 'proposed', milestones: [keyDate('2027-10-01', 'speculative')] }),
      ),
    );
    const calm = analyseOffline(proposals, ctx)._briefing;
    expect(calm.sentiment_label).toBe('easing');
    expect(calm.pull_quote).toBe('Nothing lands before October 2027: the first milestone is Instrument eu-a (EU).');

    const mixed = makeCalendar([
      makeEntry({ id: 'eu-a', impact: 'medium', stage: 'adopted', milestones: [keyDate('2027-05-01', 'expected')] }),
      makeEntry({ id: 'eu-b', impact: 'low', stage: 'adopted', milestones: [keyDate('2027-08-01')] }),
    ]);
    expect(analyseOffline(mixed, ctx)._briefing.sentiment_label).toBe('steady');
  });

  it('composeOfflineEnvelope reports the pre-cap count it is given', () => {
    const entries = Array.from({ length: 5 }, (_, i) => makeEntry({ id: `eu-${i}` }));
    const cal = makeCalendar(entries);
    const criteria = { jurisdictions: ['EU'], areas: ['AML / KYC'], horizonMonths: 12, scanDate: SCAN, maxItems: 2 };
    const sel = selectEntriesWithStats(cal, criteria);
    const r = composeOfflineEnvelope(sel.selected, cal, {
      ...criteria,
      engine: 'v4',
      realist: false,
      auditor: false,
      calendarVersion: cal.version,
      matchedCount: sel.matchedCount,
    });
    expect(r._meta).toMatchObject({ selected_count: 2, matched_count: 5, capped: true });
    expect(r.executive_summary.bottom_line).toContain('(the 2 highest-ranked of 5 shown)');
  });
});
