/**
 * The prose of a snapshot built by rule: executive summary, narrative and briefing block. The offline engine
 * writes all of it this way; the LLM path uses it wherever a model's own prose is missing or unusable. Pure and
 * deterministic.
 */
import { ITEM_STAGES_PAST_ADOPTION } from '../../domain/item-stages';
import type { BriefingBlock, ExecutiveSummary, SnapshotItem, SnapshotTrend } from '../envelope.types';
import { dayNumber, formatLongDate, formatMonthYear, formatPeriod, formatShortDate, shownPrecision } from './dates';
import { capitalise, compactList, count, datePhrase, ensureFinalStop, eventInSentence, firstSentence, joinList, numberWord, periodSpan, shortName } from './text';
import { isFirmMilestone } from './selection';
import type { PassName } from './verification';

/** Priorities listed in the executive summary and the briefing block. */
export const MAX_PRIORITIES = 5;
/** Items named in the narrative's lead paragraph. */
const LEAD_ITEMS = 3;
/** Trends narrated in the narrative's trend paragraph. */
const NARRATED_TRENDS = 3;
/** Jurisdictions / areas named in prose before they are counted instead ("13 jurisdictions"). */
const SCOPE_LISTED = 4;

/** The phrases that say where the selection comes from. */
interface ProseVoice {
  noneMatches: string;
  holds: string;
  noInstrument: string;
  nothing: string;
  nothingFor: string;
  milestone: string;
  checkedAgainst: string;
  emptyAdvice: string;
  closing: string;
}

function voice(f: ProseFacts): ProseVoice {
  if (f.source.kind === 'calendar') {
    return {
      noneMatches: 'No instrument in the regulatory calendar matches',
      holds: 'The regulatory calendar holds',
      noInstrument: 'No calendar instrument',
      nothing: 'Nothing in the calendar',
      nothingFor: 'Nothing in the regulatory calendar for',
      milestone: 'calendar',
      checkedAgainst: 'against the calendar',
      emptyAdvice:
        `The offline engine reports only instruments held in its curated calendar (version ${f.source.calendarVersion}), so an empty ` +
        'result does not show that nothing is happening: widen the horizon or the areas, or run the scan with a live provider.',
      closing:
        `This briefing was composed offline from the curated regulatory calendar (version ${f.source.calendarVersion}) and lists only ` +
        'instruments recorded there; check the cited official sources before acting.',
    };
  }
  return {
    noneMatches: 'No instrument supported by the calendar or the sources found matches',
    holds: 'The calendar and the sources found support',
    noInstrument: 'No supported instrument',
    nothing: 'Nothing supported',
    nothingFor: 'Nothing supported for',
    milestone: 'supported',
    checkedAgainst: 'against their sources',
    emptyAdvice: 'An empty result does not show that nothing is happening: widen the horizon or the areas.',
    closing:
      'This text was composed by rule from the items the analyst model kept, each grounded in a cited source; check those ' +
      'sources before acting.',
  };
}

/** An item with the event its key date marks ("Application of the single rulebook"). */
export interface ProseItem {
  item: SnapshotItem;
  event: string;
}

function cite(item: SnapshotItem): string {
  return item.citations.length > 0 ? ` [[cite:${item.citations[0].id}]]` : '';
}

function event(p: ProseItem): string {
  return eventInSentence(p.event);
}

function when(p: ProseItem): string {
  return datePhrase(p.item.key_date, p.item.date_confidence, p.item.key_date_precision);
}

function actionVerb(stage: SnapshotItem['stage']): string {
  switch (stage) {
    case 'proposed':
      return 'Monitor';
    case 'consultation':
      return 'Engage with';
    case 'adopted':
    case 'in_force':
      return 'Prepare for';
    default:
      return 'Confirm compliance with';
  }
}

function quoteNames(names: readonly string[]): string {
  return joinList(names.map((n) => `'${n}'`));
}

function isAre(n: number): string {
  return n === 1 ? 'is' : 'are';
}

function firstHalfLabel(horizonMonths: number, scanDate: string, windowEnd: string): string {
  if (horizonMonths % 2 === 0 && horizonMonths > 0) return horizonMonths === 2 ? 'month' : `${horizonMonths / 2} months`;
  const days = Math.floor((dayNumber(windowEnd) - dayNumber(scanDate)) / 2);
  return days % 7 === 0 ? `${numberWord(days / 7)} weeks` : `${days} days`;
}

