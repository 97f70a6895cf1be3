import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Calendar, CalendarEntry, CalendarFile, CalendarSource, KeyDate } from '../src/engine/calendar/calendar.types';
import {
  PUBLISHER_HOSTS,
  TITLE_SIMILARITY_THRESHOLD,
  checkCalendar,
  landingPageReason,
  main,
  periodEnd,
  publishedOn,
  qualityProblems,
  titleSimilarity,
} from './calendar-check';

const DORA: CalendarSource = {
  url: 'https://eur-lex.europa.eu/eli/reg/2022/2554/oj',
  title: 'Regulation (EU) 2022/2554',
  publisher: 'EUR-Lex',
  published_at: '2022-12-27',
};

function entry(id: string, overrides: Partial<CalendarEntry> = {}): CalendarEntry {
  return {
    id,
    title: `Instrument ${id}`,
    jurisdiction: 'EU',
    regulator: 'ESMA',
    areas: ['Capital Markets'],
    instrument_type: 'rule',
    stage: 'adopted',
    impact: 'low',
    key_dates: [{ date: '2027-01-15', event: 'Milestone', confidence: 'confirmed' }],
    summary: 'A test instrument used to exercise the calendar check.',
    implications: 'Nothing to do; this only exists in a unit test.',
    plain_summary: 'A made-up rule for testing.',
    themes: ['testing'],
    sources: [{ ...DORA, url: `${DORA.url}?${id}` }],
    last_verified: '2026-11-22',
    ...overrides,
  };
}

const dated = (date: string, confidence: KeyDate['confidence'], precision?: KeyDate['precision']): KeyDate =>
  precision ? { date, event: 'Milestone', confidence, precision } : { date, event: 'Milestone', confidence };

/** Problems of a one-file calendar, as `entry id: message`. */
function problems(...entries: CalendarEntry[]): string[] {
  const file: CalendarFile = { jurisdiction: 'EU', version: '2026-11-22', entries };
  return qualityProblems([{ file: 'eu.json', data: file }]).map((p) => `${p.entryId}: ${p.message}`);
}

describe('landing pages', () => {
  it.each([
    ['https://www.sec.gov/', 'home page'],
    ['https://www.gov.br/cvm/en', "organisation's home page"],
    ['https://www.cac.gov.cn/index.html', 'home page'],
    ['https://www.bok.or.kr/eng/main/main.do', 'home page'],
    ['https://www.gov.uk/government/organisations/hm-treasury', "organisation's home page"],
    ['https://www.canada.ca/en/department-finance.html', "organisation's home page"],
    ['https://www.sec.gov/newsroom/press-releases', "generic 'press-releases' landing page"],
    ['https://www.finma.ch/en/documentation/finma-circulars/', "generic 'finma-circulars' landing page"],
    ['https://www.rbi.org.in/Scripts/NotificationUser.aspx', 'script page without a document id'],
  ])('flags %s', (url, reason) => {
    expect(landingPageReason(url)).toContain(reason);
  });

  it.each([
    'https://eur-lex.europa.eu/eli/reg/2022/2554/oj',
    'https://www.legislation.gov.uk/ukpga/2023/29/contents',
    'https://www.sec.gov/newsroom/press-releases/2024-31',
    'https://www.gov.uk/government/consultations/uk-sustainability-reporting-standards',
    'https://www.bcb.gov.br/estabilidadefinanceira/exibenormativo?tipo=Circular&numero=3978',
    'https://www.osfi-bsif.gc.ca/Eng/fi-if/rg-ro/gdn-ort/gl-ld/Pages/b12.aspx',
  ])('accepts the document page %s', (url) => {
    expect(landingPageReason(url)).toBeNull();
  });
});

describe('helpers', () => {
  it('matches a publisher by host, subdomain or portal path prefix', () => {
    expect(publishedOn('https://www.federalregister.gov/d/2025-18228', ['federalregister.gov'])).toBe(true);
    expect(publishedOn('https://gov.br/anpd/pt-br/assuntos', ['gov.br/anpd'])).toBe(true);
    expect(publishedOn('https://www.gov.br/cvm/pt-br', ['gov.br/anpd'])).toBe(false);
    expect(publishedOn('https://www.psr.org.uk/', ['gov.uk/government'])).toBe(false);
  });

  it('scores title similarity by shared words, ignoring case and stop words', () => {
    expect(titleSimilarity('Digital Operational Resilience Act', 'The digital operational resilience act')).toBe(1);
    expect(titleSimilarity('OSFI Guideline B-12 Interest Rate Risk', 'OSFI Guideline B-6 Liquidity')).toBeLessThan(
      TITLE_SIMILARITY_THRESHOLD,
    );
  });

  it('computes the last day of a period', () => {
    expect(periodEnd('2027-02-10', 'month')).toBe('2027-02-28');
    expect(periodEnd('2027-05-01', 'quarter')).toBe('2027-06-30');
    expect(periodEnd('2027-08-01', 'half')).toBe('2027-12-31');
    expect(periodEnd('2027-03-31', 'year')).toBe('2027-12-31');
    expect(periodEnd('2027-03-31', 'day')).toBe('2027-03-31');
  });

  it('covers every publisher named in the shipped calendar', () => {
    expect(Object.keys(PUBLISHER_HOSTS).length).toBeGreaterThan(0);
    expect(main(['--today', '2026-11-24'], () => undefined)).toBe(0);
  });
});

