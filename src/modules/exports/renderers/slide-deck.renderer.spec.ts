import type JSZip from 'jszip';
import { hideNodeFromPptxgenjs, slideFiles, unzip } from '../../../../test/support/inspect-artefact';
import {
  distinctSources,
  hardSnapshot,
  longProse,
  input,
  jaSnapshot,
  JA_TITLES,
  realisticSnapshot,
  sampleDrift,
  ZH_TITLES,
  zhSnapshot,
} from '../../../../test/fixtures/snapshots';
import { groupByJurisdiction } from './item-grouping';
import { buildReferences, dateWithMilestone, disclaimerLine, driftLine, languageNotice, removalLabel, selectionLine } from './render-facts';
import { renderSlideDeck } from './slide-deck.renderer';
import { bundledFont, type FontKey, openFont } from './fonts';
import type { RenderInput, RenderSnapshot } from './types';

/* Reading slide XML: paragraphs with their runs, and text boxes with their frames. */

interface XmlRun {
  text: string;
  size: number;
  bold: boolean;
  face: string;
}

interface XmlParagraph {
  runs: XmlRun[];
  /** Exact line spacing, points (null: single). */
  spacing: number | null;
  before: number;
}

interface XmlTextBox {
  x: number;
  y: number;
  w: number;
  h: number;
  paragraphs: XmlParagraph[];
}

const EMU_PER_PT = 12700;

function decode(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
}

function slideParagraphs(xml: string): XmlParagraph[] {
  return [...xml.matchAll(/<a:p>([\s\S]*?)<\/a:p>/g)].map(([, body]) => ({
    runs: [...body!.matchAll(/<a:r>([\s\S]*?)<\/a:r>/g)].map(([, run]) => ({
      text: decode(/<a:t>([^<]*)<\/a:t>/.exec(run!)?.[1] ?? ''),
      size: Number(/\bsz="(\d+)"/.exec(run!)?.[1] ?? 1800) / 100,
      bold: /\bb="1"/.test(run!),
      face: /<a:latin typeface="([^"]+)"/.exec(run!)?.[1] ?? 'Arial',
    })),
    spacing: body!.includes('<a:lnSpc><a:spcPts') ? Number(/<a:lnSpc><a:spcPts val="(\d+)"/.exec(body!)![1]) / 100 : null,
    before: Number(/<a:spcBef><a:spcPts val="(\d+)"/.exec(body!)?.[1] ?? 0) / 100,
  }));
}

function paragraphText(paragraph: XmlParagraph): string {
  return paragraph.runs.map((run) => run.text).join('');
}

function textBoxes(xml: string): XmlTextBox[] {
  return [...xml.matchAll(/<p:sp>([\s\S]*?)<\/p:sp>/g)]
    .map(([, shape]) => shape!)
    .filter((shape) => shape.includes('<p:txBody>') && shape.includes('<a:t>'))
    .map((shape) => {
      const off = /<a:off x="(\d+)" y="(\d+)"\/>/.exec(shape)!;
      const ext = /<a:ext cx="(\d+)" cy="(\d+)"\/>/.exec(shape)!;
      const inset = (name: string, fallback: number): number => Number(new RegExp(`${name}="(\\d+)"`).exec(shape)?.[1] ?? fallback);
      const [l, t, r, b] = [inset('lIns', 91440), inset('tIns', 45720), inset('rIns', 91440), inset('bIns', 45720)];
      return {
        x: Number(off[1]) + l,
        y: Number(off[2]) + t,
        w: Number(ext[1]) - l - r,
        h: Number(ext[2]) - t - b,
        paragraphs: slideParagraphs(shape),
      };
    });
}

/*
 * An estimate of the wrapped height of a text box, independent of the renderer's: each run measured with the
 * face the XML names (Arial by the bundled Arimo, its metric twin; the CJK families by
 * their files), with kerning (fontkit layout), greedily filling lines at spaces and between CJK characters.
 */

