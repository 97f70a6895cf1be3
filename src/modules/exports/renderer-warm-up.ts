/**
 * What a worker renders at start (WARM_RENDERERS), so that its first export of each type is about as fast as its
 * tenth (issue 14 item 4; figures in docs/performance.md, "Export rendering"):
 * - every in-process export type with its default options, from a snapshot of the bundled calendar, with drift,
 *   a language notice and (PDF and CSV) `list: all_matched`, so every section a real export draws has run, and
 *   (but the images) WARM_UP_PASSES times, since V8 optimises a renderer's code only after it has run a few times;
 * - the PDF report of every instrument due in three years, so the words real reports use are in pdfkit's shared
 *   shape cache (pdf-kit.ts; shared by the briefing, tearsheet and calendar too);
 * - the document types once more in Chinese and in Japanese, so the CJK fonts' tables are decoded (fonts.ts).
 * Renders yield to the event loop between them, so a process that also serves the API keeps answering.
 */
import { analyseOffline, publicEnvelope } from '../../engine/analysis/compose';
import type { Calendar } from '../../engine/calendar/calendar.types';
import type { SnapshotItem } from '../../engine/envelope.types';
import { AREAS } from '../../domain/vocabulary/areas';
import { JURISDICTIONS } from '../../domain/vocabulary/jurisdictions';
import { EXPORT_TYPES } from './export-types/export-types.registry';
import { hasRenderer, IMAGE_SIZES, RENDERED_ARTIFACT_TYPES, renderArtefact, type RenderInput, type RenderSnapshot } from './renderers';
import type { RenderDrift } from './renderers/types';

const WARM_UP_HORIZON_MONTHS = 36;
/** Renders of each English warm-up input: past the second, more made no difference measurable (docs/performance.md). */
export const WARM_UP_PASSES = 2;
/** A language no warm-up snapshot has, so renderers draw the "requested in …" notice. */
const NOTICE_LANGUAGE = 'de';

const CJK_TEXTS = {
  zh: {
    title: '欧盟与英国反洗钱及支付监管展望',
    items: ['支付服务指令第三版（PSD3）与支付服务条例', '反洗钱条例：统一规则手册', '即时支付条例'],
    summary: '该一揽子方案将支付服务指令拆分为一项指令和一项直接适用的条例，并对收款人核验和欺诈赔付提出新的要求。',
  },
  ja: {
    title: 'EU・英国 規制ホライズン',
    items: ['マネー・ローンダリング規則の改正', '暗号資産サービス提供者の報告義務', '即時決済規則'],
    summary: '決済サービス指令を指令と直接適用される規則に分け、受取人確認と詐欺補償に新たな要件を課す。',
  },
} as const;

export interface WarmUpRender {
  artifactType: string;
  input: RenderInput;
}

function warmUpAnalysis(calendar: Calendar, scanDate: string, maxItems?: number) {
  const jurisdictions = JURISDICTIONS.map((jurisdiction) => jurisdiction.id);
  const areas = AREAS.map((area) => area.id);
  const analysis = analyseOffline(calendar, {
    jurisdictions,
    areas,
    horizonMonths: WARM_UP_HORIZON_MONTHS,
    scanDate,
    engine: 'offline',
    realist: true,
    auditor: true,
    ...(maxItems === undefined ? {} : { maxItems }),
  });
  const snapshot: RenderSnapshot = {
    id: 'warm-up',
    title: 'Renderer warm-up',
    created_at: `${scanDate}T00:00:00.000Z`,
    config: { jurisdictions, areas, horizon: WARM_UP_HORIZON_MONTHS, engine: 'offline' },
    data: publicEnvelope(analysis),
  };
  return { snapshot, beyondCap: analysis._beyond_cap };
}

/** Every instrument of the calendar due within three years of `scanDate`, as one snapshot. */
export function calendarWarmUpSnapshot(calendar: Calendar, scanDate: string): RenderSnapshot {
  return warmUpAnalysis(calendar, scanDate, calendar.entries.length).snapshot;
}

