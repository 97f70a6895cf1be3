/**
 * Rule-based scripts for the provider exports, built from the snapshot envelope (already projected into the
 * export's language, so its prose is used as is):
 * - `briefingScript`: one narrator's script for the voice briefing (headline, standfirst, bottom line, the top
 *   items with their dates, trends, close), at most BRIEFING_SCRIPT_MAX_CHARS characters;
 * - `dialogueScript`: a two-speaker dialogue (host and analyst, alternating lines) for the voice discussion;
 * - `notebookSourceMarkdown`: the whole snapshot as a markdown source document for the notebook service.
 *
 * The connecting phrases are English unless the locale is one of the translations (fr, de, es, it, zh, ja);
 * `simple` (plain English register) and anything unknown use English.
 */
import type { DateConfidence, SnapshotItem, SnapshotTrend } from '../../../engine/envelope.types';
import { CONFIDENCE_LABELS, IMPACT_LABELS, label, STAGE_LABELS } from '../renderers/item-labels';
import { formatLongDate, horizonText, scanDateOf } from '../renderers/render-dates';
import { groupByJurisdiction, sortItems } from '../renderers/item-grouping';
import { listText, paragraphs, stripCites } from '../renderers/render-text';
import { disclaimerLine, keyDateLabel, sourceLabel, timelineLabels } from '../renderers/render-facts';
import { matchedFacts } from '../renderers/matched-facts';
import { formatPeriod, type Precision, shownPrecision } from '../../../engine/analysis/dates';
import type { RenderSnapshot } from '../renderers/types';

/** Single-request limit we keep under (the text-to-speech models accept 5,000 / 10,000 characters). */
export const BRIEFING_SCRIPT_MAX_CHARS = 4500;
/** Total characters over all dialogue lines (text-to-dialogue accepts about 5,000 per request). */
export const DIALOGUE_SCRIPT_MAX_CHARS = 4500;
/** How many items the spoken scripts mention at most. */
export const SCRIPT_TOP_ITEMS = 6;
/** How many trends the spoken scripts mention at most. */
export const SCRIPT_TOP_TRENDS = 3;

export type ScriptLanguage = 'en' | 'fr' | 'de' | 'es' | 'it' | 'zh' | 'ja';
const TRANSLATED: readonly string[] = ['fr', 'de', 'es', 'it', 'zh', 'ja'];

/** The spoken language for an export locale: a translation code, else `en` (including `simple`). */
export function scriptLanguage(locale: string | undefined): ScriptLanguage {
  const code = (locale ?? '').toLowerCase();
  return TRANSLATED.includes(code) ? (code as ScriptLanguage) : 'en';
}

interface Phrases {
  briefingIntro(date: string): string;
  bottomLine(text: string): string;
  itemsIntro: string;
  itemOn(confidence: DateConfidence, date: string, jurisdiction: string, title: string): string;
  /** The same for a date known only as a period ("H2 2027", "July 2027", "2027"). */
  itemIn(confidence: DateConfidence, period: string, jurisdiction: string, title: string): string;
  /** "These are 6 of the 233 matching instruments; the full report lists them all." */
  shownOf(shown: number, total: number): string;
  trendsIntro: string;
  briefingClose: string;
  hostWelcome(date: string, headline: string): string;
  hostFirstItem: string;
  hostNextItem: string;
  hostTrends: string;
  hostClose: string;
  analystClose: string;
}

const when = (confidence: DateConfidence, date: string, confirmed: string, expected: string, speculative: string): string =>
  (confidence === 'expected' ? expected : confidence === 'speculative' ? speculative : confirmed).replace('{d}', date);

