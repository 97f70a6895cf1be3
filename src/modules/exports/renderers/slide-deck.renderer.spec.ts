import { slideSections } from './slide-sections';
import { hideNodeFromPptxgenjs, slideFiles, unzip } from '../../../../test/support/inspect-artefact';
import { input, realisticSnapshot, syntheticSnapshot, ZH_TITLES, zhSnapshot } from '../../../../test/fixtures/snapshots';
import { MAX_TABLE_ROWS, renderSlideDeck } from './slide-deck.renderer';

function xmlText(xml: string): string {
  return [...xml.matchAll(/<a:t>([^<]*)<\/a:t>/g)]
    .map((m) => m[1]!)
    .join(' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'");
}

beforeAll(hideNodeFromPptxgenjs);

describe('slide-deck renderer (internal-pptx)', () => {
  it('is a PPTX zip with one slide per section', async () => {
    const snapshot = realisticSnapshot();
    const out = await renderSlideDeck(input(snapshot, { theme: 'dark' }));
    expect(out.mime).toBe('application/vnd.openxmlformats-officedocument.presentationml.presentation');
    expect(out.filename).toBe('regulatory-horizon-eu-uk-2026-11-22-slides.pptx');
    expect(out.bytes.subarray(0, 2).toString('ascii')).toBe('PK');
    const zip = await unzip(out.bytes);
    const presentation = await zip.file('ppt/presentation.xml')!.async('string');
    const sections = slideSections(snapshot);
    // title, summary, EU, UK, trends, sources
    expect(sections.map((section) => section.kind)).toEqual(['title', 'summary', 'jurisdiction', 'jurisdiction', 'trends', 'sources']);
    expect(slideFiles(zip)).toHaveLength(sections.length);
    expect(presentation.match(/<p:sldId /g)).toHaveLength(sections.length);
  });

  it('puts each jurisdiction on its own slide with its items (and all of them in the notes)', async () => {
    const snapshot = realisticSnapshot();
    const zip = await unzip((await renderSlideDeck(input(snapshot))).bytes);
    const files = slideFiles(zip);
    const texts = await Promise.all(files.map(async (name) => xmlText(await zip.file(name)!.async('string'))));
    expect(texts[0]).toContain(snapshot.title);
    expect(texts[1]).toContain('Executive summary');
    expect(texts[2]).toContain('EU — ');
    expect(texts[3]).toContain('UK — ');
    expect(texts[4]).toContain('Trends');
    expect(texts[5]).toContain('Sources');
    const notes = Object.keys(zip.files).filter((name) => /^ppt\/notesSlides\/notesSlide\d+\.xml$/.test(name));
    const allNotes = (await Promise.all(notes.map(async (name) => xmlText(await zip.file(name)!.async('string'))))).join(' ');
    for (const item of snapshot.data.items) expect(allNotes).toContain(item.title);
  });

  it('keeps one slide per jurisdiction at 100 items', async () => {
    const snapshot = syntheticSnapshot(100);
    const zip = await unzip((await renderSlideDeck(input(snapshot))).bytes);
    expect(slideFiles(zip)).toHaveLength(slideSections(snapshot).length);
    expect(slideSections(snapshot)).toHaveLength(8 + 4);
    const eu = xmlText(await zip.file('ppt/slides/slide3.xml')!.async('string'));
    expect(eu).toContain(`+ ${13 - (MAX_TABLE_ROWS - 1)} more items`);
  });

  it('follows the theme', async () => {
    const snapshot = realisticSnapshot();
    const dark = await unzip((await renderSlideDeck(input(snapshot, { theme: 'dark' }))).bytes);
    const light = await unzip((await renderSlideDeck(input(snapshot, { theme: 'light' }))).bytes);
    expect(await dark.file('ppt/slides/slide2.xml')!.async('string')).toContain('0B1F3A');
    expect(await light.file('ppt/slides/slide2.xml')!.async('string')).toContain('FFFFFF');
  });

  it('names the bundled CJK face and language for Chinese text', async () => {
    const zip = await unzip((await renderSlideDeck(input(zhSnapshot(), { theme: 'light' }, 'zh'))).bytes);
    const slide = await zip.file('ppt/slides/slide3.xml')!.async('string');
    expect(slide).toContain('<a:ea typeface="Noto Sans S Chinese"');
    expect(slide).toContain('lang="zh-CN"');
    expect(xmlText(slide)).toContain(ZH_TITLES[0]);
  });
});