describe('qualityProblems', () => {
  it('accepts a well-cited entry', () => {
    expect(problems(entry('eu-good'))).toEqual([]);
  });

  it('rejects http, home pages and generic landing pages, naming the source', () => {
    const out = problems(
      entry('eu-http', { sources: [{ ...DORA, url: 'http://eur-lex.europa.eu/eli/reg/2022/2554/oj' }] }),
      entry('eu-landing', { sources: [{ ...DORA, url: 'https://eur-lex.europa.eu/' }] }),
    );
    expect(out).toEqual([
      'eu-http: source http://eur-lex.europa.eu/eli/reg/2022/2554/oj: must use https',
      'eu-landing: source https://eur-lex.europa.eu/: is a home page; cite the instrument or its own page',
    ]);
  });

  it('rejects an unknown publisher and a publisher whose host differs from the url', () => {
    const out = problems(
      entry('eu-unknown', { sources: [{ ...DORA, publisher: 'Somebody' }] }),
      entry('eu-mislabelled', { sources: [{ ...DORA, url: 'https://www.psr.org.uk/our-work/app-scams/', publisher: 'HM Treasury' }] }),
    );
    expect(out).toEqual([
      "eu-unknown: source https://eur-lex.europa.eu/eli/reg/2022/2554/oj: publisher 'Somebody' is not in PUBLISHER_HOSTS (scripts/calendar-check.ts)",
      "eu-mislabelled: source https://www.psr.org.uk/our-work/app-scams/: publisher 'HM Treasury' does not publish there (expected gov.uk/government)",
    ]);
  });

  it('rejects a missing publication date and one later than last_verified', () => {
    const undated: CalendarSource = { url: DORA.url, title: DORA.title, publisher: DORA.publisher };
    const later = { ...DORA, url: 'https://eur-lex.europa.eu/eli/reg/2024/1689/oj', published_at: '2026-12-01' };
    const out = problems(entry('eu-undated', { sources: [undated] }), entry('eu-future', { sources: [later] }));
    expect(out).toEqual([
      `eu-undated: source ${DORA.url}: published_at is missing`,
      `eu-future: source ${later.url}: published_at 2026-12-01 is after last_verified 2026-11-22`,
    ]);
  });

  it('flags entries of one jurisdiction that share a source url and a key date', () => {
    const shared = { sources: [DORA], key_dates: [dated('2027-01-15', 'confirmed')] };
    expect(problems(entry('eu-first', shared), entry('eu-second', shared))).toEqual([
      `eu-second: near-duplicate of eu-first (eu.json): shares source ${DORA.url} and key date 2027-01-15; merge them or cite what makes them distinct`,
    ]);
    // Same source, different dates: two milestones of one act, not a duplicate.
    const later = entry('eu-third', { sources: [DORA], key_dates: [dated('2028-01-17', 'confirmed')] });
    expect(problems(entry('eu-first', shared), later)).toEqual([]);
  });

  it('flags near-identical titles in one jurisdiction but not across jurisdictions', () => {
    const a = entry('eu-a', { title: 'Digital Operational Resilience Act (DORA)' });
    const b = entry('eu-b', { title: 'The Digital Operational Resilience Act' });
    expect(problems(a, b)).toEqual([expect.stringMatching(/^eu-b: near-duplicate of eu-a \(eu\.json\): has a near-identical title/)]);
    const uk = { ...b, id: 'uk-b', jurisdiction: 'UK' };
    const files = [
      { file: 'eu.json', data: { jurisdiction: 'EU', version: '2026-11-22', entries: [a] } },
      { file: 'uk.json', data: { jurisdiction: 'UK', version: '2026-11-22', entries: [uk] } },
    ];
    expect(qualityProblems(files)).toEqual([]);
  });

  it('requires a precision on non-confirmed dates that sit on a period end', () => {
    const out = problems(
      entry('eu-placeholder', { key_dates: [dated('2026-12-31', 'expected')] }),
      entry('eu-year', { key_dates: [dated('2026-12-31', 'expected', 'year')] }),
      entry('eu-real-day', { key_dates: [dated('2027-06-30', 'speculative', 'day')] }),
      entry('eu-confirmed', { key_dates: [dated('2027-03-31', 'confirmed')] }),
    );
    expect(out).toEqual([expect.stringMatching(/^eu-placeholder: key date 2026-12-31 \(expected\) sits on a period end/)]);
  });

  it('rejects a period precision on a date that is not the last day of that period', () => {
    expect(problems(entry('eu-mid-month', { key_dates: [dated('2027-02-15', 'expected', 'month')] }))).toEqual([
      "eu-mid-month: key date 2027-02-15 has precision 'month' but is not the last day of that period (2027-02-28)",
    ]);
  });
});