/** Where the selection comes from, which the prose says: the curated calendar alone, or a model's grounded analysis. */
export type ProseSource = { kind: 'calendar'; calendarVersion: string } | { kind: 'llm' };

/** What the prose is written from. */
export interface ProseFacts {
  scanDate: string;
  horizonMonths: number;
  windowEnd: string;
  source: ProseSource;
  jurisdictionIds: string[];
  areaIds: string[];
  unmatchedJurisdictions: string[];
  unmatchedAreas: string[];
  prose: ProseItem[];
  trends: SnapshotTrend[];
  matchedCount: number;
  /**
   * Every matching instrument, the shown items first (absent: the shown items are all that matched). Counts and
   * period statements are computed over these, so they describe all M matched, not the N shown.
   */
  matched?: readonly TallyItem[];
}

/** What counts and period statements need of an instrument. */
export type TallyItem = Pick<SnapshotItem, 'title' | 'jurisdiction' | 'impact' | 'stage' | 'date_confidence' | 'key_date' | 'key_date_precision'>;

/** Every matching instrument (see ProseFacts.matched). */
function allMatched(f: ProseFacts): readonly TallyItem[] {
  return f.matched && f.matched.length >= f.prose.length ? f.matched : f.prose.map((p) => p.item);
}

/** Requested jurisdictions for prose: listed up to SCOPE_LISTED, counted beyond. */
function scopeJurisdictions(f: ProseFacts): string {
  return f.jurisdictionIds.length > 0 ? compactList(f.jurisdictionIds, 'jurisdiction', SCOPE_LISTED) : 'the requested jurisdictions';
}

/** Requested areas for prose: listed up to SCOPE_LISTED, counted beyond. */
function scopeAreas(f: ProseFacts): string {
  return f.areaIds.length > 0 ? compactList(f.areaIds, 'area', SCOPE_LISTED) : 'the requested areas';
}

/** "6 are confirmed, 11 expected and 4 estimated", leaving out zero counts. */
function breakdown(parts: readonly [number, string][]): string {
  const nonZero = parts.filter(([n]) => n > 0);
  if (nonZero.length === 0) return 'none';
  return joinList(nonZero.map(([n, label], i) => (i === 0 ? `${n} ${isAre(n)} ${label}` : `${n} ${label}`)));
}

function unmatchedSentence(f: ProseFacts): string {
  const parts: string[] = [];
  if (f.unmatchedJurisdictions.length > 0) {
    parts.push(`${f.unmatchedJurisdictions.length === 1 ? 'jurisdiction' : 'jurisdictions'} ${quoteNames(f.unmatchedJurisdictions)}`);
  }
  if (f.unmatchedAreas.length > 0) parts.push(`${f.unmatchedAreas.length === 1 ? 'area' : 'areas'} ${quoteNames(f.unmatchedAreas)}`);
  return parts.length > 0 ? `Not recognised, and so not covered: ${joinList(parts)}.` : '';
}

/** Counts over every matching instrument (`allMatched`), never over the shown items alone. */
function tally(f: ProseFacts) {
  const all = allMatched(f);
  const by = <K extends string>(key: (p: TallyItem) => K, value: K) => all.filter((p) => key(p) === value).length;
  const impact = (p: TallyItem) => p.impact;
  const confidence = (p: TallyItem) => p.date_confidence;
  const total = Math.max(f.matchedCount, all.length);
  const complete = all.length >= total;
  return {
    n: all.length,
    /** Every matching instrument, counted or not. */
    total,
    /** True when the counts cover every matching instrument (else only the shown ones). */
    complete,
    /** What the counts cover, when not all: " of the 4 shown". */
    of: complete ? '' : ` of the ${all.length} shown`,
    high: by(impact, 'high'),
    medium: by(impact, 'medium'),
    low: by(impact, 'low'),
    confirmed: by(confidence, 'confirmed'),
    expected: by(confidence, 'expected'),
    speculative: by(confidence, 'speculative'),
    binding: all.filter((p) => p.date_confidence === 'confirmed' && ITEM_STAGES_PAST_ADOPTION.has(p.stage)).length,
    tentative: all.filter((p) => p.date_confidence === 'speculative' || p.stage === 'proposed' || p.stage === 'consultation').length,
  };
}

