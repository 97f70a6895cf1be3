import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AREAS } from '../src/domain/vocabulary/areas';
import type { CalendarEntry, CalendarFile, CalendarSource, Milestone } from '../src/engine/calendar/calendar.types';
import { EXIT_TARGETS_UNMET, PASSED_GRACE_DAYS, TITLE_SIMILARITY_THRESHOLD, main, periodEnd, qualityProblems, staleEntries, titleSimilarity } from './calendar-check';
import { foreignLocale, isEnglishVariant, landingPageReason, publishedOn, schemesOf } from './calendar/citation-rules';
import { calendarShortfalls, coverageOf, jurisdictionCoverage, matrixLines } from './calendar/coverage';
import { type ReviewLogFile, reviewProblems } from './calendar/review-log';

const AS_OF = '2026-11-26';
const DORA: CalendarSource = {
  url: 'https://eur-lex.europa.eu/eli/reg/2022/2554/oj',
  title: 'Regulation (EU) 2022/2554',
  publisher: 'EUR-Lex',
  published_at: '2022-12-27',
  kind: 'official',
};
const PUBLISHERS: CalendarFile['publishers'] = {
  'EUR-Lex': { kind: 'official', hosts: ['eur-lex.europa.eu'] },
  ESMA: { kind: 'official', hosts: ['esma.europa.eu'] },
  'Example LLP': { kind: 'secondary', hosts: ['example-law.com'] },
};

function milestone(date: string, confidence: Milestone['confidence'] = 'confirmed', extra: Partial<Milestone> = {}): Milestone {
  return { date, precision: 'day', event: 'Milestone', confidence, source: DORA.url, ...extra };
}

/** An entry; unless `sources` is overridden it cites its own copy of DORA (`?<id>`), so entries are not duplicates. */
function entry(id: string, overrides: Partial<CalendarEntry> = {}): CalendarEntry {
  const own = `${DORA.url}?${id}`;
  const built: CalendarEntry = {
    id,
    title: `Instrument ${id}`,
    jurisdiction: 'EU',
    regulator: 'ESMA',
    areas: ['Capital Markets'],
    instrument_type: 'rule',
    stage: 'adopted',
    impact: 'low',
    milestones: [milestone('2027-01-15')],
    summary: 'A test instrument used to exercise the calendar check.',
    implications: 'Nothing to do; this only exists in a unit test.',
    plain_summary: 'A made-up rule for testing.',
    themes: ['testing'],
    sources: [DORA],
    reviewed_on: AS_OF,
    ...overrides,
  };
  if (overrides.sources) return built;
  return {
    ...built,
    sources: [{ ...DORA, url: own }],
    milestones: built.milestones.map((m) => ({
      ...m,
      source: m.source === DORA.url ? own : m.source,
      ...(m.history ? { history: m.history.map((h) => ({ ...h, source: h.source === DORA.url ? own : h.source })) } : {}),
    })),
  };
}

function file(entries: CalendarEntry[], extra: Partial<CalendarFile> = {}): CalendarFile {
  return { jurisdiction: 'EU', as_of: AS_OF, publishers: PUBLISHERS, entries, ...extra };
}

/** Problems of a one-file calendar, as `entry id: message`. */
function problems(...entries: CalendarEntry[]): string[] {
  return qualityProblems([{ file: 'eu.json', data: file(entries) }]).problems.map((p) => `${p.entryId}: ${p.message}`);
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
    ['https://www.ecb.europa.eu/euro/digital_euro/html/index.en.html', 'section index page'],
    ['https://www.fincen.gov/boi', "one-segment section page ('/boi')"],
    ['https://www.bankofengland.co.uk/stress-testing', 'one-segment section page'],
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
    'https://www.apra.gov.au/activation-of-debt-to-income-limits-as-a-macroprudential-policy-tool',
    'https://gxt-hk.com/en/hkma-first-stablecoin-licenses/',
    'https://www.ecb.europa.eu/press/pr/date/2024/html/ecb.pr240101~abc.en.html',
    'http://www.pbc.gov.cn/en/3688110/3688172/4437084/5123456/index.html',
  ])('accepts the document page %s', (url) => {
    expect(landingPageReason(url)).toBeNull();
  });
});

