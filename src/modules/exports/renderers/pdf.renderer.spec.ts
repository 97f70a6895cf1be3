import { allCitations } from './item-grouping';
import { pdfText, squash } from '../../../../test/support/inspect-artefact';
import { input, jaSnapshot, JA_TITLES, realisticSnapshot, syntheticSnapshot, ZH_TITLES, zhSnapshot } from '../../../../test/fixtures/snapshots';
import { renderPdf } from './pdf.renderer';

describe('pdf renderer (internal-pdf)', () => {
  const snapshot = realisticSnapshot();
  let text = '';
  let pages = 0;
  let bytes: Buffer;

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
});