/** Earliest item by key date (ties: rank order), among firm dates when there are any: a placeholder is never "first up". */
function earliest<T extends TallyItem>(items: readonly T[]): T {
  const firm = items.filter((p) => isFirmMilestone({ date: p.key_date, event: '', confidence: p.date_confidence, precision: p.key_date_precision }));
  const pool = firm.length > 0 ? firm : items;
  return pool.reduce((best, p) => (p.key_date < best.key_date ? p : best), pool[0]);
}

function priorityLine(p: ProseItem): string {
  return `${actionVerb(p.item.stage)} ${shortName(p.item.title)} (${p.item.jurisdiction}), ${when(p)}: ${event(p)}.`;
}

export function executiveSummary(f: ProseFacts): ExecutiveSummary {
  const { prose } = f;
  if (prose.length === 0) {
    const unmatched = unmatchedSentence(f);
    return {
      bottom_line:
        `${voice(f).noneMatches} ${scopeJurisdictions(f)} for ${scopeAreas(f)} with a key date between ` +
        `${formatLongDate(f.scanDate)} and ${formatLongDate(f.windowEnd)}.${unmatched ? ` ${unmatched}` : ''}`,
      priorities: [],
    };
  }
  const t = tally(f);
  const top = prose[0];
  const capped = t.total > prose.length ? ` (the ${prose.length} highest-ranked of ${t.total} shown)` : '';
  return {
    bottom_line:
      `${count(t.total, 'instrument')} in ${scopeJurisdictions(f)} ${t.total === 1 ? 'falls' : 'fall'} due for ${scopeAreas(f)} in the ` +
      `${f.horizonMonths} months to ${formatLongDate(f.windowEnd)}${capped}; ${t.high}${t.of} ${isAre(t.high)} high impact. ` +
      `Top priority: ${shortName(top.item.title)} (${top.item.jurisdiction}), ${when(top)} (${event(top)}).`,
    priorities: prose.slice(0, MAX_PRIORITIES).map(priorityLine),
  };
}

function momentumPhrase(momentum: SnapshotTrend['momentum']): string {
  if (momentum === 'rising') return 'is gathering pace';
  if (momentum === 'fading') return 'has largely landed: its rules already apply, with fewer milestones ahead than behind';
  return 'is moving at a steady pace';
}

