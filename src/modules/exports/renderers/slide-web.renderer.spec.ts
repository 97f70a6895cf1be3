import * as fontkit from 'fontkit';
import {
  awkwardSnapshot,
  distinctSources,
  hardSnapshot,
  longProse,
  input,
  jaSnapshot,
  JA_TITLES,
  realisticSnapshot,
  sampleDrift,
  syntheticSnapshot,
  ZH_TITLES,
  zhSnapshot,
} from '../../../../test/fixtures/snapshots';
import { groupByJurisdiction } from './item-grouping';
import { buildReferences, dateWithMilestone, disclaimerLine, driftLine, languageNotice, removalLabel, selectionLine } from './render-facts';
import { BODY_H, itemHeight } from './slide-web-layout';
import { escapeHtml, renderSlideWeb, slideWebMeasure } from './slide-web.renderer';
import type { RenderInput, RenderSnapshot } from './types';

async function html(renderInput: RenderInput): Promise<string> {
  const out = await renderSlideWeb(renderInput);
  expect(out.mime).toBe('text/html; charset=utf-8');
  return out.bytes.toString('utf8');
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" };

/** What a reader sees: tags dropped, entities decoded, whitespace collapsed. */
function visible(markup: string): string {
  return markup
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(amp|lt|gt|quot|#39);/g, (_, name: string) => ENTITIES[name]!)
    .replace(/\s+/g, ' ')
    .trim();
}

interface Slide {
  markup: string;
  text: string;
  /** The slide heading without its note ("EU (2 of 3)"). */
  title: string;
  items: string[];
}

function slides(page: string): Slide[] {
  return [...page.matchAll(/<section class="slide [^"]*"[^>]*>([\s\S]*?)<\/section>/g)].map(([, markup]) => ({
    markup: markup!,
    text: visible(markup!),
    title: visible(/<h2[^>]*>([\s\S]*?)(?:<small>|<\/h2>)/.exec(markup!)?.[1] ?? /<p class="kicker">([^<]*)</.exec(markup!)?.[1] ?? ''),
    items: [...markup!.matchAll(/data-item="([^"]+)"/g)].map((m) => m[1]!),
  }));
}

/** Slides by section name, checking every "(k of n)" run is complete and in order. */
function sectionRuns(list: Slide[]): Map<string, Slide[]> {
  const runs = new Map<string, Slide[]>();
  for (const slide of list) {
    const m = /^(.*) \((\d+) of (\d+)\)$/.exec(slide.title);
    const name = m ? m[1]! : slide.title;
    const run = runs.get(name) ?? [];
    if (m) expect(run.length + 1).toBe(Number(m[2]));
    run.push(slide);
    runs.set(name, run);
  }
  return runs;
}