/** A drift with every kind of change (added, removed by the cap and by the calendar, a changed key date). */
export function warmUpDrift(snapshot: RenderSnapshot): RenderDrift {
  const [first, second] = snapshot.data.items;
  return {
    baseline_snapshot_id: 'warm-up-baseline',
    baseline_created_at: snapshot.created_at,
    summary: { added: first ? 1 : 0, removed: 2, changed: second ? 1 : 0, unchanged: Math.max(0, snapshot.data.items.length - 2) },
    added: first ? [{ ...first }] : [],
    removed: [
      { id: 'warm-up-capped', title: 'Instrument the item cap kept out this time' },
      { id: 'warm-up-withdrawn', title: 'Instrument withdrawn from the calendar' },
    ],
    changed: second
      ? [{ item_id: second.id, title: second.title, fields: [{ field: 'key_date', before: '2027-01-31', after: second.key_date }] }]
      : [],
    removed_reasons: { 'warm-up-capped': 'dropped_by_cap', 'warm-up-withdrawn': 'left_calendar' },
  };
}

/** `snapshot` with its title, first titles and first summary in Chinese or Japanese. */
function cjkSnapshot(snapshot: RenderSnapshot, language: keyof typeof CJK_TEXTS): RenderSnapshot {
  const texts = CJK_TEXTS[language];
  const items = snapshot.data.items.map((item, index): SnapshotItem =>
    index < texts.items.length ? { ...item, title: texts.items[index]!, summary: index === 0 ? texts.summary : item.summary } : item,
  );
  return { ...snapshot, title: texts.title, data: { ...snapshot.data, items } };
}

/** The default options of every registered in-process export type (one entry per provider), by artifact type. */
function defaultOptionSets(): Array<{ artifactType: string; options: Record<string, string> }> {
  const sets = EXPORT_TYPES.filter((entry) => entry.requires_provider === null && hasRenderer(entry.artifact_type)).map((entry) => ({
    artifactType: entry.artifact_type,
    options: Object.fromEntries(
      Object.entries(entry.options_schema).flatMap(([name, option]) => (option.default === undefined ? [] : [[name, option.default]])),
    ),
  }));
  for (const artifactType of RENDERED_ARTIFACT_TYPES) {
    if (!sets.some((set) => set.artifactType === artifactType)) sets.push({ artifactType, options: {} });
  }
  return sets;
}

/**
 * What the warm-up renders, in order: `once`, the PDF of the whole calendar (for the shape cache), the image types
 * (their time is resvg's native rasterising, as fast on the first render as on the third) and the Chinese and
 * Japanese renders; then `repeated`, WARM_UP_PASSES times, every other type in English. The order matters: V8
 * tunes its optimised code to what ran last, and a warm-up that ended with the whole-calendar report, the images
 * or CJK left the next English document two to four times slower than its tenth (docs/performance.md).
 */
export function warmUpRenders(calendar: Calendar, scanDate: string): { once: WarmUpRender[]; repeated: WarmUpRender[] } {
  const capped = warmUpAnalysis(calendar, scanDate);
  const drift = warmUpDrift(capped.snapshot);
  const full = calendarWarmUpSnapshot(calendar, scanDate);
  const once: WarmUpRender[] = [{ artifactType: 'pdf', input: { snapshot: full, drift: warmUpDrift(full), options: {}, locale: 'en' } }];
  const cjk: WarmUpRender[] = [];
  const repeated: WarmUpRender[] = [];
  for (const { artifactType, options } of defaultOptionSets()) {
    const all = { ...options, list: 'all_matched', targetLanguage: NOTICE_LANGUAGE };
    const render = { artifactType, input: { snapshot: capped.snapshot, drift, beyondCap: capped.beyondCap, options: all, locale: 'en' } };
    if (isImageType(artifactType)) {
      once.push(render);
      continue;
    }
    repeated.push(render);
    for (const language of ['zh', 'ja'] as const) {
      const snapshot = cjkSnapshot(capped.snapshot, language);
      cjk.push({ artifactType, input: { snapshot, drift, options: { ...options, targetLanguage: language }, locale: language } });
    }
  }
  return { once: [...once, ...cjk], repeated };
}

function isImageType(artifactType: string): boolean {
  return Object.prototype.hasOwnProperty.call(IMAGE_SIZES, artifactType);
}

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Renders the warm-up set and discards it; resolves once every render is done. */
export async function warmUpWorkerRenderers(calendar: Calendar, scanDate: string, passes = WARM_UP_PASSES): Promise<void> {
  const { once, repeated } = warmUpRenders(calendar, scanDate);
  const renders = [...once, ...Array.from({ length: passes }, () => repeated).flat()];
  for (const { artifactType, input } of renders) {
    await nextTurn();
    await renderArtefact(artifactType, input);
  }
}