describe('address helpers', () => {
  it('matches a publisher by host, subdomain or portal path prefix', () => {
    expect(publishedOn('https://www.federalregister.gov/d/2025-18228', ['federalregister.gov'])).toBe(true);
    expect(publishedOn('https://gov.br/anpd/pt-br/assuntos', ['gov.br/anpd'])).toBe(true);
    expect(publishedOn('https://www.gov.br/cvm/pt-br', ['gov.br/anpd'])).toBe(false);
    expect(publishedOn('https://www.psr.org.uk/', ['gov.uk/government'])).toBe(false);
  });

  it('names the non-English locale a url asks for', () => {
    expect(foreignLocale('https://website.rbi.org.in/kn/web/rbi/-/press-releases/x')).toBe('kn');
    expect(foreignLocale('https://www.example.gov/doc?lang=zh')).toBe('zh');
    expect(foreignLocale('https://www.fsa.go.jp/en/news/2025/20250101.html')).toBeNull();
  });

  it('recognises the English variant of a foreign-locale page', () => {
    const shown = 'https://website.rbi.org.in/kn/web/rbi/-/notifications/master-direction-x';
    expect(isEnglishVariant('https://website.rbi.org.in/en/web/rbi/-/notifications/master-direction-x', shown)).toBe(true);
    expect(isEnglishVariant('https://website.rbi.org.in/web/rbi/-/notifications/master-direction-x', shown)).toBe(true);
    expect(isEnglishVariant('https://website.rbi.org.in/en/web/rbi/-/notifications/other', shown)).toBe(false);
    expect(isEnglishVariant('https://website.rbi.org.in/en/web/rbi/-/notifications/master-direction-x', shown.replace('/kn/', '/en/'))).toBe(false);
  });

  it('recognises the permanent address schemes, and only for well-formed numbers', () => {
    expect(schemesOf('https://eur-lex.europa.eu/eli/reg/2024/1624/oj')).toEqual(['eur-lex-eli']);
    expect(schemesOf('https://eur-lex.europa.eu/legal-content/EN/TXT/?uri=CELEX:32024R1624')).toEqual(['eur-lex-celex']);
    expect(schemesOf('https://www.federalregister.gov/d/2024-12345')).toEqual(['federalregister.gov']);
    expect(schemesOf('https://www.congress.gov/bill/119th-congress/senate-bill/1582')).toEqual(['congress.gov']);
    expect(schemesOf('https://www.legislation.gov.uk/ukpga/2023/29/contents')).toEqual(['legislation.gov.uk']);
    expect(schemesOf('https://www.elegislation.gov.hk/hk/cap615')).toEqual(['elegislation.gov.hk']);
    expect(schemesOf('https://www.fedlex.admin.ch/eli/cc/2019/758/en')).toEqual(['fedlex-eli']);
    expect(schemesOf('https://www.legislation.gov.au/C2024A00123/latest')).toEqual(['legislation.gov.au']);
    expect(schemesOf('https://www.federalregister.gov/documents/search?q=x')).toEqual([]);
    expect(schemesOf('https://www.fca.org.uk/publication/policy/ps24-16.pdf')).toEqual([]);
  });

  it('scores title similarity by shared words, ignoring case and stop words', () => {
    expect(titleSimilarity('Digital Operational Resilience Act', 'The digital operational resilience act')).toBe(1);
    expect(titleSimilarity('OSFI Guideline B-12 Interest Rate Risk', 'OSFI Guideline B-6 Liquidity')).toBeLessThan(TITLE_SIMILARITY_THRESHOLD);
  });

  it('computes the last day of a period', () => {
    expect(periodEnd('2027-02-10', 'month')).toBe('2027-02-28');
    expect(periodEnd('2027-05-01', 'quarter')).toBe('2027-06-30');
    expect(periodEnd('2027-08-01', 'half')).toBe('2027-12-31');
    expect(periodEnd('2027-03-31', 'year')).toBe('2027-12-31');
    expect(periodEnd('2027-03-31', 'day')).toBe('2027-03-31');
  });
});