function assetUrls(page: string): string[] {
  return [
    ...page.matchAll(/<(?:script|img|iframe|embed|source|video|audio)\b[^>]*\ssrc\s*=/gi),
    ...page.matchAll(/<link\b/gi),
    ...page.matchAll(/url\((?!data:)/gi),
    ...page.matchAll(/@import/gi),
  ].map((m) => m[0]);
}

/** The embedded @font-face fonts, parsed: family, weight, font. */
function embeddedFonts(page: string): Array<{ family: string; weight: number; font: fontkit.Font; bytes: number }> {
  return [
    ...page.matchAll(/@font-face\{font-family:'([^']+)';font-weight:(\d+);[^}]*src:url\(data:font\/\w+;base64,([A-Za-z0-9+/=]+)\)/g),
  ].map(([, family, weight, data]) => {
    const bytes = Buffer.from(data!, 'base64');
    return { family: family!, weight: Number(weight), font: fontkit.create(bytes) as fontkit.Font, bytes: bytes.length };
  });
}

/** Each slide's items fit its content area: their measured heights (the renderer's capacity rule) add up to no more. */
function expectItemsFit(renderInput: RenderInput, list: Slide[]): void {
  const measure = slideWebMeasure(renderInput);
  const references = buildReferences(renderInput.snapshot.data.items);
  const byId = new Map(renderInput.snapshot.data.items.map((item) => [item.id, item]));
  for (const slide of list) {
    const used = slide.items.reduce((sum, id) => sum + itemHeight(measure, byId.get(id)!, references), 0);
    expect({ slide: slide.title, fits: used <= BODY_H }).toEqual({ slide: slide.title, fits: true });
  }
}

describe('slide-web renderer (frontend-slides)', () => {
  it('is one self-contained HTML file: title, summary, each jurisdiction over as many slides as it needs, trends, sources', async () => {
    const snapshot = realisticSnapshot();
    const page = await html(input(snapshot, { styleSlug: 'dark-editorial' }));
    expect(page.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(assetUrls(page)).toEqual([]);
    expect(page).toContain("default-src 'none'");
    expect(page).toContain('font-src data:');
    expect(page).toContain('ArrowRight');
    expect(page).toContain('ArrowLeft');
    const list = slides(page);
    expect(page).toContain(`<span data-current>1</span> / ${list.length}`);
    const runs = sectionRuns(list);
    expect([...runs.keys()]).toEqual(['Regulatory horizon scan', 'Executive summary', 'Milestones by quarter', 'EU', 'UK', 'Trends', 'Sources']);
    expect(runs.get('EU')!.length).toBeGreaterThan(1);
    for (const section of groupByJurisdiction(snapshot)) {
      expect(runs.get(section.jurisdiction)!.flatMap((slide) => slide.items)).toEqual(section.items.map((item) => item.id));
    }
    expect(page).not.toMatch(/overflow(-y)?\s*:\s*(auto|scroll)/);
    expectItemsFit(input(snapshot, { styleSlug: 'dark-editorial' }), list);
  });

  it('contains every item title, escaped', async () => {
    for (const snapshot of [realisticSnapshot(), syntheticSnapshot(100)]) {
      const page = await html(input(snapshot));
      for (const item of snapshot.data.items) expect(page).toContain(escapeHtml(item.title));
    }
  });

  it('escapes markup in the content', async () => {
    const page = await html(input(awkwardSnapshot()));
    expect(page).toContain('The &quot;Quoted&quot;, comma, &lt;b&gt;bold&lt;/b&gt; &amp; &lt;script&gt;alert(1)&lt;/script&gt; regulation');
    expect(page).not.toContain('<script>alert(1)</script>');
    expect(page).not.toContain('<b>bold</b>');
    expect(page.match(/<script>/g)).toHaveLength(1);
  });

  it('links only http(s) sources, as plain anchors', async () => {
    const snapshot = realisticSnapshot();
    snapshot.data.items[0]!.citations[0]!.url = 'javascript:alert(1)';
    const page = await html(input(snapshot));
    expect(page).not.toContain('href="javascript:');
    const hrefs = [...page.matchAll(/href="([^"]*)"/g)].map((m) => m[1]!);
    expect(hrefs.length).toBeGreaterThan(5);
    for (const href of hrefs) expect(href).toMatch(/^https?:\/\//);
  });

  it('has the two styles', async () => {
    const snapshot = realisticSnapshot();
    const dark = await html(input(snapshot, { styleSlug: 'dark-editorial' }));
    const light = await html(input(snapshot, { styleSlug: 'light-consulting' }));
    expect(dark).toContain('--bg:#111418');
    expect(dark).toContain("'Source Serif 4'");
    expect(light).toContain('--bg:#FFFFFF');
    expect(light).toContain('class="style-light-consulting');
  });

  it('embeds the fonts it uses, cut to the characters of the slides; a CJK font only for CJK text', async () => {
    const latin = await html(input(realisticSnapshot(), { styleSlug: 'dark-editorial' }));
    const latinFonts = embeddedFonts(latin);
    expect(latinFonts.map((f) => `${f.family} ${f.weight}`).sort()).toEqual([
      'Source Sans 3 400',
      'Source Sans 3 700',
      'Source Serif 4 400',
      'Source Serif 4 700',
    ]);
    expect(Buffer.byteLength(latin)).toBeLessThan(250_000);
    const zh = await html(input(zhSnapshot(), { styleSlug: 'light-consulting' }, 'zh'));
    const zhFonts = embeddedFonts(zh);
    expect(zhFonts.map((f) => `${f.family} ${f.weight}`).sort()).toEqual([
      'Noto Sans S Chinese 400',
      'Noto Sans S Chinese 700',
      'Source Sans 3 400',
      'Source Sans 3 700',
    ]);
    // Whole CJK files are 8 MB a weight; the slides carry only their own characters.
    expect(Buffer.byteLength(zh)).toBeLessThan(1_000_000);
    const sans = zhFonts.find((f) => f.family === 'Source Sans 3' && f.weight === 400)!.font;
    const cjk = zhFonts.find((f) => f.family === 'Noto Sans S Chinese' && f.weight === 400)!.font;
    for (const char of new Set(
      visible(
        slides(zh)
          .map((s) => s.markup)
          .join(' '),
      ).replace(/\s/g, ''),
    )) {
      const cp = char.codePointAt(0)!;
      expect({ char, covered: sans.hasGlyphForCodePoint(cp) || cjk.hasGlyphForCodePoint(cp) }).toEqual({ char, covered: true });
    }
    expect(zh).toContain('支付服务指令第三版');
  });

  it('hard snapshot: every title whole, every reference listed and linked, each slide within its frame', async () => {
    const snapshot = hardSnapshot();
    const renderInput = input(snapshot, { styleSlug: 'light-consulting' });
    const page = await html(renderInput);
    const list = slides(page);
    const text = list.map((slide) => slide.text).join('\n');
    expect(text).not.toContain('…');
    for (const item of snapshot.data.items) {
      expect(text).toContain(item.title);
      expect(text).toContain(dateWithMilestone(item));
    }
    const references = buildReferences(snapshot.data.items);
    const runs = sectionRuns(list);
    const sources = runs
      .get('Sources')!
      .map((slide) => slide.markup)
      .join(' ');
    for (const { number, citation } of references.list) {
      expect(visible(sources)).toContain(`[${number}] ${citation.title}`);
      expect(sources).toContain(`href="${escapeHtml(citation.url)}"`);
    }
    for (const slide of list) {
      for (const id of slide.items) {
        const item = snapshot.data.items.find((i) => i.id === id)!;
        for (const n of references.itemNumbers(item))
          expect(slide.markup).toContain(
            `href="${escapeHtml(references.list[n - 1]!.citation.url)}" rel="noopener noreferrer" target="_blank">[${n}]</a>`,
          );
      }
    }
    expect(page).not.toMatch(/overflow(-y)?\s*:\s*(auto|scroll)/);
    expectItemsFit(renderInput, list);
    for (const section of groupByJurisdiction(snapshot)) {
      expect(runs.get(section.jurisdiction)!.flatMap((slide) => slide.items)).toEqual(section.items.map((item) => item.id));
    }
  }, 60_000);

  it('lists every de-duplicated reference over as many sources slides as needed', async () => {
    const snapshot = distinctSources(hardSnapshot(60));
    const references = buildReferences(snapshot.data.items);
    const runs = sectionRuns(slides(await html(input(snapshot))));
    const sources = runs.get('Sources')!;
    expect(sources.length).toBeGreaterThan(1);
    const text = sources.map((slide) => slide.text).join(' ');
    let from = 0;
    for (const { number, citation } of references.list) {
      const at = text.indexOf(`[${number}] ${citation.title}`, from);
      expect(at).toBeGreaterThanOrEqual(from);
      from = at;
    }
  });

  it('continues a very long bottom line, priority list and trend over further slides instead of cutting them', async () => {
    const snapshot = longProse(realisticSnapshot());
    const runs = sectionRuns(slides(await html(input(snapshot))));
    const summary = runs.get('Executive summary')!;
    expect(summary.length).toBeGreaterThan(1);
    const summaryText = summary.map((slide) => slide.text).join(' ');
    for (const sentence of snapshot.data.executive_summary.bottom_line.split('. ')) expect(summaryText).toContain(sentence);
    snapshot.data.executive_summary.priorities.forEach((priority, i) => expect(summaryText).toContain(`${i + 1}. ${priority}`));
    const trends = runs.get('Trends')!;
    expect(trends.length).toBeGreaterThan(1);
    for (const sentence of snapshot.data.trends[0]!.description.split('. '))
      expect(trends.map((slide) => slide.text).join(' ')).toContain(sentence);
  });

  it('states the selection and the disclaimer on the summary slide', async () => {
    const snapshot = hardSnapshot();
    const summary = slides(await html(input(snapshot)))[1]!;
    expect(summary.title).toBe('Executive summary');
    expect(summary.text).toContain(selectionLine(snapshot));
    expect(summary.text).toContain(disclaimerLine(snapshot));
  });

  it('marks the language produced, not the one asked for, and says when they differ', async () => {
    const snapshot = hardSnapshot();
    const asked = input(snapshot, { targetLanguage: 'zh' }, 'en');
    const page = await html(asked);
    expect(page).toContain('<html lang="en">');
    expect(slides(page)[0]!.text).toContain(languageNotice(asked)!);
    expect(slides(page)[0]!.text).toContain(snapshot.data._briefing!.briefing_headline);
    expect(slides(page)[0]!.text).toContain(snapshot.title);
    const zh = await html(input(zhSnapshot(), { targetLanguage: 'zh' }, 'zh'));
    expect(zh).toContain('<html lang="zh-CN">');
    expect(zh).not.toContain('Requested in');
    expect(await html(input(jaSnapshot(), {}, 'ja'))).toContain('<html lang="ja">');
  });

  it('shows the changes since the previous scan, continued when long', async () => {
    const snapshot = realisticSnapshot();
    const drift = sampleDrift(snapshot);
    const changes = slides(await html({ ...input(snapshot), drift }))[2]!;
    expect(changes.title).toBe('Changes since 3 Nov 2026');
    expect(changes.text).toContain(driftLine(drift));
    expect(changes.text).toContain(`New ${snapshot.data.items[0]!.title}`);
    expect(changes.text).toContain(`Removed Instrument the item cap kept out this time ${removalLabel('dropped_by_cap')}`);
    expect(changes.text).toContain(`Removed Instrument withdrawn from the calendar ${removalLabel('left_calendar')}`);
    expect(changes.text).toContain(`Changed ${snapshot.data.items[1]!.title} key date: 31 Jan 2027 → `);
    const long = { ...drift, added: snapshot.data.items.map((item) => ({ ...item })) };
    const many = sectionRuns(slides(await html({ ...input(snapshot), drift: long }))).get('Changes since 3 Nov 2026')!;
    expect(many.length).toBeGreaterThan(1);
    for (const item of snapshot.data.items) expect(many.map((slide) => slide.text).join(' ')).toContain(`New ${item.title}`);
  });

  it('sets Chinese and Japanese titles whole and within the frame', async () => {
    for (const [snapshot, locale, titles] of [
      [zhSnapshot(), 'zh', ZH_TITLES],
      [jaSnapshot(), 'ja', JA_TITLES],
    ] as const) {
      const renderInput = input(snapshot, {}, locale);
      const list = slides(await html(renderInput));
      for (const title of titles) expect(list.map((slide) => slide.text).join(' ')).toContain(title);
      expectItemsFit(renderInput, list);
    }
  });
});
