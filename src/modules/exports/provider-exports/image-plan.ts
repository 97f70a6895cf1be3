/**
 * The layout plan of an image export (imagegen-a / imagegen-b): a plan model reads the snapshot's items and
 * trends in the export's language and answers a JSON plan (title, panels of facts with their dates); the plan is
 * checked against the snapshot like any model output (nothing the snapshot does not hold survives), then written
 * out as the image prompt together with the style's directions (palette, layout, typeface of the styleSlug).
 *
 * Guardrails on the model's plan (validateImagePlan):
 * - every fact names the snapshot item (or trend) it shows (`item_id`); facts naming anything else are dropped;
 * - a fact's `date` must be that item's key date; a fact with another date is dropped;
 * - every number written in a fact must occur in that item's own text (its key date's year, month, day, quarter
 *   and half included); a title, subtitle or heading may use any number of the listed items, the scan's scope and
 *   the snapshot's headline and bottom line. An invented figure drops the fact; a heading or subtitle with one is
 *   dropped, a title with one is replaced by the snapshot's title;
 * - at most MAX_PANELS panels of MAX_FACTS facts; texts are cut to their limits; a panel left without facts goes.
 * A plan with no panel left is no plan: the caller falls back to snapshotImagePlan, the same facts laid out
 * without a model.
 */
import type { SnapshotItem, SnapshotTrend } from '../../../engine/envelope.types';
import { asIsoDate, asList, asObject, asText, type JsonObject } from '../../../engine/llm/parse';
import type { VisualStyle } from '../export-types/image-styles';
import { listText, stripCites } from '../renderers/render-text';
import { horizonText, scanDateOf } from '../renderers/render-dates';
import type { RenderSnapshot } from '../renderers/types';
import { topItems } from './script';

export const MAX_PANELS = 6;
export const MAX_FACTS = 6;
const MAX_TITLE = 120;
const MAX_HEADING = 80;
const MAX_FACT = 240;
/** How many items and trends the plan model is shown (and the image can hold). */
export const PLAN_ITEMS = 12;
export const PLAN_TRENDS = 4;

export interface ImagePlanFact {
  /** The snapshot item or trend the fact shows. */
  item_id: string;
  text: string;
  /** ISO date, only ever the item's key date. */
  date?: string;
}

export interface ImagePlanPanel {
  heading: string;
  facts: ImagePlanFact[];
}

export interface ImagePlan {
  title: string;
  subtitle?: string;
  panels: ImagePlanPanel[];
}

export interface PlanDropped {
  what: string;
  reason: string;
}

/** What a plan may show: the top items and trends of the snapshot, as the plan model is shown them. */
export interface PlanSources {
  items: SnapshotItem[];
  trends: SnapshotTrend[];
  /** Title, scope and dates of the snapshot: what a title or heading may quote. */
  scope: string[];
  /** The snapshot's headline and bottom line, which a title or heading may quote too. */
  headline: string[];
}

export function planSources(snapshot: RenderSnapshot): PlanSources {
  const rank: Record<string, number> = { rising: 0, steady: 1, fading: 2 };
  const trends = [...(snapshot.data?.trends ?? [])].sort((a, b) => (rank[a.momentum] ?? 9) - (rank[b.momentum] ?? 9)).slice(0, PLAN_TRENDS);
  return {
    items: topItems(snapshot, PLAN_ITEMS),
    trends,
    scope: [
      snapshot.title,
      scanDateOf(snapshot),
      horizonText(snapshot),
      listText(snapshot.config.jurisdictions),
      listText(snapshot.config.areas),
    ],
    headline: [clean(snapshot.data?._briefing?.briefing_headline), clean(snapshot.data?.executive_summary?.bottom_line)].filter(
      (text) => text !== '',
    ),
  };
}

const LANGUAGE_NAMES: Readonly<Record<string, string>> = {
  en: 'English',
  simple: 'Simplified English (plain words, short sentences)',
  fr: 'French',
  de: 'German',
  es: 'Spanish',
  it: 'Italian',
  zh: 'Chinese (Simplified)',
  ja: 'Japanese',
};

export function languageName(locale: string): string {
  return LANGUAGE_NAMES[locale] ?? 'English';
}

export const PLAN_SYSTEM =
  'You are an infographic planner for a regulatory-change briefing. You plan one printed page: a title, an optional subtitle, and panels of short facts with their dates. Use only the items and trends you are given: every fact names the id of the item or trend it shows (item_id), a fact with a date uses exactly that item\'s key date (YYYY-MM-DD), and you write no number, date, name or claim that the item does not state. Reply in JSON: {"title": string, "subtitle": string, "panels": [{"heading": string, "facts": [{"item_id": string, "text": string, "date": "YYYY-MM-DD"}]}]}.';