const FACE_FONTS: Record<string, FontKey> = { Arial: 'arimo', 'Noto Sans S Chinese': 'sc', 'Noto Sans Japanese': 'jp' };
const widths = new Map<string, number>();

function tokenWidth(token: string, run: XmlRun): number {
  const key = `${run.face}|${run.bold}|${token}`;
  let width = widths.get(key);
  if (width === undefined) {
    const font = bundledFont(FACE_FONTS[run.face] ?? 'sans');
    const file = openFont(run.bold ? font.bold : font.regular);
    width = file.layout(token).advanceWidth / file.unitsPerEm;
    widths.set(key, width);
  }
  return width * run.size;
}

function wrappedLines(paragraph: XmlParagraph, widthPt: number): number {
  let lines = 1;
  let used = 0;
  for (const run of paragraph.runs) {
    for (const token of run.text.match(
      /[\u2E80-\u9FFF\uF900-\uFAFF\uFF00-\uFFEF\u3000-\u303F]|[^ \u2E80-\u9FFF\uF900-\uFAFF\uFF00-\uFFEF\u3000-\u303F]+ ?| /gu,
    ) ?? []) {
      const visible = tokenWidth(token.trimEnd(), run);
      if (used > 0 && used + visible > widthPt) {
        lines++;
        used = 0;
      }
      if (used === 0 && visible > widthPt) {
        lines += Math.floor(visible / widthPt);
        used = visible % widthPt;
      } else used += tokenWidth(token, run);
    }
  }
  return lines;
}

const SLIDE_W = 13.333 * 914400;
const SLIDE_H = 7.5 * 914400;

/** Text boxes whose wrapped text is taller than their frame, or that leave the slide. */
function layoutProblems(xml: string): string[] {
  const problems: string[] = [];
  for (const box of textBoxes(xml)) {
    const label = paragraphText(box.paragraphs[0]!).slice(0, 40);
    const height = box.paragraphs.reduce((sum, p) => {
      const size = Math.max(...p.runs.map((run) => run.size), 1);
      return sum + wrappedLines(p, box.w / EMU_PER_PT) * (p.spacing ?? size * 1.2) + p.before;
    }, 0);
    if (height > box.h / EMU_PER_PT + 1)
      problems.push(`"${label}": text ${height.toFixed(1)} pt in a ${(box.h / EMU_PER_PT).toFixed(1)} pt frame`);
    if (box.x + box.w > SLIDE_W + 1 || box.y + box.h > SLIDE_H + 1) problems.push(`"${label}": off the slide`);
  }
  return problems;
}

function overlaps(boxes: XmlTextBox[]): string[] {
  const found: string[] = [];
  const tolerance = 0.01 * 914400;
  boxes.forEach((a, i) =>
    boxes.slice(i + 1).forEach((b) => {
      const x = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
      const y = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
      if (x > tolerance && y > tolerance)
        found.push(`"${paragraphText(a.paragraphs[0]!).slice(0, 30)}" / "${paragraphText(b.paragraphs[0]!).slice(0, 30)}"`);
    }),
  );
  return found;
}

beforeAll(hideNodeFromPptxgenjs);

interface Deck {
  zip: JSZip;
  xml: string[];
  /** Per slide: each paragraph's runs joined, paragraphs joined by a space. */
  text: string[];
  /** Per slide: its first run (the slide title, or the kicker of the title slide). */
  titles: string[];
  rels: string[];
  notes: string;
}

async function deck(renderInput: RenderInput): Promise<Deck> {
  const out = await renderSlideDeck(renderInput);
  const zip = await unzip(out.bytes);
  const files = slideFiles(zip);
  const xml = await Promise.all(files.map((name) => zip.file(name)!.async('string')));
  const rels = await Promise.all(files.map((name) => zip.file(name.replace('slides/', 'slides/_rels/') + '.rels')?.async('string') ?? ''));
  const noteFiles = Object.keys(zip.files).filter((name) => /^ppt\/notesSlides\/notesSlide\d+\.xml$/.test(name));
  const notes = (
    await Promise.all(
      noteFiles.map(async (name) =>
        slideParagraphs(await zip.file(name)!.async('string'))
          .map(paragraphText)
          .join(' '),
      ),
    )
  ).join(' ');
  return {
    zip,
    xml,
    text: xml.map((slide) => slideParagraphs(slide).map(paragraphText).join(' ')),
    titles: xml.map((slide) => slideParagraphs(slide)[0]!.runs[0]!.text),
    rels,
    notes,
  };
}

