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
import { disclaimerLine, driftLine, keyDateLabel, languageNotice, selectionLine, shortSource } from './render-facts';
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
        expect(text).toContain(squash(`${shown.length} of 100 shown (the top-ranked of each stage); full list in the PDF report.`));
      } else {
        // The top-ranked items: a prefix of the snapshot's ranking.
        expect(shown).toEqual(shown.map((_, index) => index + 1));
        expect(text).toContain(squash(`Top ${shown.length} of 100 shown; full list in the PDF report.`));
      }
      expect(text).toContain(squash(selectionLine(run.snapshot)));
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
    expect(text).toContain(squash(selectionLine(snapshot)));
    expect(svg).not.toContain('…');
  });

  it('says nothing about language or drift when there is nothing to say', () => {
    const svg = renderImageSvg('infographic-custom', input(realisticSnapshot(), { targetLanguage: 'en' }));
    expect(allText(svg)).not.toContain('Requested');
    expect(allText(svg)).not.toContain(squash('Since the scan of'));
  });
});
