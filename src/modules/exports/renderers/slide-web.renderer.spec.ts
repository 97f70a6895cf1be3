import { slideSections } from './slide-sections';
import { awkwardSnapshot, input, realisticSnapshot, syntheticSnapshot, zhSnapshot } from '../../../../test/fixtures/snapshots';
import { escapeHtml, renderSlideWeb } from './slide-web.renderer';

async function html(...args: Parameters<typeof input>): Promise<string> {
  const out = await renderSlideWeb(input(...args));
  expect(out.mime).toBe('text/html; charset=utf-8');
  return out.bytes.toString('utf8');
}

function assetUrls(page: string): string[] {
  return [
    ...page.matchAll(/<(?:script|img|iframe|embed|source|video|audio)\b[^>]*\ssrc\s*=/gi),
    ...page.matchAll(/<link\b/gi),
    ...page.matchAll(/url\(/gi),
    ...page.matchAll(/@import/gi),
  ].map((m) => m[0]);
}

describe('slide-web renderer (frontend-slides)', () => {
  it('is one self-contained HTML file with one slide per section', async () => {
    const snapshot = realisticSnapshot();
    const page = await html(snapshot, { styleSlug: 'dark-editorial' });
    expect(page.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(page.match(/<section class="slide /g)).toHaveLength(slideSections(snapshot).length);
    expect(assetUrls(page)).toEqual([]);
    expect(page).toContain("default-src 'none'");
    expect(page).toContain('ArrowRight');
    expect(page).toContain('ArrowLeft');
  });

  it('contains every item title, escaped', async () => {
    for (const snapshot of [realisticSnapshot(), syntheticSnapshot(100)]) {
      const page = await html(snapshot);
      for (const item of snapshot.data.items) expect(page).toContain(escapeHtml(item.title));
    }
  });

  it('escapes markup in the content', async () => {
    const snapshot = awkwardSnapshot();
    const page = await html(snapshot);
    expect(page).toContain('The &quot;Quoted&quot;, comma, &lt;b&gt;bold&lt;/b&gt; &amp; &lt;script&gt;alert(1)&lt;/script&gt; regulation');
    expect(page).not.toContain('<script>alert(1)</script>');
    expect(page).not.toContain('<b>bold</b>');
    expect(page.match(/<script>/g)).toHaveLength(1);
  });

  it('links only http(s) sources, as plain anchors', async () => {
    const snapshot = realisticSnapshot();
    snapshot.data.items[0]!.citations[0]!.url = 'javascript:alert(1)';
    const page = await html(snapshot);
    expect(page).not.toContain('href="javascript:');
    const hrefs = [...page.matchAll(/href="([^"]*)"/g)].map((m) => m[1]!);
    expect(hrefs.length).toBeGreaterThan(5);
    for (const href of hrefs) expect(href).toMatch(/^https?:\/\//);
  });

  it('has the two styles', async () => {
    const snapshot = realisticSnapshot();
    const dark = await html(snapshot, { styleSlug: 'dark-editorial' });
    const light = await html(snapshot, { styleSlug: 'light-consulting' });
    expect(dark).toContain('--bg:#111418');
    expect(dark).toContain("'Source Serif 4'");
    expect(light).toContain('--bg:#FFFFFF');
    expect(light).toContain('class="style-light-consulting');
  });

  it('marks the language and offers CJK fonts for Chinese', async () => {
    const page = await html(zhSnapshot(), {}, 'zh');
    expect(page).toContain('<html lang="zh-CN">');
    expect(page).toContain("'Noto Sans SC'");
    expect(page).toContain('支付服务指令第三版');
  });
});
