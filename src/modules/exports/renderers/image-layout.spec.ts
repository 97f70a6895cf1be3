/**
 * What a reader sees on the PNG images, checked on the SVG before rasterisation: titles whole, no text drawn
 * over other text or off the page, and the facts every artefact must carry (selection, sources, dates,
 * disclaimer, language notice, drift).
 */
import { INFOGRAPHIC_CUSTOM_STYLES, TEARSHEET_DETAILED_STYLES } from '../export-types/image-styles';
import {
  hardSnapshot,
  hardTitle,
  input,
  jaSnapshot,
  realisticSnapshot,
  sampleDrift,
  zhSnapshot,
} from '../../../../test/fixtures/snapshots';
import { squash } from '../../../../test/support/inspect-artefact';
import { bundledFont, type FontKey, hasGlyph, openFont } from './fonts';
import { IMAGE_SIZES, type ImageArtifactType, renderImageSvg } from './image.renderer';
import { disclaimerLine, driftLine, keyDateLabel, languageNotice, shortSource } from './render-facts';
import { shownNote } from './image-page';
import type { RenderInput, RenderSnapshot } from './types';

interface TextBox {
  text: string;
  x: number;
  top: number;
  w: number;
  bottom: number;
}

const FAMILIES = new Map<string, FontKey>((['sans', 'serif', 'mono', 'sc', 'jp'] as const).map((key) => [bundledFont(key).family, key]));

function unescape(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

function attr(attrs: string, name: string): string | undefined {
  return new RegExp(`(?:^|\\s)${name}="([^"]*)"`).exec(attrs)?.[1];
}

/**
 * Width as fontkit lays the line out (shaped, with kerning), independent of the renderer's own measuring. resvg
 * sets a whole element in one family: the first listed one when it has every glyph, else a fallback that has
 * them (for CJK text, the CJK family, Latin letters included), so that is the family measured here.
 */
const advances = new Map<string, number>();

function layoutWidth(text: string, families: string[], size: number, bold: boolean, spacing: number): number {
  const files = families
    .map((family) => FAMILIES.get(family))
    .filter((key): key is FontKey => key !== undefined)
    .map((key) => (bold ? bundledFont(key).bold : bundledFont(key).regular));
  const chars = [...text].filter((char) => char.codePointAt(0)! > 0x20);
  const file = files.find((candidate) => chars.every((char) => hasGlyph(candidate, char.codePointAt(0)!))) ?? files.at(-1)!;
  const key = `${file}|${text}`;
  let advance = advances.get(key);
  if (advance === undefined) {
    const font = openFont(file);
    try {
      advance = font.layout(text).advanceWidth / font.unitsPerEm;
    } catch {
      // fontkit cannot lay out IBM Plex Mono (its space glyph); every glyph of a monospace face is 0.6 em.
      advance = [...text].length * 0.6;
    }
    advances.set(key, advance);
  }
  return advance * size + [...text].length * spacing;
}

/** Every <text> element: its text (tspans joined) and its box from x, y, size, anchor and the fonts' widths. */
function textBoxes(svg: string): TextBox[] {
  const boxes: TextBox[] = [];
  for (const match of svg.matchAll(/<text ([^>]*)>(.*?)<\/text>/gs)) {
    const attrs = match[1]!;
    const body = match[2]!;
    const size = Number(attr(attrs, 'font-size'));
    const bold = attr(attrs, 'font-weight') === '700';
    const spacing = Number(attr(attrs, 'letter-spacing') ?? 0);
    const anchor = attr(attrs, 'text-anchor') ?? 'start';
    const families = unescape(attr(attrs, 'font-family') ?? '')
      .split(',')
      .map((family) => family.trim().replace(/^'|'$/g, ''));
    const lines = [...body.matchAll(/<tspan ([^>]*)>(.*?)<\/tspan>/gs)].map((span) => ({
      x: Number(attr(span[1]!, 'x')),
      y: Number(attr(span[1]!, 'y')),
      text: unescape(span[2]!),
    }));
    if (lines.length === 0) lines.push({ x: Number(attr(attrs, 'x')), y: Number(attr(attrs, 'y')), text: unescape(body) });
    for (const line of lines) {
      const w = layoutWidth(line.text, families, size, bold, spacing);
      const x = anchor === 'end' ? line.x - w : anchor === 'middle' ? line.x - w / 2 : line.x;
      const box = { x, top: line.y - 0.9 * size, w, bottom: line.y + 0.25 * size };
      const last = boxes.at(-1);
      if (last && line !== lines[0]) {
        // Lines of one element: one box spanning them.
        const right = Math.max(last.x + last.w, box.x + box.w);
        last.x = Math.min(last.x, box.x);
        last.w = right - last.x;
        last.top = Math.min(last.top, box.top);
        last.bottom = Math.max(last.bottom, box.bottom);
        last.text += ` ${line.text}`;
      } else {
        boxes.push({ text: line.text, ...box });
      }
    }
  }
  return boxes;
}

/** Pairs of text boxes that overlap by more than a pixel, and boxes that leave the canvas. */
function layoutProblems(svg: string, type: ImageArtifactType): string[] {
  const { width, height } = IMAGE_SIZES[type];
  const boxes = textBoxes(svg);
  const problems: string[] = [];
  const short = (box: TextBox): string => `"${box.text.slice(0, 50)}" (${Math.round(box.x)},${Math.round(box.top)})`;
  for (const box of boxes) {
    if (box.x < -1 || box.top < -1 || box.x + box.w > width + 1 || box.bottom > height + 1) problems.push(`off the page: ${short(box)}`);
  }
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i]!;
      const b = boxes[j]!;
      const dx = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
      const dy = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (dx > 1 && dy > 1) problems.push(`${short(a)} overlaps ${short(b)}`);
    }
  }
  return problems;
}