describe('qualityProblems: sources', () => {
  it('accepts a well-cited entry', () => {
    expect(problems(entry('eu-good'))).toEqual([]);
  });

  it('rejects http, landing pages and news sites, naming the source', () => {
    const http = 'http://eur-lex.europa.eu/eli/reg/2022/2554/oj';
    const news = 'https://www.reuters.com/markets/europe/eu-rules-2026-01-01/';
    const out = problems(
      entry('eu-http', { sources: [{ ...DORA, url: http }], milestones: [milestone('2027-01-15', 'confirmed', { source: http })] }),
      entry('eu-hub', { sources: [{ ...DORA, url: 'https://eur-lex.europa.eu/topics' }] }),
      entry('eu-news', { sources: [DORA, { ...DORA, url: news, publisher: 'EUR-Lex' }] }),
    );
    expect(out).toEqual(
      expect.arrayContaining([
        `eu-http: source ${http}: must use https`,
        "eu-hub: source https://eur-lex.europa.eu/topics: is a generic 'topics' landing page; cite the instrument or its own page",
        `eu-news: source ${news}: is a news site; cite the regulator or a law-firm or industry briefing`,
      ]),
    );
  });

  it("rejects a publisher missing from the file's publishers, on another host, or of another kind", () => {
    const out = problems(
      entry('eu-unknown', { sources: [{ ...DORA, publisher: 'Unknown Body' }] }),
      entry('eu-elsewhere', { sources: [{ ...DORA, publisher: 'ESMA' }] }),
      entry('eu-kind', { sources: [{ ...DORA, kind: 'secondary' }] }),
    ).filter((m) => !m.includes('near-duplicate'));
    expect(out).toEqual([
      `eu-unknown: source ${DORA.url}: publisher 'Unknown Body' is not listed in the file's publishers`,
      `eu-elsewhere: source ${DORA.url}: publisher 'ESMA' does not publish there (expected esma.europa.eu)`,
      `eu-kind: source ${DORA.url}: kind 'secondary' but publisher 'EUR-Lex' is official`,
    ]);
  });

  it('rejects a publication date after reviewed_on and a foreign-locale url without a language', () => {
    const kn = 'https://eur-lex.europa.eu/kn/doc/2025/1';
    const out = problems(
      entry('eu-future', { sources: [{ ...DORA, published_at: '2026-12-01' }] }),
      entry('eu-locale', { sources: [{ ...DORA, url: kn }], milestones: [milestone('2027-01-15', 'confirmed', { source: kn })] }),
      entry('eu-declared', { sources: [{ ...DORA, url: `${kn}/x`, language: 'kn' }], milestones: [milestone('2027-01-15', 'confirmed', { source: `${kn}/x` })] }),
    );
    expect(out).toEqual([
      `eu-future: source ${DORA.url}: published_at 2026-12-01 is after reviewed_on ${AS_OF}`,
      `eu-locale: source ${kn}: asks for locale 'kn'; cite the English or locale-neutral page, or declare the document's language`,
    ]);
  });
});

