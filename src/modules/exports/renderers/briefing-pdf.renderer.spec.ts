import { briefingContent, renderBriefingPdf } from './briefing-pdf.renderer';
import { rankPriorities } from './briefing-sections';
import { buildReferences, dateWithMilestone, disclaimerLine, driftLine, languageNotice, prioritiesLine, removalLabel, selectionLine } from './render-facts';
import { pdfText, squash } from '../../../../test/support/inspect-artefact';
import { hardSnapshot, hardTitle, input, realisticSnapshot, sampleDrift, zhSnapshot } from '../../../../test/fixtures/snapshots';
import type { SnapshotItem } from '../../../engine/envelope.types';

/** Numbers of the hard titles printed (any `HARD-NNN` marker in the text). */
function hardNumbersIn(flat: string): number[] {
  return [...new Set([...flat.matchAll(/HARD-(\d{3})/g)].map((match) => Number(match[1])))];
}

describe('briefing-pdf renderer (internal-briefing-pdf)', () => {
  it('renders the _briefing block on one or two pages', async () => {
    const snapshot = realisticSnapshot();
    const briefing = snapshot.data._briefing!;
    const out = await renderBriefingPdf(input(snapshot));
    expect(out.filename).toBe('regulatory-horizon-eu-uk-2026-11-22-briefing.pdf');
    const { text, pages } = await pdfText(out.bytes);
    expect(pages).toBeGreaterThanOrEqual(1);
    expect(pages).toBeLessThanOrEqual(2);
    const flat = squash(text);
    for (const part of [
      briefing.briefing_headline,
      briefing.briefing_standfirst,
      briefing.bottom_line_tight,
      briefing.pull_quote,
      briefing.sentiment_rationale,
    ]) {
      expect(flat).toContain(squash(part));
    }
    expect(text).toContain(briefing.sentiment_label.toUpperCase());
  });

  it('lists priorities from the items, whole, with their dates and short references (never the engine labels, which snapshots written before issue 12 hold cut)', async () => {
    const snapshot = realisticSnapshot();
    snapshot.data._briefing!.priorities = ['[EU] AMLA direct supervision of high-risk…, 1 Jul 2027 (exp.)'];
    const { text } = await pdfText((await renderBriefingPdf(input(snapshot))).bytes);
    const flat = squash(text);
    expect(text).not.toContain('…');
    const references = buildReferences(snapshot.data.items);
    const top = rankPriorities(snapshot.data.items).slice(0, 8);
    for (const item of top) {
      expect(flat).toContain(squash(item.title));
      expect(flat).toContain(squash(dateWithMilestone(item)));
      expect(flat).toContain(squash(`[${references.itemNumbers(item).join(', ')}] Source: ${item.citations[0]!.publisher}`));
    }
    expect(flat).toContain(squash(`Showing 8 of ${snapshot.data.items.length}`));
    expect(flat).toContain(squash('full list in the PDF report'));
  });

  it('ranks firm dates before estimated ones within an impact level', async () => {
    const snapshot = realisticSnapshot();
    const high = snapshot.data.items.filter((item) => item.impact === 'high');
    const estimated: SnapshotItem = {
      ...high[0]!,
      title: 'Estimated early instrument',
      key_date: '2026-12-01',
      date_confidence: 'speculative',
    };
    const halfYear: SnapshotItem = {
      ...high[1]!,
      title: 'Half-year instrument',
      key_date: '2026-12-31',
      key_date_precision: 'half',
      date_confidence: 'expected',
    };
    const firm: SnapshotItem = {
      ...high[2]!,
      title: 'Firm later instrument',
      key_date: '2027-05-01',
      key_date_precision: 'day',
      date_confidence: 'confirmed',
    };
    snapshot.data.items = [estimated, halfYear, firm, ...snapshot.data.items.filter((item) => item.impact !== 'high')];
    expect(
      rankPriorities(snapshot.data.items)
        .slice(0, 3)
        .map((item) => item.title),
    ).toEqual(['Firm later instrument', 'Estimated early instrument', 'Half-year instrument']);
    const flat = squash((await pdfText((await renderBriefingPdf(input(snapshot))).bytes)).text);
    expect(flat.indexOf(squash('Firm later instrument'))).toBeLessThan(flat.indexOf(squash('Estimated early instrument')));
    // A period date prints as the period, not as its last day.
    expect(flat).toContain(squash('Half-year instrument'));
    expect(flat).toContain(squash('expected H2 2026'));
    expect(flat).toContain(squash('estimated Dec 2026'));
    expect(flat).not.toContain(squash('estimated 1 Dec 2026'));
  });

  it('falls back to the executive summary without _briefing', async () => {
    const snapshot = realisticSnapshot();
    delete snapshot.data._briefing;
    const content = briefingContent(snapshot);
    expect(content.headline).toBe(snapshot.title);
    expect(content.pullQuote).toBe('');
    const { text, pages } = await pdfText((await renderBriefingPdf(input(snapshot))).bytes);
    expect(pages).toBeLessThanOrEqual(2);
    const flat = squash(text);
    expect(flat).toContain(squash(snapshot.title));
    expect(flat).toContain(squash(snapshot.data.executive_summary.bottom_line));
    expect(flat).toContain(squash(rankPriorities(snapshot.data.items)[0]!.title));
  });

  it('stays within two pages with long content, printing it whole', async () => {
    const snapshot = realisticSnapshot();
    const briefing = snapshot.data._briefing!;
    const long = 'Long priority text that goes on and on about regulatory change. '.repeat(12);
    snapshot.data._briefing = {
      ...briefing,
      priorities: Array.from({ length: 20 }, (_, i) => `[EU] ${i} ${long}`),
      briefing_standfirst: long.repeat(3),
      sentiment_rationale: long,
    };
    const { text, pages } = await pdfText((await renderBriefingPdf({ ...input(snapshot), drift: sampleDrift(snapshot) })).bytes);
    expect(pages).toBeLessThanOrEqual(2);
    expect(squash(text)).toContain(squash(long.repeat(3)));
  });

  it('prints every title of the hard snapshot whole, within two pages, and says how many it shows', async () => {
    const snapshot = hardSnapshot();
    const { text, pages } = await pdfText((await renderBriefingPdf({ ...input(snapshot), drift: sampleDrift(snapshot) })).bytes);
    expect(pages).toBeLessThanOrEqual(2);
    const flat = squash(text);
    expect(text).not.toContain('…');
    const printed = hardNumbersIn(flat);
    expect(printed.length).toBeGreaterThan(0);
    for (const number of printed) expect(flat).toContain(squash(hardTitle(number - 1)));
    // The line over the priorities counts every match (240), not the 100 items the snapshot kept.
    expect(selectionLine(snapshot)).toContain('Top 100 of 240');
    const shown = /Showing(\d+)of240matchinginstruments,/.exec(flat);
    expect(shown).not.toBeNull();
    expect(flat).toContain(squash(prioritiesLine(Number(shown![1]), 240)));
    for (const item of rankPriorities(snapshot.data.items).slice(0, Number(shown![1])))
      expect(flat).toContain(squash(dateWithMilestone(item)));
  });

  it('says the scan is offline and unverified, and which language it is in when another was asked for', async () => {
    const snapshot = realisticSnapshot();
    const request = input(snapshot, { targetLanguage: 'zh' }, 'en');
    const { text } = await pdfText((await renderBriefingPdf(request)).bytes);
    const flat = squash(text);
    expect(disclaimerLine(snapshot)).toContain('not checked against live sources');
    expect(flat).toContain(squash(disclaimerLine(snapshot)));
    expect(flat).toContain(squash(languageNotice(request)!));
    const total = snapshot.data.items.length;
    const shown = new RegExp(`Showing(\\d+)of${total}matchinginstruments,`).exec(flat);
    expect(shown).not.toBeNull();
    expect(flat).toContain(squash(prioritiesLine(Number(shown![1]), total)));
    // Never "All 17 matching instruments." over a list that shows fewer.
    expect(flat).not.toContain(squash(`All ${total} matching instruments.`));
    const plain = squash((await pdfText((await renderBriefingPdf(input(snapshot, { targetLanguage: 'en' }, 'en'))).bytes)).text);
    expect(plain).not.toContain(squash('Requested in'));
  });

  it('shows the changes since the previous scan', async () => {
    const snapshot = realisticSnapshot();
    const drift = sampleDrift(snapshot);
    const flat = squash((await pdfText((await renderBriefingPdf({ ...input(snapshot), drift })).bytes)).text);
    expect(flat).toContain(squash('CHANGES SINCE 3 NOV 2026'));
    expect(flat).toContain(squash(driftLine(drift)));
    expect(flat).toContain(squash(`New: ${drift.added[0]!.title}`));
    for (const removed of drift.removed)
      expect(flat).toContain(squash(`${removed.title} (${removalLabel(drift.removed_reasons[removed.id])})`));
    expect(flat).toContain(squash(`Changed: ${String(drift.changed[0]!.title)} (key date)`));
    const without = squash((await pdfText((await renderBriefingPdf(input(snapshot))).bytes)).text);
    expect(without).not.toContain(squash('CHANGES SINCE'));
  });

  it('ends with the numbered sources of the items it shows, with their addresses', async () => {
    const snapshot = realisticSnapshot();
    const { text } = await pdfText((await renderBriefingPdf(input(snapshot))).bytes);
    const flat = squash(text);
    expect(text).toContain('SOURCES');
    const references = buildReferences(snapshot.data.items);
    const numbers = [
      ...new Set(
        rankPriorities(snapshot.data.items)
          .slice(0, 8)
          .flatMap((item) => references.itemNumbers(item)),
      ),
    ];
    expect(numbers.length).toBeGreaterThan(3);
    for (const number of numbers) expect(flat).toContain(squash(`[${number}]${references.list[number - 1]!.citation.publisher}`));
    for (const number of numbers) expect(flat).toContain(squash(references.list[number - 1]!.citation.url));
  });

  it('renders Chinese with the CJK font', async () => {
    const snapshot = zhSnapshot();
    const { text } = await pdfText((await renderBriefingPdf(input(snapshot, {}, 'zh'))).bytes);
    expect(squash(text)).toContain('欧盟与英国反洗钱及支付监管展望');
  });
});