/** The plan model's prompt: the page, the language, the style, then the items and trends it may use. */
export function planPrompt(sources: PlanSources, page: string, style: VisualStyle, locale: string): string {
  const lines = [
    `Plan a ${page}. Write every text in ${languageName(locale)}.`,
    `Visual style: ${style.label} (${layoutText(style)}); plan at most ${MAX_PANELS} panels of at most ${MAX_FACTS} facts, each fact under ${MAX_FACT} characters.`,
    `Scope: ${sources.scope.filter((part) => part !== '').join(' | ')}`,
    ...sources.headline.map((text) => `Headline: ${text}`),
    '',
    'Items:',
    ...sources.items.map(
      (item) =>
        `- id ${item.id}: ${clean(item.title)} | ${item.jurisdiction} | ${item.area} | key date ${item.key_date} (${item.date_confidence}) | impact ${item.impact} | stage ${item.stage}${item.milestone ? ` | milestone: ${clean(item.milestone)}` : ''}\n  summary: ${clean(item.summary)}`,
    ),
    '',
    'Trends:',
    ...(sources.trends.length === 0
      ? ['(none)']
      : sources.trends.map((trend) => `- id ${trend.id}: ${clean(trend.title)} (${trend.momentum}): ${clean(trend.description)}`)),
  ];
  return lines.join('\n');
}

function clean(text: string | null | undefined): string {
  return stripCites(text).replace(/\s+/g, ' ').trim();
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;
}

/** The whole numbers a text writes ("2026-06-30" -> 2026, 6, 30; "1.5" -> 1, 5), leading zeros dropped. */
function numbersIn(text: string): string[] {
  return [...text.matchAll(/\d+/g)].map((match) => match[0].replace(/^0+(?=\d)/, ''));
}

/** The numbers an item's own text supports, with its key date's year, month, day, quarter and half. */
function itemNumbers(item: SnapshotItem): Set<string> {
  const texts = [item.title, item.summary, item.implications, item.milestone ?? '', item.regulator, item.instrument_type, item.key_date];
  const numbers = new Set(texts.flatMap((text) => numbersIn(clean(text))));
  const month = Number(item.key_date?.slice(5, 7));
  if (month >= 1 && month <= 12) {
    numbers.add(String(Math.ceil(month / 3)));
    numbers.add(String(month <= 6 ? 1 : 2));
  }
  return numbers;
}

function trendNumbers(trend: SnapshotTrend): Set<string> {
  return new Set(numbersIn(`${clean(trend.title)} ${clean(trend.description)}`));
}

const supported = (text: string, allowed: Set<string>): boolean => numbersIn(text).every((number) => allowed.has(number));

/** Checks a plan model's reply against the snapshot (see the file comment); `plan` is null when nothing usable is left. */
export function validateImagePlan(raw: JsonObject | null, sources: PlanSources): { plan: ImagePlan | null; dropped: PlanDropped[] } {
  const dropped: PlanDropped[] = [];
  if (!raw) return { plan: null, dropped: [{ what: 'plan', reason: 'the reply held no JSON object' }] };
  const items = new Map(sources.items.map((item) => [item.id, { numbers: itemNumbers(item), date: item.key_date }]));
  const trends = new Map(
    sources.trends.map((trend) => [trend.id, { numbers: trendNumbers(trend), date: undefined as string | undefined }]),
  );
  const everything = new Set<string>([
    ...[...sources.scope, ...sources.headline].flatMap(numbersIn),
    ...[...items.values()].flatMap((entry) => [...entry.numbers]),
    ...[...trends.values()].flatMap((entry) => [...entry.numbers]),
  ]);

  const panels: ImagePlanPanel[] = [];
  for (const [index, value] of asList(raw.panels).entries()) {
    const panel = asObject(value);
    if (!panel) continue;
    let heading = asText(panel.heading) ?? '';
    if (heading !== '' && !supported(heading, everything)) {
      dropped.push({ what: `panels[${index}].heading`, reason: 'states a number the snapshot does not' });
      heading = '';
    }
    const facts: ImagePlanFact[] = [];
    for (const [factIndex, factValue] of asList(panel.facts).entries()) {
      const what = `panels[${index}].facts[${factIndex}]`;
      const fact = asObject(factValue);
      const id = asText(fact?.item_id) ?? asText(fact?.id);
      const source = id === undefined ? undefined : (items.get(id) ?? trends.get(id));
      const text = asText(fact?.text);
      if (!fact || !text) continue;
      if (!id || !source) {
        dropped.push({ what, reason: id ? `names ${id}, which is not in the snapshot` : 'names no item' });
        continue;
      }
      const date = fact.date === undefined || fact.date === null || fact.date === '' ? undefined : asIsoDate(fact.date);
      if (fact.date !== undefined && fact.date !== null && fact.date !== '' && (date === undefined || date !== source.date)) {
        dropped.push({ what, reason: `its date ${String(fact.date).slice(0, 40)} is not ${id}'s key date` });
        continue;
      }
      if (!supported(text, source.numbers)) {
        dropped.push({ what, reason: `states a number ${id} does not` });
        continue;
      }
      if (facts.length < MAX_FACTS) facts.push({ item_id: id, text: cut(text, MAX_FACT), ...(date ? { date } : {}) });
    }
    if (facts.length === 0) continue;
    if (panels.length < MAX_PANELS) panels.push({ heading: cut(heading, MAX_HEADING), facts });
  }
  if (panels.length === 0)
    return { plan: null, dropped: [...dropped, { what: 'plan', reason: 'no panel holds a fact from the snapshot' }] };

  const title = asText(raw.title);
  const subtitle = asText(raw.subtitle);
  const plan: ImagePlan = {
    title: title && supported(title, everything) ? cut(title, MAX_TITLE) : cut(clean(sources.scope[0]) || 'Regulatory horizon', MAX_TITLE),
    ...(subtitle && supported(subtitle, everything) ? { subtitle: cut(subtitle, MAX_TITLE) } : {}),
    panels,
  };
  if (title && plan.title !== cut(title, MAX_TITLE)) dropped.push({ what: 'title', reason: 'states a number the snapshot does not' });
  return { plan, dropped };
}