describe('qualityProblems: milestones and freshness', () => {
  it('rejects a period precision off the period end and a speculative day', () => {
    const out = problems(
      entry('eu-mid', { milestones: [milestone('2027-06-15', 'expected', { precision: 'quarter' })] }),
      entry('eu-guess', { milestones: [milestone('2027-01-01', 'speculative')] }),
      entry('eu-period', { milestones: [milestone('2027-03-31', 'speculative', { precision: 'quarter' })] }),
    );
    expect(out).toEqual([
      "eu-mid: milestone 2027-06-15 'Milestone': precision 'quarter' but not the last day of that period (2027-06-30)",
      "eu-guess: milestone 2027-01-01 'Milestone': a speculative date is our own estimate and cannot name a day; give its month, quarter, half or year",
    ]);
  });

  it(`errs on an expected milestone more than ${PASSED_GRACE_DAYS} days before as_of, warns within the grace period`, () => {
    const result = qualityProblems([
      {
        file: 'eu.json',
        data: file([
          entry('eu-overdue', { milestones: [milestone('2026-09-01', 'expected'), milestone('2027-01-15')] }),
          entry('eu-recent', { milestones: [milestone('2026-10-15', 'expected'), milestone('2027-01-15')] }),
          entry('eu-happened', { milestones: [milestone('2026-01-15'), milestone('2027-01-15')] }),
          entry('eu-slipped', { milestones: [milestone('2026-06-30', 'expected', { precision: 'half', slipped: true }), milestone('2027-01-15')] }),
          entry('eu-early-slip', { milestones: [milestone('2027-01-15', 'expected', { slipped: true })] }),
        ]),
      },
    ]);
    expect(result.problems.map((p) => `${p.entryId}: ${p.message}`)).toEqual([
      `eu-overdue: milestone 2026-09-01 'Milestone': expected, 86 days before as_of ${AS_OF}; confirm it happened or mark it slipped`,
      `eu-early-slip: milestone 2027-01-15 'Milestone': marked slipped but not yet passed (as_of ${AS_OF})`,
    ]);
    expect(result.warnings.map((p) => p.entryId)).toEqual(['eu-recent']);
  });

  it('requires a moved date to cite the amending document, and reviewed_on not after as_of', () => {
    const out = problems(
      entry('eu-moved', { milestones: [milestone('2027-01-15', 'confirmed', { history: [{ date: '2026-01-15', precision: 'day', source: DORA.url }] })] }),
      entry('eu-later', { reviewed_on: '2026-12-01' }),
    );
    expect(out).toEqual([
      "eu-moved: milestone 2027-01-15 'Milestone': moved from 2026-01-15 but cites the same document; cite the amending or postponing one",
      `eu-later: reviewed_on 2026-12-01 is after the file's as_of ${AS_OF}`,
    ]);
  });

  it('flags near-duplicates: a shared source and date, or a near-identical title, within one jurisdiction', () => {
    const out = problems(
      entry('eu-a', { title: 'Alpha rule', sources: [DORA], milestones: [milestone('2027-03-01')] }),
      entry('eu-b', { title: 'Beta rule', sources: [DORA], milestones: [milestone('2027-03-01')] }),
      entry('eu-c', { title: 'Instrument alpha rule', sources: [{ ...DORA, url: `${DORA.url}/eng` }], milestones: [milestone('2028-01-15', 'confirmed', { source: `${DORA.url}/eng` })] }),
    );
    expect(out).toEqual([
      `eu-b: near-duplicate of eu-a (eu.json): shares source ${DORA.url} and milestone date 2027-03-01; merge them or cite what makes them distinct`,
    ]);
    expect(titleSimilarity('Alpha rule', 'Instrument alpha rule')).toBeLessThan(TITLE_SIMILARITY_THRESHOLD);
  });

  it('rejects an entry whose milestones all lie more than a year before as_of', () => {
    const out = problems(
      entry('eu-history', { milestones: [milestone('2015-11-13'), milestone('2025-11-25')] }),
      entry('eu-recent', { milestones: [milestone('2025-11-26')] }),
    );
    expect(out).toEqual([
      'eu-history: no milestone since 2025-11-26: a horizon calendar keeps instruments with a recent or coming milestone; add its next milestone or remove it',
    ]);
  });

  it('lists entries reviewed more than the maximum age before today', () => {
    const stale = staleEntries([entry('eu-old', { reviewed_on: '2026-01-01' }), entry('eu-new')], '2026-11-26', 180);
    expect(stale).toEqual([{ id: 'eu-old', reviewed_on: '2026-01-01', age_days: 329 }]);
  });
});