const PHRASES: Readonly<Record<ScriptLanguage, Phrases>> = {
  en: {
    briefingIntro: (date) => `This is your regulatory horizon briefing for ${date}.`,
    bottomLine: (text) => `The bottom line: ${text}`,
    itemsIntro: 'Here are the key dates to watch.',
    itemOn: (c, d, j, t) => `${when(c, d, 'On {d}', 'Expected on {d}', 'Possibly around {d}')}, ${j}: ${t}.`,
    itemIn: (c, d, j, t) => `${when(c, d, 'In {d}', 'Expected in {d}', 'Possibly in {d}')}, ${j}: ${t}.`,
    shownOf: (n, m) => `These are ${n} of the ${m} matching instruments; the full report lists them all.`,
    trendsIntro: 'Across the horizon, these trends stand out.',
    briefingClose: 'That is the briefing. The full report has every item, date and source.',
    hostWelcome: (d, h) => `Welcome to the regulatory horizon discussion for ${d}. Today's headline: ${h} What is the big picture?`,
    hostFirstItem: 'What is the first date people should have in their diaries?',
    hostNextItem: 'What comes next?',
    hostTrends: 'Stepping back, what trends do you see?',
    hostClose: 'Thank you. The full report has every item, date and source.',
    analystClose: 'Thanks for having me.',
  },
  fr: {
    briefingIntro: (date) => `Voici votre point réglementaire du ${date}.`,
    bottomLine: (text) => `L'essentiel : ${text}`,
    itemsIntro: 'Voici les dates clés à surveiller.',
    itemOn: (c, d, j, t) => `${when(c, d, 'Le {d}', 'Prévu le {d}', 'Peut-être vers le {d}')}, ${j} : ${t}.`,
    itemIn: (c, d, j, t) => `${when(c, d, 'En {d}', 'Prévu en {d}', 'Peut-être en {d}')}, ${j} : ${t}.`,
    shownOf: (n, m) => `Voici ${n} des ${m} textes concernés ; le rapport complet les liste tous.`,
    trendsIntro: 'Sur l’horizon, ces tendances se dégagent.',
    briefingClose: 'C’est la fin de ce point. Le rapport complet détaille chaque élément, date et source.',
    hostWelcome: (d, h) => `Bienvenue dans notre discussion réglementaire du ${d}. À la une : ${h} Quelle est la vue d’ensemble ?`,
    hostFirstItem: 'Quelle est la première date à noter ?',
    hostNextItem: 'Et ensuite ?',
    hostTrends: 'Avec du recul, quelles tendances voyez-vous ?',
    hostClose: 'Merci. Le rapport complet détaille chaque élément, date et source.',
    analystClose: 'Merci de m’avoir reçu.',
  },
  de: {
    briefingIntro: (date) => `Dies ist Ihr regulatorisches Briefing vom ${date}.`,
    bottomLine: (text) => `Das Fazit: ${text}`,
    itemsIntro: 'Dies sind die wichtigsten Termine.',
    itemOn: (c, d, j, t) => `${when(c, d, 'Am {d}', 'Voraussichtlich am {d}', 'Möglicherweise um den {d}')}, ${j}: ${t}.`,
    itemIn: (c, d, j, t) => `${when(c, d, 'Im Zeitraum {d}', 'Voraussichtlich im Zeitraum {d}', 'Möglicherweise im Zeitraum {d}')}, ${j}: ${t}.`,
    shownOf: (n, m) => `Das sind ${n} von ${m} einschlägigen Regelwerken; der vollständige Bericht nennt alle.`,
    trendsIntro: 'Über den Zeitraum zeichnen sich diese Trends ab.',
    briefingClose: 'Das war das Briefing. Der vollständige Bericht enthält alle Punkte, Termine und Quellen.',
    hostWelcome: (d, h) => `Willkommen zur regulatorischen Diskussion vom ${d}. Die Schlagzeile: ${h} Wie sieht das Gesamtbild aus?`,
    hostFirstItem: 'Welcher Termin gehört als Erstes in den Kalender?',
    hostNextItem: 'Was kommt danach?',
    hostTrends: 'Mit etwas Abstand: Welche Trends sehen Sie?',
    hostClose: 'Vielen Dank. Der vollständige Bericht enthält alle Punkte, Termine und Quellen.',
    analystClose: 'Danke für die Einladung.',
  },
  es: {
    briefingIntro: (date) => `Este es su informe regulatorio del ${date}.`,
    bottomLine: (text) => `En resumen: ${text}`,
    itemsIntro: 'Estas son las fechas clave.',
    itemOn: (c, d, j, t) => `${when(c, d, 'El {d}', 'Previsto el {d}', 'Posiblemente hacia el {d}')}, ${j}: ${t}.`,
    itemIn: (c, d, j, t) => `${when(c, d, 'En {d}', 'Previsto en {d}', 'Posiblemente en {d}')}, ${j}: ${t}.`,
    shownOf: (n, m) => `Son ${n} de los ${m} instrumentos pertinentes; el informe completo los recoge todos.`,
    trendsIntro: 'En el horizonte destacan estas tendencias.',
    briefingClose: 'Hasta aquí el informe. El informe completo recoge cada elemento, fecha y fuente.',
    hostWelcome: (d, h) => `Bienvenidos a la conversación regulatoria del ${d}. El titular: ${h} ¿Cuál es el panorama general?`,
    hostFirstItem: '¿Cuál es la primera fecha a tener en cuenta?',
    hostNextItem: '¿Y después?',
    hostTrends: 'En perspectiva, ¿qué tendencias ve?',
    hostClose: 'Gracias. El informe completo recoge cada elemento, fecha y fuente.',
    analystClose: 'Gracias por invitarme.',
  },
  it: {
    briefingIntro: (date) => `Ecco il vostro briefing normativo del ${date}.`,
    bottomLine: (text) => `In sintesi: ${text}`,
    itemsIntro: 'Ecco le date chiave da seguire.',
    itemOn: (c, d, j, t) => `${when(c, d, 'Il {d}', 'Previsto il {d}', 'Forse intorno al {d}')}, ${j}: ${t}.`,
    itemIn: (c, d, j, t) => `${when(c, d, 'Nel periodo {d}', 'Previsto nel periodo {d}', 'Forse nel periodo {d}')}, ${j}: ${t}.`,
    shownOf: (n, m) => `Sono ${n} dei ${m} strumenti pertinenti; il rapporto completo li elenca tutti.`,
    trendsIntro: 'Nell’orizzonte spiccano queste tendenze.',
    briefingClose: 'Questo è il briefing. Il rapporto completo riporta ogni voce, data e fonte.',
    hostWelcome: (d, h) => `Benvenuti alla discussione normativa del ${d}. Il titolo: ${h} Qual è il quadro generale?`,
    hostFirstItem: 'Qual è la prima data da segnare?',
    hostNextItem: 'E poi?',
    hostTrends: 'Guardando più in generale, quali tendenze vede?',
    hostClose: 'Grazie. Il rapporto completo riporta ogni voce, data e fonte.',
    analystClose: 'Grazie dell’invito.',
  },
  zh: {
    briefingIntro: (date) => `这是${date}的监管前瞻简报。`,
    bottomLine: (text) => `要点：${text}`,
    itemsIntro: '以下是需要关注的关键日期。',
    itemOn: (c, d, j, t) => `${when(c, d, '{d}', '预计{d}', '可能在{d}前后')}，${j}：${t}。`,
    itemIn: (c, d, j, t) => `${when(c, d, '{d}', '预计{d}', '可能在{d}')}，${j}：${t}。`,
    shownOf: (n, m) => `以上是${m}项相关文件中的${n}项；完整报告列出了全部。`,
    trendsIntro: '展望期内，以下趋势值得关注。',
    briefingClose: '简报到此结束。完整报告列出了所有事项、日期和来源。',
    hostWelcome: (d, h) => `欢迎收听${d}的监管前瞻讨论。今天的焦点：${h} 整体情况如何？`,
    hostFirstItem: '第一个需要记下的日期是什么？',
    hostNextItem: '接下来呢？',
    hostTrends: '从更宏观的角度看，您看到了哪些趋势？',
    hostClose: '谢谢。完整报告列出了所有事项、日期和来源。',
    analystClose: '谢谢邀请。',
  },
  ja: {
    briefingIntro: (date) => `${date}の規制ホライズン・ブリーフィングです。`,
    bottomLine: (text) => `要点：${text}`,
    itemsIntro: '注目すべき主な日程は次のとおりです。',
    itemOn: (c, d, j, t) => `${when(c, d, '{d}', '{d}の見込み', '{d}ごろの可能性')}、${j}：${t}。`,
    itemIn: (c, d, j, t) => `${when(c, d, '{d}', '{d}の見込み', '{d}ごろの可能性')}、${j}：${t}。`,
    shownOf: (n, m) => `該当する${m}件のうち${n}件です。全件は完全版レポートに記載しています。`,
    trendsIntro: '期間全体では、次の傾向が目立ちます。',
    briefingClose: 'ブリーフィングは以上です。詳細な項目、日程、出典は完全版レポートをご覧ください。',
    hostWelcome: (d, h) => `${d}の規制ホライズン・ディスカッションへようこそ。今日の見出しは、${h} 全体像はどうでしょうか。`,
    hostFirstItem: '最初に押さえておくべき日程は何ですか。',
    hostNextItem: '次は何でしょうか。',
    hostTrends: '全体として、どのような傾向が見えますか。',
    hostClose: 'ありがとうございました。詳細は完全版レポートをご覧ください。',
    analystClose: 'ありがとうございました。',
  },
};