/** The plan without a model: the key dates of the top items, then the trends (headings in English). */
export function snapshotImagePlan(snapshot: RenderSnapshot, sources: PlanSources = planSources(snapshot)): ImagePlan {
  const briefing = snapshot.data?._briefing;
  const panels: ImagePlanPanel[] = [];
  const dated = sources.items.slice(0, MAX_FACTS * 2);
  for (let start = 0; start < dated.length && panels.length < MAX_PANELS - 1; start += MAX_FACTS) {
    panels.push({
      heading: start === 0 ? 'Key dates' : 'More key dates',
      facts: dated.slice(start, start + MAX_FACTS).map((item) => ({
        item_id: item.id,
        text: cut(`${item.jurisdiction}: ${clean(item.title)}${item.milestone ? ` (${clean(item.milestone)})` : ''}`, MAX_FACT),
        date: item.key_date,
      })),
    });
  }
  if (sources.trends.length > 0) {
    panels.push({
      heading: 'Trends',
      facts: sources.trends.slice(0, MAX_FACTS).map((trend) => ({ item_id: trend.id, text: cut(clean(trend.title), MAX_FACT) })),
    });
  }
  const headline = clean(briefing?.briefing_headline);
  return { title: cut(headline || clean(snapshot.title) || 'Regulatory horizon', MAX_TITLE), panels };
}

const LAYOUT_TEXT: Readonly<Record<VisualStyle['layout'], string>> = {
  grid: 'a grid of equal cards',
  columns: 'two columns, key dates on the left, priorities and trends on the right',
  table: 'a clean table with ruled rows',
  list: 'a single ranked list',
  timeline: 'a horizontal timeline of the dates',
  radial: 'a hub with the topics around it',
  cards: 'bento-style tiles of different sizes',
  map: 'pins on a simple world map by jurisdiction',
  lanes: 'swim lanes by stage',
  hero: 'a large headline figure with a pull quote, then the facts',
};

function layoutText(style: VisualStyle): string {
  return `${LAYOUT_TEXT[style.layout]}, ${style.typeface} typeface`;
}

/** The image prompt: the page, the style's directions, the plan's panels with their facts and dates, the rules. */
export function imagePrompt(plan: ImagePlan, page: string, style: VisualStyle, locale: string): string {
  const { background, foreground, accent } = style.palette;
  const lines = [
    `A ${page}, portrait, flat vector design, print quality.`,
    `Style "${style.label}": background ${background}, text ${foreground}, accent ${accent}; layout: ${layoutText(style)}.`,
    `All text on the page is in ${languageName(locale)}, spelled exactly as given below.`,
    `Title: "${plan.title}"`,
    ...(plan.subtitle ? [`Subtitle: "${plan.subtitle}"`] : []),
    ...plan.panels.flatMap((panel, index) => [
      `Panel ${index + 1}${panel.heading ? `: "${panel.heading}"` : ''}`,
      ...panel.facts.map((fact) => `  - ${fact.date ? `${fact.date}: ` : ''}${fact.text}`),
    ]),
    'Show these facts and dates and nothing else: no other numbers, names, logos or claims. Keep every text legible.',
  ];
  return lines.join('\n');
}
