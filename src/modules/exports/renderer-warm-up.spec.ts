import { loadCalendar } from '../../engine/calendar/calendar.loader';
import { hideNodeFromPptxgenjs } from '../../../test/support/inspect-artefact';
import { EXPORT_TYPES } from './export-types/export-types.registry';
import { pickDocumentFont } from './renderers/fonts';
import { IMAGE_SIZES, RENDERED_ARTIFACT_TYPES } from './renderers';
import { languageNotice } from './renderers/render-facts';
import { calendarWarmUpSnapshot, warmUpRenders, warmUpWorkerRenderers, type WarmUpRender } from './renderer-warm-up';

beforeAll(hideNodeFromPptxgenjs);

describe('renderer warm-up at worker start', () => {
  const calendar = loadCalendar();
  const scanDate = '2026-11-24';
  const { once, repeated } = warmUpRenders(calendar, scanDate);
  const all = [...once, ...repeated];
  const english = (render: WarmUpRender) => render.input.locale === 'en';

  it('renders every calendar instrument due in the next three years, uncapped, so real reports find their words shaped', () => {
    const snapshot = calendarWarmUpSnapshot(calendar, scanDate);
    expect(snapshot.data.items.length).toBeGreaterThan(40);
    expect(snapshot.data._meta).toMatchObject({ capped: false });
    expect(once[0]).toMatchObject({ artifactType: 'pdf', input: { snapshot: { data: { items: snapshot.data.items } } } });
  });

  it('renders every in-process type in English with every section a real export draws', () => {
    expect(new Set(all.filter(english).map((render) => render.artifactType))).toEqual(new Set(RENDERED_ARTIFACT_TYPES));
    for (const { input } of all.filter(english)) {
      expect(input.drift?.added.length).toBeGreaterThan(0);
      expect(input.drift?.removed.length).toBeGreaterThan(0);
      expect(input.drift?.changed.length).toBeGreaterThan(0);
    }
    const allMatched = all.filter((render) => render.artifactType === 'pdf' && render.input.options.list === 'all_matched');
    expect(allMatched.length).toBeGreaterThan(0);
    for (const { input } of allMatched) {
      expect(input.snapshot.data._meta).toMatchObject({ capped: true });
      expect(input.beyondCap?.length).toBeGreaterThan(0);
      expect(languageNotice(input)).toContain('Requested in');
    }
  });

  it("renders each registered in-process export type with its provider's default options", () => {
    const missing = EXPORT_TYPES.filter((type) => type.requires_provider === null).filter((entry) => {
      const defaults = Object.entries(entry.options_schema).filter(([, option]) => option.default !== undefined);
      return !all.some(
        (render) =>
          render.artifactType === entry.artifact_type && defaults.every(([name, option]) => render.input.options[name] === option.default),
      );
    });
    expect(missing.map((entry) => entry.key)).toEqual([]);
  });

  it('sets the document types once in Chinese and once in Japanese, in the CJK fonts', () => {
    const documents = RENDERED_ARTIFACT_TYPES.filter((type) => !(type in IMAGE_SIZES));
    for (const [locale, family] of [
      ['zh', 'sc'],
      ['ja', 'jp'],
    ] as const) {
      const renders = once.filter((render) => render.input.locale === locale);
      expect(new Set(renders.map((render) => render.artifactType))).toEqual(new Set(documents));
      for (const { input } of renders) {
        const texts = [input.snapshot.title, ...input.snapshot.data.items.map((item) => item.title)];
        expect(pickDocumentFont(texts, locale).key).toBe(family);
      }
    }
  });

  it('repeats the English renders of every type but the images, after everything else', () => {
    expect(repeated.every(english)).toBe(true);
    expect(new Set(repeated.map((render) => render.artifactType))).toEqual(
      new Set(RENDERED_ARTIFACT_TYPES.filter((type) => !(type in IMAGE_SIZES))),
    );
  });

  it('yields to the event loop before every render, so an API in the same process keeps answering', async () => {
    let turns = 0;
    let running = true;
    const turn = (): void => {
      turns++;
      if (running) setImmediate(turn);
    };
    setImmediate(turn);
    await warmUpWorkerRenderers(calendar, scanDate, 1);
    running = false;
    expect(turns).toBeGreaterThanOrEqual(once.length + repeated.length);
  }, 120_000);
});
