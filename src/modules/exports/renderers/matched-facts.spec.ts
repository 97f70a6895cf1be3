import { matchedFacts, shownOfLine, totalTileLabel } from './matched-facts';
import { pdfText, squash } from '../../../../test/support/inspect-artefact';
import { boardSnapshot, hardSnapshot, input, WIDE_AREAS, WIDE_JURISDICTIONS, wideSnapshot } from '../../../../test/fixtures/snapshots';
import { renderPdf } from './pdf.renderer';
import { renderTearsheet } from './tearsheet.renderer';
import { renderBriefingPdf } from './briefing-pdf.renderer';
import { quartersBetween, timelineNote, timelineRows } from './matched-facts';
import { prioritiesLine } from './render-facts';
import { renderSlideDeck } from './slide-deck.renderer';
import { renderSlideWeb } from './slide-web.renderer';
import { slideFiles, unzip } from '../../../../test/support/inspect-artefact';

describe('honest aggregates: artefacts count every match, not the items that fit', () => {
  const wide = wideSnapshot();
  const facts = matchedFacts(wide);

  it('the wide scan matches far more than it keeps, and the facts count all of them', () => {
    expect(wide.data.items).toHaveLength(40);
    expect(facts.total).toBe(wide.data._meta.matched_count);
    expect(facts.total).toBeGreaterThan(100);
    expect(facts.counted).toBe(facts.total);
    expect(facts.byImpact.high + facts.byImpact.medium + facts.byImpact.low).toBe(facts.total);
    // 40 kept items are not all high impact, whatever the tiles of a capped list would say.
    expect(facts.byImpact.medium + facts.byImpact.low).toBeGreaterThan(0);
    expect(facts.jurisdictions.slice(0, WIDE_JURISDICTIONS.length).map((row) => row.id)).toEqual(WIDE_JURISDICTIONS);
    expect(facts.areas.slice(0, WIDE_AREAS.length).map((row) => row.id)).toEqual(WIDE_AREAS);
    expect(facts.jurisdictions.reduce((sum, row) => sum + row.matched, 0)).toBe(facts.total);
    expect(facts.jurisdictions.reduce((sum, row) => sum + row.shown, 0)).toBe(40);
    expect(shownOfLine({ id: 'Singapore', matched: 7, shown: 0, by_impact: { high: 0, medium: 0, low: 0 } })).toBe('Singapore: 0 of 7 shown');
    expect(totalTileLabel(facts)).toBe('Matching, 40 shown');
  });

  it('the PDF report tiles count every match, and every requested jurisdiction is listed, also with none shown', async () => {
    const { text, pages } = await pdfText((await renderPdf(input(wide))).bytes);
    const flat = squash(text);
    const cover = squash(pages > 0 ? text.split('\f')[0] ?? text : text);
    expect(cover).toContain(squash(`${facts.total}Matching, 40 shown`));
    expect(cover).toContain(squash(`${facts.byImpact.high}High impact`));
    expect(cover).toContain(squash(`${facts.byImpact.medium}Medium impact`));
    expect(flat).toContain(squash(`Jurisdictions: ${facts.jurisdictions.map(shownOfLine).join(' · ')}`));
    for (const row of facts.jurisdictions.filter((r) => r.shown === 0 && r.matched > 0)) {
      expect(flat).toContain(squash(`0 of ${row.matched} matching instrument${row.matched === 1 ? '' : 's'} shown`));
    }
  });

  it('the PDF report has a quarter x jurisdiction grid of every matching milestone across the whole horizon', async () => {
    const quarters = quartersBetween('2026-11-22', '2029-11-22');
    expect(quarters[0]).toBe('2026-Q4');
    expect(quarters.at(-1)).toBe('2029-Q4');
    expect(quarters).toHaveLength(13);
    expect(timelineNote(238, 40, 0)).toBe('Every milestone of the 238 matching instruments by quarter and jurisdiction (not only the 40 items shown).');
    expect(timelineNote(19, 19, 5)).toBe('Every milestone of the 19 matching instruments by quarter and jurisdiction. 5 more known only to a half-year or a year are not placed.');
    const rows = timelineRows(facts, quarters);
    expect(rows.length).toBeGreaterThan(3);
    const placed = rows.reduce((sum, row) => sum + row.counts.reduce((a, b) => a + b, 0), 0);
    expect(placed).toBe(facts.quarters.reduce((sum, q) => sum + q.milestones, 0));
    // The grid reaches past 2028: a 36-month scan is not a 14-month one.
    expect(rows.some((row) => row.counts.slice(6).some((n) => n > 0))).toBe(true);
    const flat = squash((await pdfText((await renderPdf(input(wide))).bytes)).text);
    expect(flat).toContain(squash('Milestones by quarter'));
    expect(flat).toContain(squash('Q4 26'));
    expect(flat).toContain(squash('Q4 29'));
    expect(flat).toContain(squash(`Every milestone of the ${facts.total} matching instruments`));
  });

  it('the deck and the web slides carry the same quarter x jurisdiction grid', async () => {
    const quarters = quartersBetween('2026-11-22', '2029-11-22');
    const rows = timelineRows(facts, quarters);
    const zip = await unzip((await renderSlideDeck(input(wide))).bytes);
    const slides = await Promise.all(slideFiles(zip).map((name) => zip.file(name)!.async('string')));
    const grid = slides.find((xml) => xml.includes('>Milestones by quarter<'));
    expect(grid).toBeDefined();
    for (const label of ['Q4 26', 'Q1 27', 'Q4 29']) expect(grid).toContain(`>${label}<`);
    // Every requested jurisdiction has its row with how many of its instruments are shown, also when none is.
    expect(rows.map((row) => row.jurisdiction).slice(0, WIDE_JURISDICTIONS.length)).toEqual(WIDE_JURISDICTIONS);
    expect(rows.some((row) => /^0 of \d+ shown$/.test(row.shownOf))).toBe(true);
    for (const row of rows) expect(grid).toContain(`>${row.jurisdiction}<`);
    for (const row of rows) expect(grid).toContain(`>${row.shownOf}<`);
    const html = (await renderSlideWeb(input(wide))).bytes.toString('utf8');
    const table = /<table class="quarters">(.*?)<\/table>/s.exec(html)?.[1] ?? '';
    expect(table.match(/<tr/g)).toHaveLength(rows.length + 1);
    expect(table).toContain('<th>Q4 29</th>');
    for (const row of rows) expect(table).toContain(`<td class="shown">${row.shownOf}</td>`);
  });

  it('the tearsheet and the briefing count every match too', async () => {
    const tearsheet = squash((await pdfText((await renderTearsheet(input(wide))).bytes)).text);
    expect(tearsheet).toContain(squash(`${facts.total}Matching, 40 shown`));
    const briefing = squash((await pdfText((await renderBriefingPdf(input(wide))).bytes)).text);
    const shown = new RegExp(`Showing(\\d+)of${facts.total}matchinginstruments,`).exec(briefing);
    expect(shown).not.toBeNull();
    expect(briefing).toContain(squash(prioritiesLine(Number(shown![1]), facts.total)));
    // The briefing's own counts describe every match as well.
    expect(briefing).toContain(squash(`heads ${facts.total} regulatory instruments due`));
  });

  it('a snapshot that records how many matched but not their counts says the tiles cover the shown items', () => {
    const hard = hardSnapshot();
    const old = matchedFacts(hard);
    expect(old.total).toBe(240);
    expect(old.counted).toBe(100);
    expect(totalTileLabel(old)).toBe('Shown, of 240 matching');
  });
});

describe('relevance: a board scan is led by an instrument about what was asked', () => {
  const board = boardSnapshot();

  it('the lead item and the headline name an instrument whose main area was requested', async () => {
    const [lead] = board.data.items;
    expect(board.config.areas).toContain(lead!.areas![0]);
    expect(board.data._briefing?.briefing_headline).toContain(lead!.title.split(/[:(]/)[0]!.trim().slice(0, 20));
    const { text } = await pdfText((await renderPdf(input(board))).bytes);
    expect(squash(text)).toContain(squash(board.data._briefing!.briefing_headline));
    // Items filed under an area they only touch come after every item about a requested area.
    const central = board.data.items.map((item) => item.areas!.indexOf(item.area) === 0);
    expect(central.indexOf(false) === -1 || central.slice(central.indexOf(false)).every((c) => !c)).toBe(true);
  });
});