describe('review log', () => {
  const log = (reviews: ReviewLogFile['reviews']): ReviewLogFile => ({ jurisdiction: 'EU', reviews });
  const search = (urls: string[]) => ({ query: 'DORA application date', urls, finding: 'The regulation applies from 17 January 2025.' });

  it('accepts sources shown by a recorded search (http or www forms included) or built from a scheme they follow', () => {
    const briefing = { ...DORA, url: 'https://www.example-law.com/dora', publisher: 'Example LLP', kind: 'secondary' as const };
    const e = entry('eu-ok', { sources: [DORA, briefing] });
    const reviewed = log([
      { id: 'eu-ok', reviewed_on: AS_OF, checks: [{ scheme: 'eur-lex-eli', urls: [DORA.url], finding: 'The regulation applies from 17 January 2025.' }, search(['http://example-law.com/dora'])] },
    ]);
    expect(reviewProblems('eu.json', [e], reviewed)).toEqual([]);
  });

  it('accepts the English variant of a page a search showed in another locale, and only that', () => {
    const shown = 'https://website.rbi.org.in/kn/web/rbi/-/notifications/x';
    const english = 'https://website.rbi.org.in/en/web/rbi/-/notifications/x';
    const e = entry('eu-variant', { sources: [{ ...DORA, url: english }], milestones: [milestone('2027-01-15', 'confirmed', { source: english })] });
    const good = log([{ id: e.id, reviewed_on: AS_OF, checks: [{ ...search([english]), variant_of: shown }] }]);
    expect(reviewProblems('eu.json', [e], good)).toEqual([]);
    const bad = log([{ id: e.id, reviewed_on: AS_OF, checks: [{ ...search([english]), variant_of: shown.replace('/x', '/y') }] }]);
    expect(reviewProblems('eu.json', [e], bad).map((p) => p.message)).toEqual([`${english} is not the English variant of ${shown.replace('/x', '/y')}`]);
  });

  it('rejects an unreviewed entry, an unshown source, a scheme the url does not follow, and a review of nothing', () => {
    const other = 'https://www.esma.europa.eu/document/guidelines-x';
    const out = reviewProblems(
      'eu.json',
      [
        entry('eu-missing'),
        entry('eu-unshown', { sources: [DORA, { ...DORA, url: other, publisher: 'ESMA' }] }),
        entry('eu-date', { reviewed_on: '2026-11-20' }),
      ],
      log([
        { id: 'eu-unshown', reviewed_on: AS_OF, checks: [{ scheme: 'eur-lex-eli', urls: [DORA.url, 'https://eur-lex.europa.eu/search'], finding: 'Applies from 17 January 2025.' }] },
        { id: 'eu-date', reviewed_on: AS_OF, checks: [search([`${DORA.url}?eu-date`])] },
        { id: 'eu-gone', reviewed_on: AS_OF, checks: [search([DORA.url])] },
      ]),
    ).map((p) => `${p.file} ${p.entryId}: ${p.message}`);
    expect(out).toEqual([
      'review/eu.json eu-unshown: https://eur-lex.europa.eu/search does not follow the eur-lex-eli scheme',
      'review/eu.json eu-gone: review of an entry that is not in the calendar',
      'eu.json eu-missing: no review in review/eu.json: record the searches or schemes behind its sources',
      `eu.json eu-unshown: source ${other}: no search result or scheme in review/eu.json shows it`,
      'eu.json eu-date: reviewed_on 2026-11-20 differs from its review log (2026-11-26)',
    ]);
  });

  it('requires an official source unless the review records why there is none', () => {
    const briefing = { ...DORA, url: 'https://www.example-law.com/dora', publisher: 'Example LLP', kind: 'secondary' as const };
    const e = entry('eu-secondary', { sources: [briefing], milestones: [milestone('2027-01-15', 'confirmed', { source: briefing.url })] });
    const checks = [search([briefing.url])];
    expect(reviewProblems('eu.json', [e], log([{ id: e.id, reviewed_on: AS_OF, checks }])).map((p) => p.message)).toEqual([
      'no official source: cite the regulator, legislature or official journal, or record official_source_exception in review/eu.json',
    ]);
    const excused = log([{ id: e.id, reviewed_on: AS_OF, checks, official_source_exception: 'The authority publishes the rule only in its gazette print edition.' }]);
    expect(reviewProblems('eu.json', [e], excused)).toEqual([]);
  });
});

/** `count` entries of one jurisdiction, each forward-dated in one area, cycling through `areas`. */
function spread(code: string, count: number, areas: readonly string[], date = '2028-06-30'): CalendarEntry[] {
  return Array.from({ length: count }, (_, i) =>
    entry(`${code}-instrument-${i}`, { areas: [areas[i % areas.length]], milestones: [milestone(date)], title: `Distinct instrument number ${i} ${code}` }),
  );
}