/** Slide titles grouped by section name ("EU (2 of 3)" → EU), checking each run of continuations is complete. */
function sectionRuns(titles: string[]): Array<{ name: string; slides: number[] }> {
  const runs: Array<{ name: string; slides: number[] }> = [];
  titles.forEach((title, index) => {
    const m = /^(.*) \((\d+) of (\d+)\)$/.exec(title);
    const name = m ? m[1]! : title;
    const last = runs[runs.length - 1];
    if (m && m[2] !== '1') {
      expect(last?.name).toBe(name);
      expect(last!.slides).toHaveLength(Number(m[2]) - 1);
      last!.slides.push(index);
    } else runs.push({ name, slides: [index] });
    if (m && m[2] === m[3]) expect(runs[runs.length - 1]!.slides).toHaveLength(Number(m[3]));
  });
  return runs;
}

describe('slide-deck renderer (internal-pptx)', () => {
  it('is a PPTX zip: title, summary, each jurisdiction over as many slides as it needs, trends, sources', async () => {
    const snapshot = realisticSnapshot();
    const out = await renderSlideDeck(input(snapshot, { theme: 'dark' }));
    expect(out.mime).toBe('application/vnd.openxmlformats-officedocument.presentationml.presentation');
    expect(out.filename).toBe('regulatory-horizon-eu-uk-2026-11-22-slides.pptx');
    expect(out.bytes.subarray(0, 2).toString('ascii')).toBe('PK');
    const d = await deck(input(snapshot, { theme: 'dark' }));
    const presentation = await d.zip.file('ppt/presentation.xml')!.async('string');
    expect(presentation.match(/<p:sldId /g)).toHaveLength(d.xml.length);
    const runs = sectionRuns(d.titles);
    expect(runs.map((run) => run.name)).toEqual(['REGULATORY HORIZON SCAN', 'Executive summary', 'Milestones by quarter', 'EU', 'UK', 'Trends', 'Sources']);
    // 13 EU items with two-line rows do not fit one 16:9 slide: they continue ("EU (2 of 2)"), none is left out.
    expect(d.titles).toContain('EU (1 of 2)');
    for (const section of groupByJurisdiction(snapshot)) {
      const run = runs.find((r) => r.name === section.jurisdiction)!;
      const text = run.slides.map((i) => d.text[i]).join(' ');
      let from = 0;
      for (const item of section.items) {
        const at = text.indexOf(item.title, from);
        expect(at).toBeGreaterThanOrEqual(from);
        from = at;
      }
    }
    expect(d.notes).toContain(snapshot.data.items[0]!.summary.slice(0, 60));
  });

  it('writes one paragraph-properties element per paragraph, first (what PowerPoint requires)', async () => {
    const d = await deck(input(realisticSnapshot()));
    for (const xml of d.xml) {
      for (const paragraph of xml
        .split('<a:p>')
        .slice(1)
        .map((chunk) => chunk.split('</a:p>')[0]!)) {
        expect((paragraph.match(/<a:pPr\b/g) ?? []).length).toBeLessThanOrEqual(1);
        if (paragraph.includes('<a:pPr')) expect(paragraph.startsWith('<a:pPr')).toBe(true);
      }
    }
  });

  it('hard snapshot: every title whole, every reference listed and linked, and no text box holds more than fits', async () => {
    const snapshot = hardSnapshot();
    const d = await deck(input(snapshot, { theme: 'light' }));
    const all = d.text.join('\n');
    expect(all).not.toContain('…');
    for (const item of snapshot.data.items) {
      expect(all).toContain(item.title);
      expect(item.title).toMatch(/^HARD-\d{3} .* END-\d{3}$/);
      expect(all).toContain(dateWithMilestone(item));
    }
    expect(all).toContain(snapshot.title);
    const references = buildReferences(snapshot.data.items);
    const runs = sectionRuns(d.titles);
    const sources = runs.find((run) => run.name === 'Sources')!;
    const sourcesText = sources.slides.map((i) => d.text[i]).join(' ');
    const sourcesRels = sources.slides.map((i) => d.rels[i]).join(' ');
    for (const { number, citation } of references.list) {
      expect(sourcesText).toContain(`[${number}] ${citation.title}`);
      expect(sourcesText).toContain(citation.url);
      expect(sourcesRels).toContain(`Target="${citation.url.replace(/&/g, '&amp;')}"`);
    }
    // Each item's reference numbers sit on its row, linked to the source.
    for (const section of groupByJurisdiction(snapshot)) {
      const run = runs.find((r) => r.name === section.jurisdiction)!;
      for (const item of section.items) {
        const slide = run.slides.find((i) => d.text[i]!.includes(item.title))!;
        for (const n of references.itemNumbers(item)) {
          expect(d.text[slide]).toContain(`[${n}]`);
          expect(d.rels[slide]).toContain(`Target="${references.list[n - 1]!.citation.url.replace(/&/g, '&amp;')}"`);
        }
      }
    }
    d.xml.forEach((xml, index) => {
      expect({ slide: index + 1, problems: layoutProblems(xml) }).toEqual({ slide: index + 1, problems: [] });
      expect({ slide: index + 1, overlaps: overlaps(textBoxes(xml)) }).toEqual({ slide: index + 1, overlaps: [] });
    });
  }, 60_000);

  it('lists every de-duplicated reference over as many sources slides as needed, numbered as on the item slides', async () => {
    const snapshot = distinctSources(hardSnapshot(60));
    const references = buildReferences(snapshot.data.items);
    expect(references.list.length).toBeGreaterThan(45);
    const d = await deck(input(snapshot));
    const sources = sectionRuns(d.titles).find((run) => run.name === 'Sources')!;
    expect(sources.slides.length).toBeGreaterThan(1);
    const text = sources.slides.map((i) => d.text[i]).join(' ');
    let from = 0;
    for (const { number, citation } of references.list) {
      const at = text.indexOf(`[${number}] ${citation.title}`, from);
      expect(at).toBeGreaterThanOrEqual(from);
      from = at;
    }
    expect(d.text.join(' ')).not.toMatch(/more (sources|items) in the full report/);
    for (const i of sources.slides) expect(layoutProblems(d.xml[i]!)).toEqual([]);
  });

  it('states the selection and the disclaimer on the summary slide', async () => {
    const snapshot = hardSnapshot();
    const d = await deck(input(snapshot));
    expect(d.titles[1]).toBe('Executive summary');
    expect(d.text[1]).toContain('Top 100 of 240 matching instruments');
    expect(d.text[1]).toContain(selectionLine(snapshot));
    expect(d.text[1]).toContain(disclaimerLine(snapshot));
  });

  it('puts the briefing headline on the cover, whole, and the language notice when the language asked for is missing', async () => {
    const snapshot = hardSnapshot();
    const asked = input(snapshot, { targetLanguage: 'zh' }, 'en');
    const d = await deck(asked);
    expect(d.text[0]).toContain(snapshot.data._briefing!.briefing_headline);
    expect(d.text[0]).toContain(snapshot.title);
    expect(d.text[0]).toContain(languageNotice(asked)!);
    const plain = await deck(input({ ...snapshot, data: { ...snapshot.data, _briefing: undefined } }));
    expect(plain.text[0]).toContain(snapshot.title);
    expect(plain.text[0]).not.toContain('Requested in');
  });

  it('shows the changes since the previous scan, continued when long', async () => {
    const snapshot = realisticSnapshot();
    const drift = sampleDrift(snapshot);
    const d = await deck({ ...input(snapshot), drift });
    expect(d.titles[2]).toBe('Changes since 3 Nov 2026');
    expect(d.text[2]).toContain(driftLine(drift));
    expect(d.text[2]).toContain(`NEW ${snapshot.data.items[0]!.title}`);
    expect(d.text[2]).toContain(`REMOVED Instrument the item cap kept out this time ${removalLabel('dropped_by_cap')}`);
    expect(d.text[2]).toContain(`REMOVED Instrument withdrawn from the calendar ${removalLabel('left_calendar')}`);
    expect(d.text[2]).toContain(`CHANGED ${snapshot.data.items[1]!.title} key date: 31 Jan 2027 → `);

    const long = {
      ...drift,
      added: snapshot.data.items.map((item) => ({ ...item })),
      summary: { ...drift.summary, added: snapshot.data.items.length },
    };
    const many = await deck({ ...input(snapshot), drift: long });
    const changes = sectionRuns(many.titles).find((run) => run.name === 'Changes since 3 Nov 2026')!;
    expect(changes.slides.length).toBeGreaterThan(1);
    const text = changes.slides.map((i) => many.text[i]).join(' ');
    for (const item of snapshot.data.items) expect(text).toContain(`NEW ${item.title}`);
    for (const i of changes.slides) expect(layoutProblems(many.xml[i]!)).toEqual([]);
  });

  it('continues a very long bottom line, priority list and trend over further slides instead of cutting them', async () => {
    const snapshot = longProse(realisticSnapshot());
    const d = await deck(input(snapshot));
    const runs = sectionRuns(d.titles);
    const summary = runs.find((run) => run.name === 'Executive summary')!;
    const trends = runs.find((run) => run.name === 'Trends')!;
    expect(summary.slides.length).toBeGreaterThan(1);
    const words = (text: string): string => text.replace(/\s+/g, ' ');
    const summaryText = words(summary.slides.map((i) => d.text[i]).join(' '));
    for (const sentence of snapshot.data.executive_summary.bottom_line.split('. ')) expect(summaryText).toContain(sentence);
    snapshot.data.executive_summary.priorities.forEach((priority, i) => expect(summaryText).toContain(`${i + 1}. ${priority}`));
    const trendText = words(trends.slides.map((i) => d.text[i]).join(' '));
    for (const sentence of snapshot.data.trends[0]!.description.split('. ')) expect(trendText).toContain(sentence);
    for (const i of [...summary.slides, ...trends.slides]) expect(layoutProblems(d.xml[i]!)).toEqual([]);
  });

  it('follows the theme', async () => {
    const snapshot = realisticSnapshot();
    const dark = await unzip((await renderSlideDeck(input(snapshot, { theme: 'dark' }))).bytes);
    const light = await unzip((await renderSlideDeck(input(snapshot, { theme: 'light' }))).bytes);
    expect(await dark.file('ppt/slides/slide2.xml')!.async('string')).toContain('0B1F3A');
    expect(await light.file('ppt/slides/slide2.xml')!.async('string')).toContain('FFFFFF');
  });

  it('names the bundled CJK face and language for Chinese and Japanese text, and fits it', async () => {
    for (const [snapshot, locale, face, lang, titles] of [
      [zhSnapshot(), 'zh', 'Noto Sans S Chinese', 'zh-CN', ZH_TITLES],
      [jaSnapshot(), 'ja', 'Noto Sans Japanese', 'ja-JP', JA_TITLES],
    ] as const) {
      const d = await deck(input(snapshot, { theme: 'light' }, locale));
      expect(d.xml[2]).toContain(`<a:ea typeface="${face}"`);
      expect(d.xml[2]).toContain(`lang="${lang}"`);
      for (const title of titles) expect(d.text.join(' ')).toContain(title);
      d.xml.forEach((xml) => expect(layoutProblems(xml)).toEqual([]));
    }
  });
});