function allText(svg: string): string {
  return squash(
    textBoxes(svg)
      .map((box) => box.text)
      .join(' '),
  );
}

const CASES: Array<[ImageArtifactType, string]> = [
  ...TEARSHEET_DETAILED_STYLES.map((style): [ImageArtifactType, string] => ['tearsheet-detailed', style.slug]),
  ...INFOGRAPHIC_CUSTOM_STYLES.map((style): [ImageArtifactType, string] => ['infographic-custom', style.slug]),
];

function hardInput(slug: string): RenderInput {
  const snapshot = hardSnapshot();
  return { ...input(snapshot, { styleSlug: slug, targetLanguage: 'ja' }, 'zh'), drift: sampleDrift(snapshot) };
}

/** Numbers of the hard items whose titles the image shows (the snapshot title also starts with HARD-001). */
function shownHardItems(svg: string): number[] {
  const numbers = new Set<number>();
  for (const box of textBoxes(svg)) {
    if (box.text.includes('deliberately hard')) continue;
    for (const match of box.text.matchAll(/HARD-(\d{3})/g)) numbers.add(Number(match[1]));
  }
  return [...numbers].sort((a, b) => a - b);
}

describe('image layout', () => {
  describe.each(CASES)('%s %s, hard snapshot', (type, slug) => {
    const run = hardInput(slug);
    let svg = '';
    let text = '';
    beforeAll(() => {
      svg = renderImageSvg(type, run);
      text = allText(svg);
    });

    it('shows every title it shows whole, and cuts nothing', () => {
      for (const box of textBoxes(svg)) {
        for (const match of box.text.matchAll(/HARD-(\d{3})/g)) {
          expect(squash(box.text)).toContain(squash(hardTitle(Number(match[1]) - 1)));
        }
        expect(box.text).not.toContain('…');
      }
      expect(text).toContain(squash(run.snapshot.title));
    });

    it('draws no text over other text and none off the page', () => {
      expect(layoutProblems(svg, type)).toEqual([]);
    });

    it('says how many of the items it shows, how they were selected, and where they come from', () => {
      const shown = shownHardItems(svg);
      expect(shown.length).toBeGreaterThan(0);
      const items = shown.map((number) => run.snapshot.data.items[number - 1]!);
      if (slug === 'kanban-lanes') {
        // One lane per stage, each with its top-ranked items.
        for (const stage of new Set(items.map((item) => item.stage))) {
          const ofStage = run.snapshot.data.items.filter((item) => item.stage === stage);
          const shownOfStage = items.filter((item) => item.stage === stage);
          expect(shownOfStage).toEqual(ofStage.slice(0, shownOfStage.length));
        }
        // The hard snapshot records 240 matches for its 100 items: the note counts every match.
        expect(text).toContain(squash(`${shown.length} of 240 matching instruments shown (the top-ranked of each stage); full list in the PDF report.`));
      } else {
        // The top-ranked items: a prefix of the snapshot's ranking.
        expect(shown).toEqual(shown.map((_, index) => index + 1));
        expect(text).toContain(squash(shownNote(shown.length, 240)));
        expect(shownNote(shown.length, 240)).toMatch(/^Top \d+ of 240 matching instruments shown, ranked by relevance/);
      }
      expect(text.split(squash('Source:')).length - 1).toBeGreaterThanOrEqual(items.length);
      for (const item of items) {
        expect(text).toContain(squash(shortSource(item)!));
        expect(text).toContain(squash(keyDateLabel(item)));
      }
    });

    it('carries the disclaimer, the language notice and the drift line', () => {
      expect(text).toContain(squash(disclaimerLine(run.snapshot)));
      expect(text).toContain(squash(languageNotice(run)!));
      expect(text).toContain(squash(driftLine(run.drift!)));
    });
  });

  /**
   * Chinese titles long enough to fill the footer, mostly Latin (resvg then sets the whole line in the CJK
   * family, whose Latin letters are wider), over eight jurisdictions.
   */
  const longZhSnapshot = (): RenderSnapshot => {
    const snapshot = zhSnapshot();
    return {
      ...snapshot,
      title: '欧盟 regulatory horizon: AML / KYC, payments, sanctions, digital identity and operational resilience (2026—2027 综合版)',
      config: { ...snapshot.config, jurisdictions: ['EU', 'UK', 'US', 'Singapore', 'Hong Kong', 'Japan', 'Australia', 'Switzerland'] },
    };
  };

  it.each([
    ['zh', zhSnapshot],
    ['zh', longZhSnapshot],
    ['ja', jaSnapshot],
  ] as const)('keeps %s footers and every other text apart in every style', (locale, make) => {
    const problems: string[] = [];
    for (const [type, slug] of CASES) {
      const svg = renderImageSvg(type, input(make(), { styleSlug: slug }, locale));
      problems.push(...layoutProblems(svg, type).map((problem) => `${type} ${slug}: ${problem}`));
      if (!allText(svg).includes(squash(disclaimerLine(make())))) problems.push(`${type} ${slug}: no disclaimer`);
    }
    expect(problems).toEqual([]);
  });

  it.each(CASES)('%s %s shows the realistic snapshot without overlaps, with the offline disclaimer', (type, slug) => {
    const snapshot = realisticSnapshot();
    const svg = renderImageSvg(type, input(snapshot, { styleSlug: slug }));
    expect(layoutProblems(svg, type)).toEqual([]);
    const text = allText(svg);
    expect(text).toContain(squash('Offline scan of the curated regulatory calendar'));
    expect(text).toMatch(new RegExp(`(\\d+of${snapshot.data.items.length}matchinginstrumentsshown|All${snapshot.data.items.length}matchinginstrumentsshown)`));
    expect(svg).not.toContain('…');
  });

  /**
   * Crowded charts: many jurisdictions, long names, uneven counts, on the hard page (language notice, drift
   * line, a three-line headline), so the map's labels and the hub's names must find room without touching.
   */
  const KNOWN = [
    'EU',
    'UK',
    'US',
    'Singapore',
    'Hong Kong',
    'Japan',
    'Australia',
    'Switzerland',
    'Canada',
    'Brazil',
    'India',
    'China',
    'South Korea',
  ];
  const LONG = [
    'Dubai International Financial Centre',
    'Hong Kong Special Administrative Region',
    'United Arab Emirates',
    'Cayman Islands Monetary Authority area',
    'Liechtenstein',
    'Bailiwick of Guernsey',
    'Isle of Man',
    'Abu Dhabi Global Market',
    'Republic of South Africa',
    'Kingdom of Saudi Arabia',
    'New Zealand',
    'Principality of Monaco',
  ];
  const spread = (names: string[]): RenderInput => {
    const snapshot = hardSnapshot();
    // Every name, with uneven counts: earlier names get more items.
    const items = snapshot.data.items.map((item, index, list) => ({
      ...item,
      jurisdiction: names[Math.floor(names.length * (index / list.length) ** 1.3)]!,
    }));
    const crowded = { ...snapshot, data: { ...snapshot.data, items } };
    return { ...input(crowded, { targetLanguage: 'ja' }, 'zh'), drift: sampleDrift(crowded) };
  };
  const withStyle = (run: RenderInput, slug: string): RenderInput => ({ ...run, options: { ...run.options, styleSlug: slug } });
  const jurisdictionsOf = (run: RenderInput): string[] => {
    const counts = new Map<string, number>();
    for (const item of run.snapshot.data.items) counts.set(item.jurisdiction, (counts.get(item.jurisdiction) ?? 0) + 1);
    return [...counts.entries()].sort(([a, x], [b, y]) => y - x || a.localeCompare(b)).map(([name]) => name);
  };

  describe.each(INFOGRAPHIC_CUSTOM_STYLES.filter((style) => style.layout === 'map').map((style) => style.slug))(
    '%s, crowded map',
    (slug) => {
      it.each([
        ['every known place and long unknown names', [...KNOWN, ...LONG.slice(0, 5)]],
        ['long names the map cannot place', LONG],
        [
          'places that sit close together',
          ['EU', 'UK', 'Switzerland', 'Liechtenstein', 'Principality of Monaco', 'Isle of Man', 'Bailiwick of Guernsey'],
        ],
      ])('labels %s without touching other text, naming every pin or counting it', (_, list) => {
        const run = withStyle(spread(list), slug);
        const svg = renderImageSvg('infographic-custom', run);
        expect(layoutProblems(svg, 'infographic-custom')).toEqual([]);
        const all = jurisdictionsOf(run);
        // What the map shows: the text above the key dates.
        const boxes = textBoxes(svg);
        const listTop = boxes.find((box) => box.text === 'KEY DATES')!.top;
        const onMap = boxes.filter((box) => box.bottom < listTop);
        const pins = onMap.filter((box) => /^\d+$/.test(box.text));
        const named = onMap.filter((box) => all.includes(box.text)).map((box) => box.text);
        const counted = Number(
          /^\+ (\d+) more jurisdictions? in the report$/.exec(
            onMap.map((box) => box.text).find((text) => text.startsWith('+')) ?? '',
          )?.[1] ?? 0,
        );
        // Every pin carries its whole name, and every jurisdiction is either named on the map or counted under it.
        expect(named).toHaveLength(pins.length);
        expect(named.length + counted).toBe(all.length);
        // Here the map has room for the twelve biggest.
        expect([...named].sort()).toEqual(all.slice(0, 12).sort());
      });
    },
  );

  describe.each(INFOGRAPHIC_CUSTOM_STYLES.filter((style) => style.layout === 'radial').map((style) => style.slug))(
    '%s, crowded hub',
    (slug) => {
      it.each([
        ['eight long names', LONG.slice(0, 8)],
        ['eight short names', KNOWN.slice(0, 8)],
        ['three names', ['EU', 'United Arab Emirates', 'Hong Kong Special Administrative Region']],
      ])('keeps %s round the hub clear of the headline and the list', (_, list) => {
        const run = withStyle(spread(list), slug);
        const svg = renderImageSvg('infographic-custom', run);
        expect(layoutProblems(svg, 'infographic-custom')).toEqual([]);
        // Each name whole round the hub (above the key dates), on one or two lines.
        const boxes = textBoxes(svg);
        const listTop = boxes.find((box) => box.text === 'KEY DATES')!.top;
        const onHub = boxes.filter((box) => box.bottom < listTop).map((box) => box.text);
        for (const name of jurisdictionsOf(run)) expect(onHub).toContain(name);
      });
    },
  );

  it('says nothing about language or drift when there is nothing to say', () => {
    const svg = renderImageSvg('infographic-custom', input(realisticSnapshot(), { targetLanguage: 'en' }));
    expect(allText(svg)).not.toContain('Requested');
    expect(allText(svg)).not.toContain(squash('Since the scan of'));
  });
});