describe('coverage', () => {
  const areaIds = AREAS.map((a) => a.id);

  it('counts forward-dated instruments per area and requires 8 covered areas, explaining every thin one', () => {
    const thin = file(spread('eu', 25, areaIds.slice(0, 7)));
    const [j] = coverageOf([{ file: 'eu.json', data: thin }]).jurisdictions;
    expect(j.coveredAreas).toBe(7);
    const { problems: wrong, shortfalls } = jurisdictionCoverage(j);
    expect(wrong).toEqual([]);
    const messages = shortfalls.map((p) => p.message);
    expect(messages[0]).toBe('coverage: 7 areas with 2+ forward-dated instruments, at least 8 needed');
    expect(messages).toContain('coverage: Sanctions has 0 forward-dated instrument(s); add instruments, or record a coverage gap if it has no live regime');
  });

  it('accepts recorded gaps with reasons and rejects a gap in an area that is covered', () => {
    const gaps = areaIds.slice(8).map((area) => ({ area, reason: 'No live regime in this jurisdiction for this area.' }));
    const ok = file(spread('eu', 24, areaIds.slice(0, 8)), { coverage_gaps: gaps });
    const okCoverage = jurisdictionCoverage(coverageOf([{ file: 'eu.json', data: ok }]).jurisdictions[0]);
    expect(okCoverage.problems).toEqual([]);
    expect(okCoverage.shortfalls.map((p) => p.message)).toEqual(['coverage: 24 entries, at least 25 needed']);
    const wrong = file(spread('eu', 25, areaIds.slice(0, 9)), { coverage_gaps: [{ area: areaIds[0], reason: 'No live regime in this jurisdiction for this area.' }, ...gaps] });
    expect(jurisdictionCoverage(coverageOf([{ file: 'eu.json', data: wrong }]).jurisdictions[0]).problems.map((p) => p.message)).toEqual(
      expect.arrayContaining([`coverage gap for ${areaIds[0]} recorded, but it has 3 forward-dated instruments`, `coverage gap for ${areaIds[8]} recorded, but it has 2 forward-dated instruments`]),
    );
  });

  it('checks the whole-calendar thresholds: entries, Sanctions entries and the share of milestones from 2028', () => {
    const near = file(spread('eu', 30, ['Sanctions'], '2027-06-30'));
    const summary = coverageOf([{ file: 'eu.json', data: near }]);
    expect(calendarShortfalls(summary).map((p) => p.message)).toEqual([
      'coverage: 30 entries, at least 600 needed',
      'depth: 0 of 30 forward milestones (0.0%) fall in 2028 or later, at least 25% needed',
    ]);
    expect(matrixLines(summary)[1]).toMatch(/^EU\s+0\s+0\s+0\s+0\s+0\s+0\s+0\s+0\s+30\s+0\s+0\s+30\s+30$/);
  });

  it('does not count slipped or passed milestones as forward', () => {
    const data = file([entry('eu-x', { milestones: [milestone('2026-01-01'), milestone('2026-06-30', 'expected', { precision: 'half', slipped: true })] })]);
    expect(coverageOf([{ file: 'eu.json', data }]).forwardMilestones).toBe(0);
  });
});