/** Speakable prose: citation markers, markup and line breaks removed. */
export function speakable(text: string | null | undefined): string {
  return stripCites(text)
    .replace(/<[^>]*>/g, ' ')
    .replace(/[*_#`]+/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Text ending in sentence punctuation (so joined segments read as sentences). */
function sentence(text: string): string {
  const clean = speakable(text);
  if (!clean) return '';
  return /[.!?。！？…:：]$/.test(clean) ? clean : `${clean}.`;
}

/** The first sentence of a prose block, for short spoken summaries. */
function firstSentence(text: string | null | undefined): string {
  const clean = speakable(text);
  const match = /^(.+?[.!?。！？])(\s|$)/.exec(clean);
  return match ? match[1]! : clean;
}

/**
 * A key date as spoken, only as precise as it is known: a day through spokenDate, a month as "July 2027" in the
 * script's language, a quarter, half-year or year as "Q3 2027", "H2 2027", "2027". An estimate is never a day.
 */
export function spokenPeriod(iso: string, precision: Precision | undefined, confidence: DateConfidence, language: ScriptLanguage): { text: string; day: boolean } {
  const shown = shownPrecision(confidence, precision);
  if (!/^\d{4}-\d{2}-\d{2}/.test(iso)) return { text: iso, day: true };
  if (shown === 'day') return { text: spokenDate(iso, language), day: true };
  if (shown !== 'month') return { text: formatPeriod(iso.slice(0, 10), shown), day: false };
  try {
    const month = new Intl.DateTimeFormat(language, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
      new Date(Date.UTC(Number(iso.slice(0, 4)), Number(iso.slice(5, 7)) - 1, 1)),
    );
    return { text: month, day: false };
  } catch {
    return { text: formatPeriod(iso.slice(0, 10), 'month'), day: false };
  }
}

/** The scan date as spoken in the script's language ("22 November 2026", "22. November 2026", "2026年11月22日"). */
export function spokenDate(iso: string, language: ScriptLanguage): string {
  if (language === 'en') return formatLongDate(iso);
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(iso);
  if (!m) return iso;
  try {
    return new Intl.DateTimeFormat(language, { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
      new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))),
    );
  } catch {
    return formatLongDate(iso);
  }
}

const IMPACT_RANK: Readonly<Record<string, number>> = { high: 0, medium: 1, low: 2 };

/** The items the spoken scripts cover: the most important upcoming ones, in date order. */
export function topItems(snapshot: RenderSnapshot, limit = SCRIPT_TOP_ITEMS): SnapshotItem[] {
  const from = scanDateOf(snapshot);
  const all = snapshot.data?.items ?? [];
  const ahead = all.filter((item) => (item.key_date ?? '') >= from);
  const pool = ahead.length > 0 ? ahead : all;
  const chosen = [...pool]
    .sort((a, b) => (IMPACT_RANK[a.impact] ?? 9) - (IMPACT_RANK[b.impact] ?? 9) || (a.key_date ?? '').localeCompare(b.key_date ?? ''))
    .slice(0, limit);
  return sortItems(chosen);
}

function topTrends(snapshot: RenderSnapshot, limit = SCRIPT_TOP_TRENDS): SnapshotTrend[] {
  const rank: Record<string, number> = { rising: 0, steady: 1, fading: 2 };
  return [...(snapshot.data?.trends ?? [])].sort((a, b) => (rank[a.momentum] ?? 9) - (rank[b.momentum] ?? 9)).slice(0, limit);
}

interface Parts {
  phrases: Phrases;
  date: string;
  headline: string;
  standfirst: string;
  bottomLine: string;
  items: Array<{ line: string; detail: string }>;
  /** "These are 6 of the 233 matching instruments; …", empty when the script names every one. */
  shownOf: string;
  /** Where the scan came from and what was checked (render-facts disclaimerLine), said at the close. */
  disclaimer: string;
  trends: string[];
}

function parts(snapshot: RenderSnapshot, locale: string): Parts {
  const language = scriptLanguage(locale);
  const phrases = PHRASES[language];
  const data = snapshot.data;
  const briefing = data?._briefing;
  const named = topItems(snapshot);
  const total = matchedFacts(snapshot).total;
  return {
    phrases,
    date: spokenDate(scanDateOf(snapshot), language),
    headline: sentence(briefing?.briefing_headline || snapshot.title || ''),
    standfirst: sentence(briefing?.briefing_standfirst ?? ''),
    bottomLine: sentence(briefing?.bottom_line_tight || data?.executive_summary?.bottom_line || ''),
    items: named.map((item) => {
      const when = spokenPeriod(item.key_date ?? '', item.key_date_precision, item.date_confidence, language);
      const say = when.day ? phrases.itemOn : phrases.itemIn;
      return {
        line: say(item.date_confidence, when.text, speakable(item.jurisdiction), speakable(item.title).replace(/[.。]$/, '')),
        detail: sentence(firstSentence(item.summary)),
      };
    }),
    shownOf: named.length < total ? phrases.shownOf(named.length, total) : '',
    disclaimer: disclaimerLine(snapshot),
    trends: topTrends(snapshot).map((trend) =>
      sentence(`${speakable(trend.title).replace(/[.。]$/, '')}: ${firstSentence(trend.description)}`),
    ),
  };
}

const joinLen = (segments: readonly string[]): number => segments.filter(Boolean).join(' ').length;

/**
 * The narrator's script for the voice briefing: intro, headline, standfirst, bottom line, the top items with their
 * dates (each with its first summary sentence while room remains), trends, close. Never longer than `maxChars`.
 */
export function briefingScript(snapshot: RenderSnapshot, locale: string, maxChars = BRIEFING_SCRIPT_MAX_CHARS): string {
  const p = parts(snapshot, locale);
  const head = [p.phrases.briefingIntro(p.date), p.headline, p.standfirst, p.bottomLine ? p.phrases.bottomLine(p.bottomLine) : ''];
  const tail = [p.phrases.briefingClose, p.disclaimer];
  const body: string[] = [];
  const fits = (extra: readonly string[]): boolean => joinLen([...head, ...body, ...extra, ...tail]) <= maxChars;
  if (p.items.length > 0 && fits([p.phrases.itemsIntro, p.shownOf, p.items[0]!.line])) body.push(p.phrases.itemsIntro, p.shownOf);
  for (const item of body.length > 0 ? p.items : []) {
    if (fits([item.line, item.detail])) body.push(item.line, item.detail);
    else if (fits([item.line])) body.push(item.line);
  }
  if (p.trends.length > 0 && fits([p.phrases.trendsIntro, p.trends[0]!])) {
    body.push(p.phrases.trendsIntro);
    for (const trend of p.trends) if (fits([trend])) body.push(trend);
  }
  const script = [...head, ...body, ...tail].filter(Boolean).join(' ');
  return script.length <= maxChars ? script : `${script.slice(0, maxChars - 1).replace(/\s+\S*$/, '')}…`;
}

export type DialogueSpeaker = 'host' | 'analyst';
export interface DialogueLine {
  speaker: DialogueSpeaker;
  text: string;
}

/**
 * The voice discussion: host and analyst alternate, starting and ending with the host. The host frames, the
 * analyst explains (standfirst and bottom line, then one exchange per top item, then trends). The total text
 * stays within `maxChars`.
 */
export function dialogueScript(snapshot: RenderSnapshot, locale: string, maxChars = DIALOGUE_SCRIPT_MAX_CHARS): DialogueLine[] {
  const p = parts(snapshot, locale);
  const opening: DialogueLine[] = [
    { speaker: 'host', text: p.phrases.hostWelcome(p.date, p.headline) },
    {
      speaker: 'analyst',
      text: [p.standfirst, p.bottomLine ? p.phrases.bottomLine(p.bottomLine) : ''].filter(Boolean).join(' ') || p.headline,
    },
  ];
  const closing: DialogueLine[] = [
    { speaker: 'host', text: [p.phrases.hostClose, p.disclaimer].filter(Boolean).join(' ') },
    { speaker: 'analyst', text: p.phrases.analystClose },
  ];
  const body: DialogueLine[] = [];
  const total = (extra: readonly DialogueLine[]): number =>
    [...opening, ...body, ...extra, ...closing].reduce((sum, line) => sum + line.text.length, 0);
  p.items.forEach((item, index) => {
    const question = { speaker: 'host' as const, text: index === 0 ? p.phrases.hostFirstItem : p.phrases.hostNextItem };
    const lead = index === 0 && p.shownOf ? `${p.shownOf} ${item.line}` : item.line;
    const full = { speaker: 'analyst' as const, text: [lead, item.detail].filter(Boolean).join(' ') };
    const short = { speaker: 'analyst' as const, text: lead };
    if (total([question, full]) <= maxChars) body.push(question, full);
    else if (total([question, short]) <= maxChars) body.push(question, short);
  });
  const trendLines = [...p.trends];
  while (trendLines.length > 0) {
    const exchange = [
      { speaker: 'host' as const, text: p.phrases.hostTrends },
      { speaker: 'analyst' as const, text: trendLines.join(' ') },
    ];
    if (total(exchange) <= maxChars) {
      body.push(...exchange);
      break;
    }
    trendLines.pop();
  }
  const lines = [...opening, ...body, ...closing];
  // Over budget only when the opening alone is too long: shorten the analyst's opening answer.
  const excess = lines.reduce((sum, line) => sum + line.text.length, 0) - maxChars;
  if (excess > 0) {
    const answer = lines[1]!;
    answer.text = `${answer.text.slice(0, Math.max(1, answer.text.length - excess - 1)).replace(/\s+\S*$/, '')}…`;
  }
  return lines;
}

/** One line of markdown text: no line breaks. */
const inline = (text: string | null | undefined): string =>
  stripCites(text)
    .replace(/\s*\n\s*/g, ' ')
    .trim();

/**
 * The notebook's source document: the whole snapshot as markdown (scope, briefing, executive summary and narrative,
 * every item grouped by jurisdiction with its dates, stage, impact, summary, implications and sources, trends).
 * Headings are English; the prose is whatever language the envelope was projected into.
 */
export function notebookSourceMarkdown(snapshot: RenderSnapshot, locale: string): string {
  const data = snapshot.data;
  const out: string[] = [];
  out.push(`# ${inline(snapshot.title) || 'Regulatory horizon scan'}`, '');
  out.push(`- Scan date: ${formatLongDate(scanDateOf(snapshot))}`);
  out.push(`- Horizon: ${horizonText(snapshot) || '—'}`);
  out.push(`- Jurisdictions: ${listText(snapshot.config?.jurisdictions)}`);
  out.push(`- Areas: ${listText(snapshot.config?.areas)}`);
  const matched = matchedFacts(snapshot);
  out.push(
    `- Items: ${data?.items?.length ?? 0}${matched.total > (data?.items?.length ?? 0) ? ` (the top ${data?.items?.length ?? 0} of ${matched.total} matching instruments)` : ''}; trends: ${data?.trends?.length ?? 0}`,
  );
  out.push(`- ${disclaimerLine(snapshot)}`);
  out.push(`- Language: ${locale === 'simple' ? 'English (plain register)' : scriptLanguage(locale)}`, '');

  const briefing = data?._briefing;
  if (briefing) {
    out.push('## Briefing', '');
    if (briefing.briefing_headline) out.push(`**${inline(briefing.briefing_headline)}**`, '');
    if (briefing.briefing_standfirst) out.push(inline(briefing.briefing_standfirst), '');
    if (briefing.priorities?.length) out.push(...briefing.priorities.map((line) => `- ${inline(line)}`), '');
    if (briefing.bottom_line_tight) out.push(`Bottom line: ${inline(briefing.bottom_line_tight)}`, '');
    if (briefing.sentiment_label)
      out.push(
        `Outlook: ${inline(briefing.sentiment_label)}${briefing.sentiment_rationale ? ` — ${inline(briefing.sentiment_rationale)}` : ''}`,
        '',
      );
  }

  const summary = data?.executive_summary;
  if (summary?.bottom_line || summary?.priorities?.length) {
    out.push('## Executive summary', '');
    if (summary.bottom_line) out.push(inline(summary.bottom_line), '');
    if (summary.priorities?.length) out.push(...summary.priorities.map((line) => `- ${inline(line)}`), '');
  }
  const narrative = paragraphs(stripCites(data?.executive_narrative ?? ''));
  if (narrative.length > 0) out.push('## Narrative', '', ...narrative.flatMap((para) => [para, '']));

  const sections = groupByJurisdiction(snapshot);
  if (sections.length > 0) out.push('## Items', '');
  for (const section of sections) {
    out.push(`### ${inline(section.jurisdiction)}`, '');
    for (const item of section.items) {
      out.push(`#### ${inline(item.title)}`, '');
      out.push(
        `- Key date: ${keyDateLabel(item)} (${label(CONFIDENCE_LABELS, item.date_confidence).toLowerCase()})`,
        ...(timelineLabels(item).length > 0 ? ['- Timeline:', ...timelineLabels(item).map((line) => `  - ${inline(line)}`)] : []),
        `- Stage: ${label(STAGE_LABELS, item.stage)}`,
        `- Impact: ${label(IMPACT_LABELS, item.impact)}`,
        `- Area: ${inline(item.area)}`,
        `- Regulator: ${inline(item.regulator)}`,
        `- Instrument: ${inline(item.instrument_type)}`,
        '',
      );
      if (item.summary) out.push(inline(item.summary), '');
      if (item.implications) out.push(`Implications: ${inline(item.implications)}`, '');
      const citations = item.citations ?? [];
      if (citations.length > 0) {
        out.push('Sources:');
        for (const c of citations)
          out.push(`- ${inline(c.title) || inline(c.url)}${c.publisher ? ` (${inline(sourceLabel(c))})` : ''}: ${inline(c.url)}`);
        out.push('');
      }
    }
  }

  const trends = data?.trends ?? [];
  if (trends.length > 0) {
    out.push('## Trends', '');
    for (const trend of trends) {
      out.push(`### ${inline(trend.title)} (${trend.momentum})`, '', inline(trend.description), '');
      const scope = [...(trend.jurisdictions ?? []), ...(trend.areas ?? [])];
      if (scope.length > 0) out.push(`Scope: ${scope.map(inline).join(', ')}`, '');
    }
  }
  return `${out
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()}\n`;
}
