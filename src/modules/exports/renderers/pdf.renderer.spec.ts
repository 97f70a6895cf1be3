import PDFDocument from 'pdfkit';
import { allCitations } from './item-grouping';
import { pdfLinks, pdfText, squash } from '../../../../test/support/inspect-artefact';
import { hardSnapshot, hardTitle, input, jaSnapshot, JA_TITLES, realisticSnapshot, sampleDrift, syntheticSnapshot, ZH_TITLES, zhSnapshot } from '../../../../test/fixtures/snapshots';
import { buildReferences, timelineLabels } from './render-facts';
import { A4 } from './pdf-kit';
import { renderPdf } from './pdf.renderer';

describe('pdf renderer (internal-pdf)', () => {
  const snapshot = realisticSnapshot();
  let text = '';
  let pages = 0;
  let bytes: Buffer;

  it('shows every milestone of an item in the window, not only its key date, and estimates never as a day', async () => {
    const withTimeline = snapshot.data.items.filter((item) => (item.timeline ?? []).length > 1);
    expect(withTimeline.length).toBeGreaterThan(0);
    const flat = squash(text);
    for (const item of withTimeline) for (const line of timelineLabels(item)) expect(flat).toContain(squash(line));
    for (const item of snapshot.data.items) {
      for (const m of item.timeline ?? []) if (m.precision !== 'day') expect(timelineLabels({ timeline: [m, m] })[0]).not.toMatch(/^\S*\s?\d{1,2} [A-Z][a-z]{2} \d{4}/);
    }
  });

  beforeAll(async () => {
    const out = await renderPdf(input(snapshot));
    bytes = out.bytes;
    ({ text, pages } = await pdfText(bytes));
    expect(out.mime).toBe('application/pdf');
    expect(out.filename).toBe('regulatory-horizon-eu-uk-2026-11-22.pdf');
  });

  it('is a PDF that parses', () => {
    expect(bytes.subarray(0, 5).toString('ascii')).toBe('%PDF-');
    expect(pages).toBeGreaterThan(3);
  });

  it('has the title page facts', () => {
    for (const fact of [snapshot.title, '22 November 2026', 'EU, UK', 'AML / KYC, Payments', '12 months', 'offline'])
      expect(squash(text)).toContain(squash(fact));
  });

  it('contains every item title', () => {
    expect(snapshot.data.items.length).toBeGreaterThan(10);
    for (const item of snapshot.data.items) expect(squash(text)).toContain(squash(item.title));
  });

  it('has the executive summary, narrative with numbered citations, trends and references with URLs', () => {
    expect(text).toContain('Executive summary');
    expect(text).toContain('Narrative');
    expect(text).not.toContain('[[cite:');
    expect(text).toMatch(/\[\d+(, \d+)*\]/);
    expect(text).toContain('Trends');
    for (const trend of snapshot.data.trends) expect(squash(text)).toContain(squash(trend.title));
    expect(text).toContain('References');
    for (const citation of allCitations(snapshot.data.items)) expect(squash(text)).toContain(squash(citation.url));
  });

  it('numbers the pages in the footer', () => {
    expect(text).toContain(`Page ${pages} of ${pages}`);
    expect(text).toContain(`Page 2 of ${pages}`);
  });

  it('renders Chinese titles with the bundled CJK font', async () => {
    const out = await renderPdf(input(zhSnapshot(), {}, 'zh'));
    const zh = await pdfText(out.bytes);
    for (const title of ZH_TITLES) expect(squash(zh.text)).toContain(squash(title));
    expect(squash(zh.text)).toContain('欧盟与英国反洗钱及支付监管展望');
    expect(out.bytes.toString('latin1')).toMatch(/\/BaseFont \/[A-Z]{6}\+NotoSansHans-Regular/);
  });

  it('renders Japanese titles with the bundled Japanese font', async () => {
    const out = await renderPdf(input(jaSnapshot(), {}, 'ja'));
    const ja = await pdfText(out.bytes);
    for (const title of JA_TITLES) expect(squash(ja.text)).toContain(squash(title));
    expect(out.bytes.toString('latin1')).toMatch(/\/BaseFont \/[A-Z]{6}\+NotoSansJP-Regular/);
  });

  it('renders 100 items with every title', async () => {
    const big = syntheticSnapshot(100);
    const out = await renderPdf(input(big));
    const parsed = await pdfText(out.bytes);
    const flat = squash(parsed.text);
    for (const item of big.data.items) expect(flat).toContain(squash(item.title));
  });

  describe('a deliberately hard snapshot (100 items, 200-character titles, zh and ja, missing and period dates)', () => {
    const hard = hardSnapshot();
    let parsed: { text: string; pages: number; pageTexts: string[] };
    let out: Awaited<ReturnType<typeof renderPdf>>;
    const textEnds: number[] = [];

    beforeAll(async () => {
      // Layout check: record where every text call leaves the cursor, on which page.
      const original = PDFDocument.prototype.text;
      const spy = jest.spyOn(PDFDocument.prototype, 'text').mockImplementation(function (this: PDFKit.PDFDocument, ...args: unknown[]) {
        const result = (original as (...a: unknown[]) => PDFKit.PDFDocument).apply(this, args);
        textEnds.push(this.y);
        return result;
      });
      try {
        out = await renderPdf(input(hard));
      } finally {
        spy.mockRestore();
      }
      parsed = await pdfText(out.bytes);
    }, 60_000);

    it('prints every one of the 100 titles whole, with no ellipsis', () => {
      const flat = squash(parsed.text);
      for (let index = 0; index < 100; index++) expect(flat).toContain(squash(hardTitle(index)));
      expect(parsed.text).not.toContain('…');
    });

    it('never draws text past the foot of a page', () => {
      expect(textEnds.length).toBeGreaterThan(100);
      for (const y of textEnds) expect(y).toBeLessThanOrEqual(A4.height - 8);
    });

    it('says how the items were selected, and prints dates as precisely as they are known', () => {
      expect(parsed.text).toContain('Top 100 of 240 matching instruments');
      expect(parsed.text).toContain('date not set');
      expect(parsed.text).toMatch(/expected H[12] 20\d\d/);
      expect(parsed.text).toMatch(/expected Q[1-4] 20\d\d/);
    });
  });

  it('puts the briefing headline on the cover and the full snapshot title beneath it', async () => {
    const hard = hardSnapshot();
    hard.data._briefing = { ...realisticSnapshot().data._briefing!, briefing_headline: 'PSD3 heads 100 milestones' };
    const parsed = await pdfText((await renderPdf(input(hard))).bytes);
    const cover = parsed.pageTexts[0]!;
    expect(cover).toContain('PSD3 heads 100 milestones');
    expect(squash(cover)).toContain(squash(hard.title));
  });

  it('links every source, de-duplicated and numbered as cited, with publisher and date', async () => {
    const references = buildReferences(snapshot.data.items);
    const urls = new Set(allCitations(snapshot.data.items).map((citation) => citation.url));
    expect(references.list).toHaveLength(urls.size);
    const links = new Set(pdfLinks(bytes));
    for (const url of urls) expect(links.has(url)).toBe(true);
    const refsPart = text.slice(text.lastIndexOf('References'));
    for (const { number, citation } of references.list) {
      expect(refsPart).toContain(`[${number}]`);
      expect(squash(refsPart)).toContain(squash(citation.publisher));
    }
    expect(refsPart).not.toContain(`[${references.list.length + 1}]`);
  });

  it('shows the milestone of each item next to its date', () => {
    expect(text).toContain('MILESTONE');
    for (const item of snapshot.data.items.slice(0, 5)) expect(squash(text)).toContain(squash(item.milestone!));
  });

  it('says on its first page when it is not in the language asked for, and shows the drift since the last scan', async () => {
    const parsed = await pdfText((await renderPdf({ ...input(snapshot, { targetLanguage: 'zh' }, 'en'), drift: sampleDrift(snapshot) })).bytes);
    expect(squash(parsed.pageTexts[0]!)).toContain(squash('Requested in Chinese; this snapshot has no Chinese translation, so this artefact is in English.'));
    for (const page of parsed.pageTexts.slice(1)) expect(squash(page)).toContain(squash('Offline scan of the curated regulatory calendar'));
    expect(parsed.text).toContain('Changes since 3 Nov 2026');
    expect(squash(parsed.text)).toContain(squash('Instrument the item cap kept out this time — still in scope, kept out by the item cap'));
    expect(squash(parsed.text)).toContain(squash('Instrument withdrawn from the calendar — no longer in the calendar'));
  });

  it('lists every matching instrument the cap left out with option list=all_matched', async () => {
    const beyond = [
      { id: 'eu-extra', title: 'Extra matching instrument beyond the cap', jurisdiction: 'EU', area: 'Payments', regulator: 'EBA', stage: 'proposed' as const, impact: 'low' as const, key_date: '2027-06-30', date_confidence: 'expected' as const, key_date_precision: 'half' as const, milestone: 'Final text', citation: { url: 'https://www.eba.europa.eu/extra', title: 'Extra', publisher: 'EBA', published_at: '2026-01-02' } },
    ];
    const parsed = await pdfText((await renderPdf({ ...input(snapshot, { list: 'all_matched' }), beyondCap: beyond })).bytes);
    expect(parsed.text).toContain(`Further matching instruments (1 beyond the top ${snapshot.data.items.length})`);
    expect(squash(parsed.text)).toContain(squash('Extra matching instrument beyond the cap (EU)'));
    expect(squash(parsed.text)).toContain(squash('expected H1 2027 — Final text'));
  });
});