export function narrative(f: ProseFacts, verifiedCount: number, passes: readonly PassName[]): string {
  const { prose, trends } = f;
  const { closing } = voice(f);

  if (prose.length === 0) {
    const unmatched = unmatchedSentence(f);
    return [
      `${voice(f).noneMatches} ${scopeJurisdictions(f)} for ${scopeAreas(f)} with a key date between ` +
        `${formatLongDate(f.scanDate)} and ${formatLongDate(f.windowEnd)} (a ${f.horizonMonths}-month horizon).` +
        (unmatched ? ` ${unmatched}` : ''),
      voice(f).emptyAdvice,
    ].join('\n\n');
  }

  const t = tally(f);
  const paragraphs: string[] = [];

  // 1. Scope and shape of the selection.
  const matchedCount = t.total;
  const capped =
    matchedCount > prose.length ? ` This briefing covers the ${prose.length} highest-ranked of those ${matchedCount} instruments.` : '';
  const unmatched = unmatchedSentence(f);
  paragraphs.push(
    `${voice(f).holds} ${count(matchedCount, 'instrument')} for ${scopeAreas(f)} in ${scopeJurisdictions(f)} with key dates ` +
      `between ${formatLongDate(f.scanDate)} and ${formatLongDate(f.windowEnd)}.${capped} ` +
      `${matchedCount > prose.length ? (t.complete ? `Across all ${t.n}, by impact` : `Of the ${t.n} covered, by impact`) : 'By impact'}, ${breakdown([
        [t.high, 'high'],
        [t.medium, 'medium'],
        [t.low, 'low'],
      ])}; of the next key dates, ${breakdown([
        [t.confirmed, 'confirmed'],
        [t.expected, 'expected'],
        [t.speculative, 'estimated'],
      ])}.` +
      (unmatched ? ` ${unmatched}` : ''),
  );

  // 2. The lead items.
  const [top, ...rest] = prose.slice(0, LEAD_ITEMS);
  const lead: string[] = [
    `${top.item.title} (${top.item.jurisdiction}, ${top.item.regulator}) leads the list, ${when(top)}: ${event(top)}.${cite(top.item)}`,
    `${ensureFinalStop(firstSentence(top.item.implications))}${cite(top.item)}`,
  ];
  const openers = ['Next comes', 'It is followed by'];
  rest.forEach((p, i) => {
    lead.push(`${openers[i] ?? 'Then comes'} ${p.item.title} (${p.item.jurisdiction}), ${when(p)}: ${event(p)}.${cite(p.item)}`);
  });
  paragraphs.push(lead.join(' '));

  // 3. Cross-cutting trends, or the rest of the list when there are none.
  const byId = new Map(prose.map((p) => [p.item.id, p]));
  if (trends.length > 0) {
    const lines = trends.slice(0, NARRATED_TRENDS).map((trend) => {
      const members = trend.item_ids.map((id) => byId.get(id)).filter((p): p is ProseItem => p !== undefined);
      const first = members[0];
      const span = periodSpan(members.map((m) => m.item));
      return (
        `${trend.title} ${momentumPhrase(trend.momentum)}: ${count(members.length, 'instrument')} fall due ${span}, ` +
        `led by ${first.item.title} (${first.item.jurisdiction}) ${when(first)}.${cite(first.item)}`
      );
    });
    paragraphs.push(lines.join(' '));
  } else if (prose.length > LEAD_ITEMS) {
    const further = prose
      .slice(LEAD_ITEMS, LEAD_ITEMS + 3)
      .map((p) => `${p.item.title} (${p.item.jurisdiction}) falls due ${when(p)}: ${event(p)}.${cite(p.item)}`);
    paragraphs.push(`Further down the list, ${further.join(' ')}`);
  }

  // 4. What may move, checks and provenance.
  const tail: string[] = [];
  const movable = prose.filter((p) => p.item.date_confidence !== 'confirmed').slice(0, 2);
  if (movable.length > 0) {
    const phrases = movable.map((p) => `${shortName(p.item.title)} (${p.item.jurisdiction}) ${when(p)}`);
    tail.push(`Some dates may still move, such as ${joinList(phrases)}.${movable.map((p) => cite(p.item)).join('')}`);
  } else {
    tail.push('Every next key date in this selection is confirmed.');
  }
  if (passes.length > 0) {
    tail.push(
      `The ${joinList(passes.slice())} ${passes.length === 1 ? 'check' : 'checks'} verified ${verifiedCount} of ${count(prose.length, matchedCount > prose.length ? 'item shown' : 'item', matchedCount > prose.length ? 'items shown' : 'items')} ${voice(f).checkedAgainst}.`,
    );
  }
  tail.push(closing);
  paragraphs.push(tail.join(' '));

  return paragraphs.join('\n\n');
}

function briefingScope(f: ProseFacts): string {
  return f.jurisdictionIds.length === 0
    ? 'the requested jurisdictions'
    : f.jurisdictionIds.length <= 3
      ? joinList(f.jurisdictionIds)
      : count(f.jurisdictionIds.length, 'jurisdiction');
}

/** "[EU] AMLR, 10 Jul 2027: application of the single rulebook" (whole: renderers wrap, never cut). */
function briefingPriority(p: ProseItem): string {
  const precision = shownPrecision(p.item.date_confidence, p.item.key_date_precision);
  const period = formatPeriod(p.item.key_date, precision, 'short');
  const date = p.item.date_confidence === 'expected' ? `expected ${period}` : p.item.date_confidence === 'speculative' ? `estimated ${period}` : period;
  return `[${p.item.jurisdiction}] ${shortName(p.item.title)}, ${date}: ${event(p)}`;
}

