import { briefingContent, renderBriefingPdf } from './briefing-pdf.renderer';
import { pdfText, squash } from '../../../../test/support/inspect-artefact';
import { input, realisticSnapshot, zhSnapshot } from '../../../../test/fixtures/snapshots';

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
    for (const priority of briefing.priorities) expect(flat).toContain(squash(priority.replace(/^\[[^\]]+\]\s*/, '')));
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
    for (const priority of snapshot.data.executive_summary.priorities) expect(flat).toContain(squash(priority));
  });

  it('stays within two pages with long content', async () => {
    const snapshot = realisticSnapshot();
    const briefing = snapshot.data._briefing!;
    const long = 'Long priority text that goes on and on about regulatory change. '.repeat(12);
    snapshot.data._briefing = {
      ...briefing,
      priorities: Array.from({ length: 20 }, (_, i) => `[EU] ${i} ${long}`),
      briefing_standfirst: long.repeat(3),
      sentiment_rationale: long,
    };
    const { pages } = await pdfText((await renderBriefingPdf(input(snapshot))).bytes);
    expect(pages).toBeLessThanOrEqual(2);
  });

  it('renders Chinese with the CJK font', async () => {
    const snapshot = zhSnapshot();
    const { text } = await pdfText((await renderBriefingPdf(input(snapshot, {}, 'zh'))).bytes);
    expect(squash(text)).toContain('欧盟与英国反洗钱及支付监管展望');
  });
});