describe('calendar-check CLI', () => {
  let tmp: string;
  const write = (code: string, data: CalendarFile, reviews?: ReviewLogFile['reviews']) => {
    fs.writeFileSync(path.join(tmp, `${code}.json`), JSON.stringify(data));
    fs.mkdirSync(path.join(tmp, 'review'), { recursive: true });
    const logged = reviews ?? data.entries.map((e) => ({ id: e.id, reviewed_on: e.reviewed_on, checks: [{ query: 'instrument dates', urls: e.sources.map((s) => s.url), finding: 'States the dates listed.' }] }));
    fs.writeFileSync(path.join(tmp, 'review', `${code}.json`), JSON.stringify({ jurisdiction: data.jurisdiction, reviews: logged }));
  };
  const run = (args: string[]) => {
    const lines: string[] = [];
    const code = main(args, (line) => lines.push(line));
    return { code, text: lines.join('\n') };
  };
  const gaps = AREAS.slice(8).map((a) => ({ area: a.id, reason: 'No live regime in this jurisdiction for this area.' }));

  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'calendar-check-'));
  });
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('exits 0 on a clean file checked alone, printing its matrix row', () => {
    write('eu', file(spread('eu', 26, AREAS.slice(0, 8).map((a) => a.id)), { coverage_gaps: gaps }));
    const { code, text } = run(['--dir', tmp, '--only', 'eu', '--today', AS_OF]);
    expect(text).toMatch(/calendar-check: 26 entries and 26 sources valid \(eu only\)/);
    expect(text).toMatch(/^\s+EU\s+4\s+4\s+3\s+3\s+3\s+3\s+3\s+3\s+0-\s+0-\s+0-\s+26\s+26$/m);
    expect(code).toBe(0);
  });

  it('exits 1 naming file, entry and source on a rule violation, and on a missing review log', () => {
    const entries = spread('eu', 26, AREAS.slice(0, 8).map((a) => a.id));
    const home = 'https://eur-lex.europa.eu/index.html';
    entries[0] = { ...entries[0], sources: [{ ...DORA, url: home }], milestones: [milestone('2028-06-30', 'confirmed', { source: home })] };
    write('eu', file(entries, { coverage_gaps: gaps }));
    fs.rmSync(path.join(tmp, 'review'), { recursive: true });
    const { code, text } = run(['--dir', tmp, '--only', 'eu']);
    expect(code).toBe(1);
    expect(text).toMatch(/ERROR eu\.json \[eu-instrument-0\]: source https:\/\/eur-lex\.europa\.eu\/index\.html: is a home page/);
    expect(text).toMatch(/ERROR review\/eu\.json: review log missing/);
  });

  it('applies the whole-calendar targets and the report check only when every file is checked', () => {
    write('eu', file(spread('eu', 26, AREAS.slice(0, 8).map((a) => a.id)), { coverage_gaps: gaps }));
    const report = path.join(tmp, 'report.md');
    const stale = run(['--dir', tmp, '--report', report]);
    expect(stale.code).toBe(1);
    expect(stale.text).toMatch(/TARGET calendar: coverage: 26 entries, at least 600 needed/);
    expect(stale.text).toMatch(/ERROR docs\/calendar-report\.md: out of date/);
    expect(run(['--dir', tmp, '--report', report, '--write-report']).code).toBe(EXIT_TARGETS_UNMET);
    expect(fs.readFileSync(report, 'utf8')).toContain('- Whole calendar: 26 entries, at least 600 needed');
    expect(run(['--dir', tmp, '--report', report]).code).toBe(EXIT_TARGETS_UNMET);
    expect(run(['--dir', tmp, '--only', 'eu']).code).toBe(0);
  });

  it('exits 3 when the data is valid but a coverage target is not met', () => {
    write('eu', file(spread('eu', 20, AREAS.slice(0, 8).map((a) => a.id)), { coverage_gaps: gaps }));
    const { code, text } = run(['--dir', tmp, '--only', 'eu']);
    expect(text).toMatch(/TARGET eu\.json: coverage: 20 entries, at least 25 needed/);
    expect(text).toMatch(/calendar-check: 1 coverage target\(s\) not met/);
    expect(code).toBe(EXIT_TARGETS_UNMET);
  });

  it('exits 1 on a cross-file rule and 2 on a bad argument', () => {
    write('eu', file([{ ...entry('eu-bad'), regulator: 'FCA' }]));
    expect(run(['--dir', tmp, '--only', 'eu']).text).toMatch(/ERROR eu\.json \[eu-bad\]: regulator 'FCA'/);
    expect(main(['--bogus'], () => undefined)).toBe(2);
    expect(main(['--only', 'Korea'], () => undefined)).toBe(2);
  });

  it('passes on the shipped calendar: every rule, and a report that lists every coverage target not yet met', () => {
    const { code, text } = run(['--today', AS_OF]);
    expect(text).not.toMatch(/ERROR/);
    expect([0, EXIT_TARGETS_UNMET]).toContain(code);
    const report = fs.readFileSync(path.join(__dirname, '..', 'docs', 'calendar-report.md'), 'utf8');
    const targets = [...text.matchAll(/TARGET (\S+): (?:coverage|depth): (.*)$/gm)];
    expect(targets.length > 0).toBe(code === EXIT_TARGETS_UNMET);
    for (const [, , message] of targets) expect(report).toContain(message);
  });
});
