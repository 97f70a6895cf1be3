import type { SnapshotItem, SnapshotTrend } from '../envelope.types';
import { mergeSeats } from './council-merge';

function item(id: string, overrides: Partial<SnapshotItem> = {}): SnapshotItem {
  return {
    id,
    title: `Instrument ${id}`,
    jurisdiction: 'EU',
    area: 'payments',
    regulator: 'EBA',
    instrument_type: 'regulation',
    stage: 'adopted',
    key_date: '2027-01-01',
    date_confidence: 'confirmed',
    key_date_precision: 'day',
    milestone: 'Applies',
    impact: 'medium',
    summary: `Summary of ${id}.`,
    implications: 'Prepare.',
    citations: [{ id: 1, url: `https://example.test/${id}`, title: id, publisher: 'example', published_at: null }],
    verification: { status: 'unverified', passes: [] },
    ...overrides,
  };
}

const trend = (id: string, itemIds: string[]): SnapshotTrend => ({
  id,
  title: id,
  description: '',
  item_ids: itemIds,
  jurisdictions: [],
  areas: [],
  momentum: 'steady',
});

describe('mergeSeats', () => {
  it('counts items both seats report identically as agreed, keeping seat A prose', () => {
    const merged = mergeSeats(
      { items: [item('x', { summary: 'A says.' })], trends: [] },
      { items: [item('x', { summary: 'B says.' })], trends: [] },
    );
    expect(merged.counts).toEqual({ agreed: 1, disputed: 0, single_seat: 0 });
    expect(merged.items[0]).toMatchObject({
      id: 'x',
      summary: 'A says.',
      council: { agreement: 'agreed', seats: ['A', 'B'], disputes: [] },
    });
  });

  it('keeps a disagreement visible and takes the cautious value of each field, whichever seat holds it', () => {
    const merged = mergeSeats(
      {
        items: [item('x', { key_date: '2027-06-30', milestone: 'Late', impact: 'high', date_confidence: 'confirmed', stage: 'applies' })],
        trends: [],
      },
      {
        items: [item('x', { key_date: '2027-03-31', milestone: 'Early', impact: 'low', date_confidence: 'expected', stage: 'proposed' })],
        trends: [],
      },
    );
    expect(merged.counts).toEqual({ agreed: 0, disputed: 1, single_seat: 0 });
    const [x] = merged.items;
    expect(x).toMatchObject({ key_date: '2027-03-31', milestone: 'Early', impact: 'high', date_confidence: 'expected', stage: 'proposed' });
    expect(x.council.agreement).toBe('disputed');
    expect(x.council.disputes).toEqual([
      { field: 'stage', seat_a: 'applies', seat_b: 'proposed', composite: 'proposed', rule: 'earlier lifecycle stage' },
      { field: 'key_date', seat_a: '2027-06-30', seat_b: '2027-03-31', composite: '2027-03-31', rule: 'earlier key date' },
      { field: 'date_confidence', seat_a: 'confirmed', seat_b: 'expected', composite: 'expected', rule: 'lower date confidence' },
      { field: 'impact', seat_a: 'high', seat_b: 'low', composite: 'high', rule: 'higher impact' },
    ]);
  });

  it('keeps items only one seat reports, labelled with their seat, and ranks by impact, date and id', () => {
    const merged = mergeSeats(
      { items: [item('a-only', { impact: 'low' }), item('both')], trends: [] },
      { items: [item('both'), item('b-only', { impact: 'high' })], trends: [] },
    );
    expect(merged.counts).toEqual({ agreed: 1, disputed: 0, single_seat: 2 });
    expect(merged.items.map((i) => [i.id, i.council.agreement, i.council.seats])).toEqual([
      ['b-only', 'single_seat', ['B']],
      ['both', 'agreed', ['A', 'B']],
      ['a-only', 'single_seat', ['A']],
    ]);
  });

  it('renumbers citations snapshot-wide by URL, so the seats numbering apart never collides', () => {
    const shared = { id: 7, url: 'https://example.test/shared', title: 's', publisher: 'p', published_at: null };
    const merged = mergeSeats(
      { items: [item('x', { impact: 'high', citations: [{ ...shared, id: 3 }] })], trends: [] },
      {
        items: [
          item('x', { impact: 'high', citations: [shared] }),
          item('y', {
            citations: [
              { ...shared, id: 1 },
              { ...shared, id: 2, url: 'https://example.test/other' },
            ],
          }),
        ],
        trends: [],
      },
    );
    expect(merged.items.map((i) => i.citations.map((c) => [c.id, c.url]))).toEqual([
      [[1, 'https://example.test/shared']],
      [
        [1, 'https://example.test/shared'],
        [2, 'https://example.test/other'],
      ],
    ]);
  });

  it('merges both seats trends over the composite items, dropping duplicates by id', () => {
    const merged = mergeSeats(
      { items: [item('x')], trends: [trend('t1', ['x', 'gone'])] },
      { items: [item('y')], trends: [trend('t1', ['y']), trend('t2', ['y']), trend('t3', ['gone'])] },
    );
    expect(merged.trends.map((t) => [t.id, t.item_ids, t.jurisdictions])).toEqual([
      ['t1', ['x'], ['EU']],
      ['t2', ['y'], ['EU']],
    ]);
  });
});
