import { compareItems, DRIFT_FIELDS, driftOverlay, itemChanges, type RemovalContext } from './drift';

/** The removed items below are judged against a calendar that holds none of them, unless a test says otherwise. */
const CALENDAR: RemovalContext = { calendarIds: new Set(), matchedIds: new Set() };

const item = (id: string, overrides: Record<string, unknown> = {}) => ({
  id,
  title: `Instrument ${id}`,
  jurisdiction: 'EU',
  area: 'Payments',
  regulator: 'European Commission',
  instrument_type: 'regulation',
  stage: 'adopted',
  key_date: '2027-07-10',
  date_confidence: 'confirmed',
  impact: 'high',
  summary: `Summary of ${id}.`,
  implications: `Implications of ${id}.`,
  citations: [{ id: 1, url: 'https://example.com', title: 't', publisher: 'p', published_at: null }],
  verification: { status: 'unverified', passes: [] },
  ...overrides,
});

describe('drift', () => {
  it('compares the documented fields, in order', () => {
    expect(DRIFT_FIELDS).toEqual([
      'title',
      'stage',
      'key_date',
      'date_confidence',
      'impact',
      'summary',
      'implications',
      'regulator',
      'instrument_type',
    ]);
  });

  it('reports nothing for identical lists', () => {
    const items = [item('a'), item('b')];
    expect(compareItems(items, structuredClone(items), CALENDAR)).toEqual({
      summary: { added: 0, removed: 0, changed: 0, unchanged: 2 },
      added: [],
      removed: [],
      changed: [],
      removed_reasons: {},
    });
  });

  it('matches items by id, not by position', () => {
    const result = compareItems([item('b'), item('a')], [item('a'), item('b')], CALENDAR);
    expect(result.summary).toEqual({ added: 0, removed: 0, changed: 0, unchanged: 2 });
  });

  it('finds added items in the current order and removed items in the baseline order', () => {
    const result = compareItems([item('c'), item('a'), item('d')], [item('b'), item('a'), item('e')], CALENDAR);
    expect(result.added.map((i) => i.id)).toEqual(['c', 'd']);
    expect(result.removed.map((i) => i.id)).toEqual(['b', 'e']);
    expect(result.summary).toEqual({ added: 2, removed: 2, changed: 0, unchanged: 1 });
    // Added and removed elements are the items themselves.
    expect(result.added[0]).toEqual(item('c'));
    expect(result.removed[1]).toEqual(item('e'));
  });

  it('lists changed fields with before and after, in DRIFT_FIELDS order', () => {
    const before = item('a');
    const after = item('a', { key_date: '2027-09-01', stage: 'in_force', impact: 'medium', title: 'Renamed' });
    const result = compareItems([after], [before], CALENDAR);
    expect(result.changed).toEqual([
      {
        item_id: 'a',
        title: 'Renamed',
        fields: [
          { field: 'title', before: 'Instrument a', after: 'Renamed' },
          { field: 'stage', before: 'adopted', after: 'in_force' },
          { field: 'key_date', before: '2027-07-10', after: '2027-09-01' },
          { field: 'impact', before: 'high', after: 'medium' },
        ],
      },
    ]);
    expect(result.summary).toEqual({ added: 0, removed: 0, changed: 1, unchanged: 0 });
  });

  it('ignores fields outside the list (citations, verification, jurisdiction, area, unknown keys)', () => {
    const after = item('a', { citations: [], verification: { status: 'verified', passes: [] }, area: 'AML', jurisdiction: 'UK', extra: 1 });
    expect(compareItems([after], [item('a')], CALENDAR).summary).toEqual({ added: 0, removed: 0, changed: 0, unchanged: 1 });
  });

  it('reads a missing field as null and reports a field that appears or disappears', () => {
    const { regulator: _r, ...withoutRegulator } = item('a');
    expect(itemChanges(item('a'), withoutRegulator)).toEqual([{ field: 'regulator', before: 'European Commission', after: null }]);
    expect(itemChanges(withoutRegulator, item('a'))).toEqual([{ field: 'regulator', before: null, after: 'European Commission' }]);
    expect(itemChanges({ id: 'a', regulator: null }, { id: 'a' })).toEqual([]);
  });

  it('compares non-string values deeply, ignoring key order', () => {
    expect(itemChanges(item('a', { summary: { x: 1, y: [1, 2] } }), item('a', { summary: { y: [1, 2], x: 1 } }))).toEqual([]);
    expect(itemChanges(item('a', { summary: { x: 1 } }), item('a', { summary: { x: 2 } }))).toEqual([
      { field: 'summary', before: { x: 1 }, after: { x: 2 } },
    ]);
    expect(itemChanges(item('a', { impact: 1 }), item('a', { impact: '1' }))).toHaveLength(1);
  });

  it('skips entries without a string id and keeps the first of repeated ids', () => {
    const current = [item('a'), { title: 'no id' }, 'junk', null, item('a', { title: 'second a' }), { id: 7 }];
    const baseline = [item('a'), { title: 'also no id' }];
    expect(compareItems(current, baseline, CALENDAR)).toEqual({
      summary: { added: 0, removed: 0, changed: 0, unchanged: 1 },
      added: [],
      removed: [],
      changed: [],
      removed_reasons: {},
    });
  });

  it('treats empty lists on either side as all added or all removed', () => {
    expect(compareItems([item('a')], [], CALENDAR).summary).toEqual({ added: 1, removed: 0, changed: 0, unchanged: 0 });
    expect(compareItems([], [item('a')], CALENDAR).summary).toEqual({ added: 0, removed: 1, changed: 0, unchanged: 0 });
  });

  it('falls back to the baseline title when the current item has none', () => {
    const { title: _t, ...untitled } = item('a');
    expect(compareItems([untitled], [item('a')], CALENDAR).changed[0]).toMatchObject({ item_id: 'a', title: 'Instrument a' });
  });

  it('builds the overlay, or {available: false} without a baseline', () => {
    expect(driftOverlay([item('a')], null, CALENDAR)).toEqual({ available: false });
    const createdAt = new Date('2026-11-01T10:00:00.000Z');
    expect(driftOverlay([item('a'), item('b')], { snapshot: { id: 'base-id', createdAt }, items: [item('a')] }, CALENDAR)).toEqual({
      available: true,
      baseline_snapshot_id: 'base-id',
      baseline_created_at: '2026-11-01T10:00:00.000Z',
      summary: { added: 1, removed: 0, changed: 0, unchanged: 1 },
      added: [item('b')],
      removed: [],
      changed: [],
      removed_reasons: {},
    });
  });

  it('says why each removed item is gone: the cap, the scope, the calendar, or web sources not found again', () => {
    const context: RemovalContext = { calendarIds: new Set(['capped', 'elsewhere']), matchedIds: new Set(['capped']) };
    const baseline = [item('kept'), item('capped'), item('elsewhere'), item('retired'), item('web-0123456789')];
    const result = compareItems([item('kept')], baseline, context);
    expect(result.removed_reasons).toEqual({
      capped: 'dropped_by_cap',
      elsewhere: 'outside_scope',
      retired: 'left_calendar',
      'web-0123456789': 'not_found_again',
    });
    expect(Object.keys(result.removed_reasons)).toEqual(result.removed.map((i) => i.id));
  });
});
