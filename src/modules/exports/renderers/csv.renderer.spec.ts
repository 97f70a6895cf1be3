import { parse } from 'csv-parse/sync';
import { CSV_COLUMNS, CSV_LIST_SEPARATOR, renderCsv } from './csv.renderer';
import { awkwardSnapshot, hardSnapshot, hardTitle, input, realisticSnapshot, syntheticSnapshot, zhSnapshot } from '../../../../test/fixtures/snapshots';
import { buildReferences } from './render-facts';

type Row = Record<string, string>;

function rows(bytes: Buffer): Row[] {
  return parse(bytes, { bom: true, columns: true, relax_column_count: false }) as Row[];
}

describe('csv renderer (internal-csv)', () => {
  it('is UTF-8 with a BOM, CRLF line ends, a header row and one row per item', async () => {
    const snapshot = realisticSnapshot();
    const out = await renderCsv(input(snapshot));
    expect(out.mime).toBe('text/csv; charset=utf-8');
    expect(out.filename).toBe('regulatory-horizon-eu-uk-2026-11-22-items.csv');
    expect([...out.bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = out.bytes.toString('utf8');
    expect(text.endsWith('\r\n')).toBe(true);
    const header = parse(out.bytes, { bom: true, to_line: 1 }) as string[][];
    expect(header[0]).toEqual([...CSV_COLUMNS]);
    const parsed = rows(out.bytes);
    expect(parsed).toHaveLength(snapshot.data.items.length);
    expect(new Set(parsed.map((row) => row.item_id))).toEqual(new Set(snapshot.data.items.map((item) => item.id)));
  });

  it('flattens every item field, citations and verification', async () => {
    const snapshot = realisticSnapshot();
    const parsed = rows((await renderCsv(input(snapshot))).bytes);
    for (const item of snapshot.data.items) {
      const row = parsed.find((candidate) => candidate.item_id === item.id)!;
      expect(row.title).toBe(item.title);
      expect(row.jurisdiction).toBe(item.jurisdiction);
      expect(row.area).toBe(item.area);
      expect(row.regulator).toBe(item.regulator);
      expect(row.instrument_type).toBe(item.instrument_type);
      expect(row.stage).toBe(item.stage);
      // The key date only as precisely as it is known: a year-only "expected 2026" is "2026", never 2026-12-31.
      const precision = item.key_date_precision ?? 'day';
      const expected = { day: item.key_date, month: item.key_date.slice(0, 7), year: item.key_date.slice(0, 4) }[precision as 'day'];
      if (expected && !(precision === 'day' && item.date_confidence === 'speculative')) expect(row.key_date).toBe(expected);
      expect(row.key_date).toMatch(/^\d{4}(-(\d{2}(-\d{2})?|Q[1-4]|H[12]))?$/);
      if (precision !== 'day') expect(row.key_date).not.toBe(item.key_date);
      expect(row.areas!.split(CSV_LIST_SEPARATOR)).toEqual(item.areas);
      expect(row.areas!.split(CSV_LIST_SEPARATOR)).toContain(row.area);
      expect(row.milestones!.split(CSV_LIST_SEPARATOR)).toHaveLength(item.timeline!.length);
      expect(row.date_confidence).toBe(item.date_confidence);
      expect(row.impact).toBe(item.impact);
      expect(row.summary).toBe(item.summary);
      expect(row.implications).toBe(item.implications);
      expect(row.verification_status).toBe(item.verification.status);
      expect(row.verification_passes).toBe(item.verification.passes.map((pass) => `${pass.pass}=${pass.status}`).join(CSV_LIST_SEPARATOR));
      expect(row.citation_count).toBe(String(item.citations.length));
      expect(row.citation_urls!.split(CSV_LIST_SEPARATOR)).toEqual(item.citations.map((citation) => citation.url));
      expect(row.citation_titles).toBe(item.citations.map((citation) => citation.title).join(CSV_LIST_SEPARATOR));
      expect(row.snapshot_id).toBe(snapshot.id);
      expect(row.scan_date).toBe('2026-11-22');
    }
  });

  it('keeps quotes, commas and line breaks inside fields, and defuses formulas', async () => {
    const snapshot = awkwardSnapshot();
    const parsed = rows((await renderCsv(input(snapshot))).bytes);
    expect(parsed).toHaveLength(snapshot.data.items.length);
    const first = parsed.find((row) => row.item_id === snapshot.data.items[0]!.id)!;
    expect(first.title).toBe('The "Quoted", comma, <b>bold</b> & <script>alert(1)</script> regulation');
    expect(first.summary).toBe('First line, with a comma and "quotes".\nSecond line after a line break; then a tab\there.');
    expect(first.implications).toBe(`'=HYPERLINK("http://example.invalid") must stay text`);
    const second = parsed.find((row) => row.item_id === snapshot.data.items[1]!.id)!;
    expect(second.title).toBe("Apostrophe's & ampersand — em dash … ellipsis");
  });

  it('carries Chinese text as UTF-8', async () => {
    const snapshot = zhSnapshot();
    const parsed = rows((await renderCsv(input(snapshot, {}, 'zh'))).bytes);
    expect(parsed.map((row) => row.title)).toEqual(expect.arrayContaining(snapshot.data.items.slice(0, 4).map((item) => item.title)));
  });

  it('writes 100 rows for 100 items', async () => {
    const parsed = rows((await renderCsv(input(syntheticSnapshot(100)))).bytes);
    expect(parsed).toHaveLength(100);
  });

  it('gives each row its date as precisely as it is known, its milestone, its source and its reference numbers', async () => {
    const hard = hardSnapshot();
    const parsed = rows((await renderCsv(input(hard))).bytes);
    expect(parsed).toHaveLength(100);
    const byId = new Map(parsed.map((row) => [row.item_id, row]));
    const references = buildReferences(hard.data.items);
    hard.data.items.forEach((item, index) => {
      const row = byId.get(item.id)!;
      expect(row.title).toBe(hardTitle(index));
      expect(row.key_date_precision).toBe(item.key_date_precision ?? 'day');
      expect(row.milestone).toBe(item.milestone ?? '');
      expect(row.source_url).toBe(item.citations[0]?.url ?? '');
      expect(row.reference_numbers).toBe(references.itemNumbers(item).join('; '));
      expect(row.selection).toBe('selected');
      expect(Number(row.rank)).toBe(index + 1);
    });
    expect(parsed.find((row) => row.key_date === '')!.key_date_label).toBe('date not set');
    expect(parsed.find((row) => row.key_date_precision === 'half')!.key_date_label).toMatch(/^expected H[12] 20\d\d$/);
    expect(parsed[0]!.scan_note).toContain('Offline scan of the curated regulatory calendar');
    expect(parsed[0]!.scan_note).toContain('Top 100 of 240 matching instruments');
  });

  it('adds a row per match the cap left out with option list=all_matched, after the selected ones', async () => {
    const snapshot = realisticSnapshot();
    const beyond = [
      { id: 'eu-extra', title: 'Extra instrument', jurisdiction: 'EU', area: 'Payments', regulator: 'EBA', stage: 'proposed' as const, impact: 'low' as const, key_date: '2027-06-30', date_confidence: 'expected' as const, key_date_precision: 'half' as const, milestone: 'Final text', citation: { url: 'https://www.eba.europa.eu/extra', title: 'Extra', publisher: 'EBA', published_at: '2026-01-02' } },
    ];
    const parsed = rows((await renderCsv({ ...input(snapshot, { list: 'all_matched', targetLanguage: 'fr' }), beyondCap: beyond })).bytes);
    expect(parsed).toHaveLength(snapshot.data.items.length + 1);
    expect(parsed.at(-1)).toMatchObject({ item_id: 'eu-extra', selection: 'beyond_cap', rank: String(snapshot.data.items.length + 1), key_date_label: 'expected H1 2027', source_url: 'https://www.eba.europa.eu/extra' });
    expect(parsed[0]!.scan_note).toContain('Requested in French; this snapshot has no French translation, so this artefact is in English.');
  });
});
