import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AREAS } from '../../domain/vocabulary/areas';
import { JURISDICTIONS } from '../../domain/vocabulary/jurisdictions';
import { JURISDICTION_FILE_CODES, defaultCalendarDir, loadCalendar, validateCalendarFiles } from './calendar.loader';
import type { CalendarEntry, CalendarFile } from './calendar.types';

const SCAN_DATE = '2026-11-22';
const HORIZONS = [3, 6, 12, 18, 24, 36];

function addMonths(iso: string, months: number): string {
  const [y, m, d] = iso.split('-').map(Number);
  const date = new Date(Date.UTC(y, m - 1 + months, d));
  return date.toISOString().slice(0, 10);
}

describe('regulatory calendar data (data/calendar)', () => {
  const dir = defaultCalendarDir();
  const calendar = loadCalendar(dir);

  it('has one file per jurisdiction and every file validates against the schema and cross-file rules', () => {
    const files = fs.readdirSync(dir).filter((f) => f.endsWith('.json')).sort();
    expect(files).toEqual(Object.keys(JURISDICTION_FILE_CODES).map((c) => `${c}.json`).sort());
    expect(validateCalendarFiles(dir)).toEqual([]);
  });

  it('has unique ids', () => {
    const ids = calendar.entries.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('reports the newest file as_of as its version and the oldest as its as_of', () => {
    expect(calendar.version).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.json'))) {
      const data = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as CalendarFile;
      expect(data.as_of <= calendar.version).toBe(true);
      expect(data.as_of >= calendar.as_of).toBe(true);
    }
  });

  it('covers all 13 jurisdictions and all 11 areas', () => {
    const jurisdictions = new Set(calendar.entries.map((e) => e.jurisdiction));
    for (const j of JURISDICTIONS) expect(jurisdictions.has(j.id)).toBe(true);
    const areas = new Set(calendar.entries.flatMap((e) => e.areas));
    for (const a of AREAS) expect(areas.has(a.id)).toBe(true);
  });

  // A floor that guards against losing the curated set (scripts/calendar-check.ts reports the coverage targets); not a
  // target to pad.
  it('has at least 180 entries', () => {
    expect(calendar.entries.length).toBeGreaterThanOrEqual(180);
  });

  it('keeps every entry in its own file jurisdiction, with a regulator of that jurisdiction and 1-3 known areas', () => {
    const regulators = new Map(JURISDICTIONS.map((j) => [j.id, j.regulators]));
    const areaIds = new Set(AREAS.map((a) => a.id));
    for (const e of calendar.entries) {
      expect(regulators.get(e.jurisdiction)).toContain(e.regulator);
      expect(e.areas.length).toBeGreaterThanOrEqual(1);
      expect(e.areas.length).toBeLessThanOrEqual(3);
      for (const a of e.areas) expect(areaIds.has(a)).toBe(true);
    }
  });

  it.each(HORIZONS)('has entries with a key date within %i months of the scan date for at least 10 jurisdictions', (months) => {
    const end = addMonths(SCAN_DATE, months);
    const inWindow = (e: CalendarEntry) => e.milestones.some((k) => k.date >= SCAN_DATE && k.date <= end);
    const jurisdictions = new Set(calendar.entries.filter(inWindow).map((e) => e.jurisdiction));
    expect(jurisdictions.size).toBeGreaterThanOrEqual(10);
  });
});

describe('calendar loader validation', () => {
  const DORA_URL = 'https://eur-lex.europa.eu/eli/reg/2022/2554/oj';
  let tmp: string;

  const validEntry = (): CalendarEntry => ({
    id: 'eu-test-instrument',
    title: 'Test instrument',
    jurisdiction: 'EU',
    regulator: 'ESMA',
    areas: ['Capital Markets'],
    instrument_type: 'regulation',
    stage: 'adopted',
    impact: 'low',
    milestones: [
      { date: '2026-01-01', precision: 'day', event: 'Entry into force', confidence: 'confirmed', source: DORA_URL },
      { date: '2027-01-01', precision: 'day', event: 'Application', confidence: 'expected', source: DORA_URL },
    ],
    summary: 'A test instrument used to exercise the calendar loader.',
    implications: 'Nothing to do; this only exists in a unit test fixture.',
    plain_summary: 'A made-up rule for testing.',
    themes: ['testing'],
    sources: [{ url: DORA_URL, title: 'Regulation (EU) 2022/2554', publisher: 'EUR-Lex', published_at: '2022-12-27', kind: 'official' }],
    reviewed_on: '2026-11-22',
  });

  const write = (name: string, entries: unknown[], jurisdiction = 'EU') => {
    const publishers = { 'EUR-Lex': { kind: 'official', hosts: ['eur-lex.europa.eu'] } };
    fs.writeFileSync(path.join(tmp, name), JSON.stringify({ jurisdiction, as_of: '2026-11-22', publishers, entries }));
  };

  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'calendar-'));
  });
  afterEach(() => {
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('loads a valid fixture', () => {
    write('eu.json', [validEntry()]);
    const cal = loadCalendar(tmp);
    expect(cal.version).toBe('2026-11-22');
    expect(cal.as_of).toBe('2026-11-22');
    expect(cal.entries.map((e) => e.id)).toEqual(['eu-test-instrument']);
    expect(validateCalendarFiles(tmp)).toEqual([]);
  });

  it('rejects a schema violation with a message naming the file and entry id', () => {
    const bad = { ...validEntry(), id: 'eu-broken-entry', impact: 'huge' };
    write('eu.json', [validEntry(), bad]);
    expect(() => loadCalendar(tmp)).toThrow(/eu\.json \[eu-broken-entry\].*impact/);
  });

  it('rejects a regulator not listed for the jurisdiction', () => {
    write('eu.json', [{ ...validEntry(), regulator: 'SEC' }]);
    expect(() => loadCalendar(tmp)).toThrow(/eu\.json \[eu-test-instrument\]: regulator 'SEC'/);
  });

  it('rejects unknown areas, unsorted key dates and wrong id prefixes', () => {
    const entry = validEntry();
    write('eu.json', [
      { ...entry, id: 'eu-bad-area', areas: ['Astrology'] },
      { ...entry, id: 'eu-unsorted', milestones: [...entry.milestones].reverse() },
      { ...entry, id: 'uk-wrong-prefix' },
    ]);
    const messages = validateCalendarFiles(tmp).map((p) => `${p.entryId}: ${p.message}`);
    expect(messages).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^eu-bad-area: unknown area 'Astrology'/),
        expect.stringMatching(/^eu-unsorted: milestones are not sorted/),
        expect.stringMatching(/^uk-wrong-prefix: id must start with 'eu-'/),
      ]),
    );
  });

  it('rejects duplicate ids across files', () => {
    write('eu.json', [validEntry()]);
    write('uk.json', [{ ...validEntry(), jurisdiction: 'UK', regulator: 'FCA' }], 'UK');
    const problems = validateCalendarFiles(tmp);
    expect(problems.some((p) => p.entryId === 'eu-test-instrument' && /duplicate id/.test(p.message))).toBe(true);
  });

  it('rejects invalid JSON, unknown file codes and a missing directory', () => {
    fs.writeFileSync(path.join(tmp, 'eu.json'), '{ not json');
    write('xx.json', [validEntry()]);
    const problems = validateCalendarFiles(tmp);
    expect(problems.find((p) => p.file === 'eu.json')?.message).toMatch(/invalid JSON/);
    expect(problems.find((p) => p.file === 'xx.json')?.message).toMatch(/unknown file code/);
    expect(validateCalendarFiles(path.join(tmp, 'missing'))[0].message).toMatch(/not found/);
  });

  it('requires https sources with a path, a publisher and a publication date, naming the source', () => {
    const source = validEntry().sources[0];
    write('eu.json', [
      { ...validEntry(), id: 'eu-http', sources: [{ ...source, url: 'http://eur-lex.europa.eu/eli/reg/2022/2554/oj' }] },
      { ...validEntry(), id: 'eu-home', sources: [{ ...source, url: 'https://eur-lex.europa.eu/' }] },
      { ...validEntry(), id: 'eu-undated', sources: [{ url: source.url, title: source.title, publisher: source.publisher, kind: 'official' }] },
      { ...validEntry(), id: 'eu-anonymous', sources: [{ url: source.url, title: source.title, published_at: '2022-12-27', kind: 'official' }] },
      { ...validEntry(), id: 'eu-kindless', sources: [{ url: source.url, title: source.title, publisher: source.publisher, published_at: '2022-12-27' }] },
    ]);
    const messages = validateCalendarFiles(tmp).map((p) => `${p.file} ${p.entryId}: ${p.message}`);
    expect(messages).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^eu\.json eu-http: .*url must match pattern.*\(source http:\/\/eur-lex/),
        expect.stringMatching(/^eu\.json eu-home: .*url must match pattern.*\(source https:\/\/eur-lex\.europa\.eu\/\)/),
        expect.stringMatching(/^eu\.json eu-undated: .*required property 'published_at'/),
        expect.stringMatching(/^eu\.json eu-anonymous: .*required property 'publisher'/),
        expect.stringMatching(/^eu\.json eu-kindless: .*required property 'kind'/),
      ]),
    );
    expect(messages.filter((m) => !/milestones/.test(m))).toHaveLength(5);
  });

  it('accepts a precision on a key date and rejects an unknown one', () => {
    const dated = (precision: string) => ({
      ...validEntry(),
      milestones: [{ date: '2027-12-31', event: 'Expected adoption', confidence: 'expected', precision, source: DORA_URL }],
    });
    write('eu.json', [dated('year')]);
    expect(validateCalendarFiles(tmp)).toEqual([]);
    write('eu.json', [dated('decade')]);
    expect(validateCalendarFiles(tmp)[0].message).toMatch(/precision must be equal to one of the allowed values \(day, month, quarter, half, year\)/);
  });

  it('requires a precision and a source on every milestone', () => {
    const { precision: _p, source: _s, ...bare } = validEntry().milestones[0];
    write('eu.json', [{ ...validEntry(), milestones: [bare] }]);
    const messages = validateCalendarFiles(tmp).map((p) => p.message);
    expect(messages).toEqual(
      expect.arrayContaining([expect.stringMatching(/required property 'precision'/), expect.stringMatching(/required property 'source'/)]),
    );
  });

  it("rejects a milestone or history source that is not one of the entry's sources, and a confirmed slipped milestone", () => {
    const other = 'https://eur-lex.europa.eu/eli/reg/2024/1624/oj';
    const [first, second] = validEntry().milestones;
    write('eu.json', [
      { ...validEntry(), id: 'eu-foreign', milestones: [first, { ...second, source: other }] },
      { ...validEntry(), id: 'eu-history', milestones: [first, { ...second, history: [{ date: '2026-06-01', precision: 'day', source: other }] }] },
      { ...validEntry(), id: 'eu-slipped', milestones: [{ ...first, slipped: true }, second] },
    ]);
    const messages = validateCalendarFiles(tmp).map((p) => `${p.entryId}: ${p.message}`);
    expect(messages).toEqual([
      `eu-foreign: milestone 2027-01-01 'Application': source ${other} is not one of the entry's sources`,
      `eu-history: milestone 2027-01-01 'Application': history source ${other} is not one of the entry's sources`,
      "eu-slipped: milestone 2026-01-01 'Entry into force': a slipped milestone cannot be confirmed",
    ]);
  });

  it('rejects impossible calendar dates', () => {
    write('eu.json', [{ ...validEntry(), reviewed_on: '2026-02-30' }]);
    expect(() => loadCalendar(tmp)).toThrow(/eu-test-instrument/);
  });
});