/** Sentiment of the window by rule from impact counts, stages and date confidence. */
function sentiment(f: ProseFacts): { label: string; rationale: string } {
  const { prose } = f;
  if (prose.length === 0) return { label: 'quiet', rationale: `${voice(f).noInstrument} falls due in the window.` };
  const t = tally(f);
  const facts =
    `${t.high} of ${count(t.n, 'instrument')} ${isAre(t.high)} high impact, ${t.binding} ${t.binding === 1 ? 'has' : 'have'} a confirmed ` +
    `date for an adopted or applicable rule, and ${t.tentative} ${isAre(t.tentative)} still proposals, consultations or estimated dates.`;
  if (t.high >= 3 || (t.high >= 1 && t.binding * 2 >= t.n)) {
    return { label: 'intensifying', rationale: `Intensifying: ${facts}` };
  }
  if (t.high === 0 && t.tentative * 2 >= t.n) {
    return { label: 'easing', rationale: `Easing: ${facts}` };
  }
  return { label: 'steady', rationale: `Steady: ${facts}` };
}

export function briefing(f: ProseFacts): BriefingBlock {
  const { prose, trends } = f;
  const scope = briefingScope(f);
  if (prose.length === 0) {
    const unmatched = unmatchedSentence(f);
    const mood = sentiment(f);
    return {
      briefing_headline: `No ${voice(f).milestone} milestones for ${scope} in the next ${f.horizonMonths} months`,
      briefing_standfirst:
        `${voice(f).nothingFor} ${scopeAreas(f)} falls due between ${formatShortDate(f.scanDate)} and ` +
        `${formatShortDate(f.windowEnd)}.${unmatched ? ` ${unmatched}` : ''}`,
      priorities: [],
      bottom_line_tight: `${voice(f).nothing} falls due in this window.`,
      pull_quote: `${voice(f).noneMatches} this scan.`,
      sentiment_label: mood.label,
      sentiment_rationale: mood.rationale,
    };
  }
  const t = tally(f);
  const all = allMatched(f);
  const top = prose[0];
  // "First up" names an item the reader can find in the document: the earliest firm one shown.
  const first = earliest(prose.map((p) => p.item));
  const mood = sentiment(f);
  const mid = dayNumber(f.scanDate) + Math.floor((dayNumber(f.windowEnd) - dayNumber(f.scanDate)) / 2);
  const early = all.filter((p) => dayNumber(p.key_date) <= mid).length;
  const half = firstHalfLabel(f.horizonMonths, f.scanDate, f.windowEnd);
  const firstWhen = datePhrase(first.key_date, first.date_confidence, first.key_date_precision);

  let pullQuote: string;
  if (t.total === 1) {
    pullQuote = `${shortName(top.item.title)} (${top.item.jurisdiction}) is the only milestone in the window, ${when(top)}.`;
  } else if (early === 0) {
    pullQuote = `Nothing lands before ${formatMonthYear(first.key_date)}: the first milestone is ${shortName(first.title)} (${first.jurisdiction}).`;
  } else if (early === t.n) {
    pullQuote = `All ${t.n} milestones land in the first ${half} of the ${f.horizonMonths}-month window.`;
  } else {
    pullQuote = `${capitalise(numberWord(early))} of the ${t.n} milestones ${early === 1 ? 'lands' : 'land'} in the first ${half} of the ${f.horizonMonths}-month window.`;
  }

  return {
    briefing_headline:
      t.total === 1
        ? `${shortName(top.item.title)} is the one ${voice(f).milestone} milestone for ${scope} in the next ${f.horizonMonths} months`
        : `${shortName(top.item.title)} heads ${t.total} regulatory instruments due for ${scope} over ${f.horizonMonths} months`,
    briefing_standfirst:
      `${count(t.total, 'instrument')} across ${scopeAreas(f)} ${t.total === 1 ? 'falls' : 'fall'} due between ${formatShortDate(f.scanDate)} and ` +
      `${formatShortDate(f.windowEnd)}: ${t.complete ? '' : `of the ${t.n} shown, `}${t.high} high impact, ${t.confirmed} with confirmed dates.` +
      (trends.length > 0 ? ` Main thread: ${trends[0].title}.` : ''),
    priorities: prose.slice(0, MAX_PRIORITIES).map(briefingPriority),
    bottom_line_tight:
      `${t.total} due by ${formatShortDate(f.windowEnd)}, ${t.high}${t.of} high impact; first up: ` +
      `${shortName(first.title)} (${first.jurisdiction}) ${firstWhen}.`,
    pull_quote: pullQuote,
    sentiment_label: mood.label,
    sentiment_rationale: mood.rationale,
  };
}