describe('checkCalendar (freshness warnings)', () => {
  const fresh = (id: string, lastVerified: string, dates: string[]) =>
    entry(id, { last_verified: lastVerified, key_dates: dates.map((d) => dated(d, 'confirmed')) });
  const calendar: Calendar = {
    version: '2026-11-22',
    entries: [
      fresh('eu-fresh-future', '2026-11-01', ['2025-01-01', '2027-01-01']),
      fresh('eu-old-verified', '2026-01-01', ['2027-06-30']),
      fresh('eu-all-passed', '2026-11-01', ['2024-01-01', '2026-06-30']),
      fresh('eu-today', '2026-05-26', ['2026-11-22']),
    ],
  };

  it('lists entries verified more than 180 days ago and entries whose dates have all passed', () => {
    const result = checkCalendar(calendar, '2026-11-22');
    expect(result.stale).toEqual([{ id: 'eu-old-verified', last_verified: '2026-01-01', age_days: 325 }]);
    expect(result.expired).toEqual([{ id: 'eu-all-passed', last_date: '2026-06-30' }]);
  });

  it('treats exactly 180 days as fresh and a date equal to today as not passed', () => {
    expect(checkCalendar(calendar, '2026-11-22').expired.map((e) => e.id)).not.toContain('eu-today');
    expect(checkCalendar(calendar, '2026-11-23').expired.map((e) => e.id)).toContain('eu-today');
    expect(checkCalendar(calendar, new Date('2026-11-22T12:00:00Z'), 100).stale.map((s) => s.id)).toEqual(['eu-old-verified', 'eu-today']);
  });

  it('rejects a malformed date', () => {
    expect(() => checkCalendar(calendar, '22/11/2026')).toThrow(/invalid date/);
  });
});

describe('calendar-check CLI', () => {
  let tmp: string;
  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'calendar-check-'));
  });
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  const write = (entries: CalendarEntry[]) =>
    fs.writeFileSync(path.join(tmp, 'eu.json'), JSON.stringify({ jurisdiction: 'EU', version: '2026-11-22', entries }));
  const run = (args: string[]) => {
    const lines: string[] = [];
    return { code: main(args, (l) => lines.push(l)), text: lines.join('\n') };
  };

  it('exits 0 on the shipped calendar and reports freshness as warnings only', () => {
    const { code, text } = run(['--today', '2026-11-24']);
    expect(code).toBe(0);
    expect(text).toMatch(/entries and \d+ sources valid/);
    expect(text).not.toMatch(/ERROR/);
  });

  it('exits 0 on a clean calendar and 1 on a quality violation, naming file, entry and source', () => {
    write([entry('eu-good')]);
    expect(run(['--dir', tmp, '--today', '2026-11-24']).code).toBe(0);
    write([entry('eu-good'), entry('eu-placeholder', { key_dates: [dated('2026-12-31', 'expected')] })]);
    const bad = run(['--dir', tmp, '--today', '2026-11-24']);
    expect(bad.code).toBe(1);
    expect(bad.text).toMatch(/ERROR eu\.json \[eu-placeholder\]: key date 2026-12-31 \(expected\) sits on a period end/);
  });

  it('exits 1 on a schema violation, naming the source', () => {
    write([entry('eu-home', { sources: [{ ...DORA, url: 'https://eur-lex.europa.eu/' }] })]);
    const { code, text } = run(['--dir', tmp]);
    expect(code).toBe(1);
    expect(text).toMatch(
      /ERROR eu\.json \[eu-home\]: schema: \/sources\/0\/url must match pattern .* \(source https:\/\/eur-lex\.europa\.eu\/\)/,
    );
  });

  it('exits 1 on a cross-file rule and 2 on a bad argument', () => {
    write([{ ...entry('eu-bad'), regulator: 'FCA' }]);
    expect(run(['--dir', tmp]).text).toMatch(/ERROR eu\.json \[eu-bad\]: regulator 'FCA'/);
    expect(main(['--bogus'], () => undefined)).toBe(2);
  });
});
