/**
 * Offline composition: turns selected calendar entries into the snapshot envelope's analysis keys
 * (items, trends, executive summary and narrative, sub-editor briefing block, verification, auditor sidecar,
 * _meta) by rule. Pure and deterministic: the same inputs always give the same output; the scan date comes
 * in through the context and the clock is never read. Only instruments from the calendar are reported.
 */
import type { Calendar, CalendarEntry, KeyDate } from '../calendar/calendar.types';
import type { AuditorSidecar, BriefingBlock, Citation, ExecutiveSummary, SnapshotItem, SnapshotTrend } from '../envelope.types';
import { dayNumber, formatLongDate, formatMonthYear, formatShortDate } from './dates';
import { resolveAreas, resolveJurisdictions } from './matching';
import { type SelectedEntry, MAX_SELECTED_ITEMS, selectEntriesWithStats, windowEnd as computeWindowEnd } from './selection';
import { capitalise, compactList, count, datePhrase, ensureFinalStop, eventInSentence, firstSentence, joinList, numberWord, shortName, truncate } from './text';
import { buildTrends } from './trends';
import { type PassName, type PassOutcome, auditorPass, combineStatus, publicPass, realistPass } from './verification';
import { ITEM_STAGES_PAST_ADOPTION } from '../../domain/item-stages';

export type ComposeContext = {
  /** Requested jurisdiction names, as given in the scan config. */
  jurisdictions: string[];
  /** Requested area names, as given in the scan config. */
  areas: string[];
  horizonMonths: number;
  /** The scan date (the real current date), YYYY-MM-DD. */
  scanDate: string;
  engine: string;
  realist: boolean;
  auditor: boolean;
  calendarVersion: string;
  /** Entries that matched before the selection cap (SelectionResult.matchedCount); defaults to the selected count. */
  matchedCount?: number;
};

export type OfflineMeta = {
  engine_mode: 'offline';
  engine: string;
  calendar_version: string;
  scan_date: string;
  horizon_months: number;
  /** Last day of the window, inclusive. */
  window_end: string;
  selected_count: number;
  /** Matching entries before the cap; larger than selected_count when `capped`. */
  matched_count: number;
  capped: boolean;
  /** Resolved jurisdiction ids. */
  matched_jurisdictions: string[];
  /** Requested jurisdiction names that resolved to nothing. */
  unmatched_jurisdictions: string[];
  /** Resolved area ids. */
  matched_areas: string[];
  /** Requested area names that resolved to nothing. */
  unmatched_areas: string[];
};

/** Per-item check details. Stored with the snapshot, never returned by the API. */
export type AuditorPrivateDiagnostics = {
  engine_mode: 'offline';
  scan_date: string;
  calendar_version: string;
  passes: PassName[];
  items: { item_id: string; status: SnapshotItem['verification']['status']; passes: PassOutcome[] }[];
};

export type OfflineAnalysis = {
  items: SnapshotItem[];
  trends: SnapshotTrend[];
  executive_summary: ExecutiveSummary;
  /** Prose with [[cite:N]] markers. */
  executive_narrative: string;
  _briefing: BriefingBlock;
  auditor: AuditorSidecar;
  /** Private diagnostics: store under a key no read path returns; never merge into `auditor`. */
  _auditor_private: AuditorPrivateDiagnostics;
  _meta: OfflineMeta;
  /** item id -> the calendar entry's plain-language summary (for the `simple` register). */
  plain: Record<string, string>;
};

/** Priorities listed in the executive summary and the briefing block. */
export const MAX_PRIORITIES = 5;
/** Items named in the narrative's lead paragraph. */
const LEAD_ITEMS = 3;
/** Trends narrated in the narrative's trend paragraph. */
const NARRATED_TRENDS = 3;
/** Jurisdictions / areas named in prose before they are counted instead ("13 jurisdictions"). */
const SCOPE_LISTED = 4;


/* ------------------------------------------------------------------------------------------------------------ */
/* Items                                                                                                        */
/* ------------------------------------------------------------------------------------------------------------ */

/** The clause naming what happens on the key date ("On 10 July 2027: application of the single rulebook."). */
export function keyDateClause(keyDate: KeyDate): string {
  const long = formatLongDate(keyDate.date);
  const event = eventInSentence(keyDate.event);
  if (keyDate.confidence === 'confirmed') return `On ${long}: ${event}.`;
  if (keyDate.confidence === 'expected') return `Expected on ${long}: ${event}.`;
  return `Estimated for ${long} (not yet announced): ${event}.`;
}

function toCitation(source: CalendarEntry['sources'][number], id: number): Citation {
  return { id, url: source.url, title: source.title, publisher: source.publisher, published_at: source.published_at ?? null };
}

function buildItems(selected: readonly SelectedEntry[]): SnapshotItem[] {
  let nextCitationId = 1;
  return selected.map(({ entry, area, nextKeyDate }) => ({
    id: entry.id,
    title: entry.title,
    jurisdiction: entry.jurisdiction,
    area,
    regulator: entry.regulator,
    instrument_type: entry.instrument_type,
    stage: entry.stage,
    key_date: nextKeyDate.date,
    date_confidence: nextKeyDate.confidence,
    impact: entry.impact,
    summary: `${ensureFinalStop(entry.summary)} ${keyDateClause(nextKeyDate)}`,
    implications: ensureFinalStop(entry.implications),
    citations: entry.sources.map((source) => toCitation(source, nextCitationId++)),
    verification: { status: 'unverified' as const, passes: [] },
  }));
}

/* ------------------------------------------------------------------------------------------------------------ */
/* Prose helpers                                                                                                */
/* ------------------------------------------------------------------------------------------------------------ */

interface ProseItem {
  item: SnapshotItem;
  keyDate: KeyDate;
}

function cite(item: SnapshotItem): string {
  return item.citations.length > 0 ? ` [[cite:${item.citations[0].id}]]` : '';
}

function event(p: ProseItem): string {
  return eventInSentence(p.keyDate.event);
}

function when(p: ProseItem): string {
  return datePhrase(p.item.key_date, p.item.date_confidence);
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

interface Facts {
  ctx: ComposeContext;
  windowEnd: string;
  jurisdictionIds: string[];
  areaIds: string[];
  unmatchedJurisdictions: string[];
  unmatchedAreas: string[];
  prose: ProseItem[];
  trends: SnapshotTrend[];
  matchedCount: number;
}

/** Requested jurisdictions for prose: listed up to SCOPE_LISTED, counted beyond. */
function scopeJurisdictions(f: Facts): string {
  return f.jurisdictionIds.length > 0 ? compactList(f.jurisdictionIds, 'jurisdiction', SCOPE_LISTED) : 'the requested jurisdictions';
}

/** Requested areas for prose: listed up to SCOPE_LISTED, counted beyond. */
function scopeAreas(f: Facts): string {
  return f.areaIds.length > 0 ? compactList(f.areaIds, 'area', SCOPE_LISTED) : 'the requested areas';
}

/** "6 are confirmed, 11 expected and 4 estimated", leaving out zero counts. */
function breakdown(parts: readonly [number, string][]): string {
  const nonZero = parts.filter(([n]) => n > 0);
  if (nonZero.length === 0) return 'none';
  return joinList(nonZero.map(([n, label], i) => (i === 0 ? `${n} ${isAre(n)} ${label}` : `${n} ${label}`)));
}

function unmatchedSentence(f: Facts): string {
  const parts: string[] = [];
  if (f.unmatchedJurisdictions.length > 0) {
    parts.push(`${f.unmatchedJurisdictions.length === 1 ? 'jurisdiction' : 'jurisdictions'} ${quoteNames(f.unmatchedJurisdictions)}`);
  }
  if (f.unmatchedAreas.length > 0) parts.push(`${f.unmatchedAreas.length === 1 ? 'area' : 'areas'} ${quoteNames(f.unmatchedAreas)}`);
  return parts.length > 0 ? `Not recognised, and so not covered: ${joinList(parts)}.` : '';
}

function tally(prose: readonly ProseItem[]) {
  const by = <K extends string>(key: (p: ProseItem) => K, value: K) => prose.filter((p) => key(p) === value).length;
  const impact = (p: ProseItem) => p.item.impact;
  const confidence = (p: ProseItem) => p.item.date_confidence;
  return {
    n: prose.length,
    high: by(impact, 'high'),
    medium: by(impact, 'medium'),
    low: by(impact, 'low'),
    confirmed: by(confidence, 'confirmed'),
    expected: by(confidence, 'expected'),
    speculative: by(confidence, 'speculative'),
    binding: prose.filter((p) => p.item.date_confidence === 'confirmed' && ITEM_STAGES_PAST_ADOPTION.has(p.item.stage)).length,
    tentative: prose.filter(
      (p) => p.item.date_confidence === 'speculative' || p.item.stage === 'proposed' || p.item.stage === 'consultation',
    ).length,
  };
}

/** Earliest item by key date (ties: rank order). */
function earliest(prose: readonly ProseItem[]): ProseItem {
  return prose.reduce((best, p) => (p.item.key_date < best.item.key_date ? p : best), prose[0]);
}

/* ------------------------------------------------------------------------------------------------------------ */
/* Executive summary and narrative                                                                              */
/* ------------------------------------------------------------------------------------------------------------ */

function priorityLine(p: ProseItem): string {
  return `${actionVerb(p.item.stage)} ${shortName(p.item.title)} (${p.item.jurisdiction}), ${when(p)}: ${event(p)}.`;
}

function executiveSummary(f: Facts): ExecutiveSummary {
  const { ctx, prose } = f;
  if (prose.length === 0) {
    const unmatched = unmatchedSentence(f);
    return {
      bottom_line:
        `No instrument in the regulatory calendar matches ${scopeJurisdictions(f)} for ${scopeAreas(f)} with a key date between ` +
        `${formatLongDate(ctx.scanDate)} and ${formatLongDate(f.windowEnd)}.${unmatched ? ` ${unmatched}` : ''}`,
      priorities: [],
    };
  }
  const t = tally(prose);
  const top = prose[0];
  const capped = f.matchedCount > prose.length ? ` (the ${prose.length} highest-ranked of ${f.matchedCount} shown)` : '';
  return {
    bottom_line:
      `${count(t.n, 'instrument')} in ${scopeJurisdictions(f)} ${t.n === 1 ? 'falls' : 'fall'} due for ${scopeAreas(f)} in the ` +
      `${ctx.horizonMonths} months to ${formatLongDate(f.windowEnd)}${capped}; ${t.high} ${isAre(t.high)} high impact. ` +
      `Top priority: ${shortName(top.item.title)} (${top.item.jurisdiction}), ${when(top)} (${event(top)}).`,
    priorities: prose.slice(0, MAX_PRIORITIES).map(priorityLine),
  };
}

function momentumPhrase(momentum: SnapshotTrend['momentum']): string {
  if (momentum === 'rising') return 'is gathering pace';
  if (momentum === 'fading') return 'is further off and less certain';
  return 'is moving at a steady pace';
}

function narrative(f: Facts, verifiedCount: number, passes: readonly PassName[]): string {
  const { ctx, prose, trends } = f;
  const closing =
    `This briefing was composed offline from the curated regulatory calendar (version ${ctx.calendarVersion}) and lists only ` +
    `instruments recorded there; check the cited official sources before acting.`;

  if (prose.length === 0) {
    const unmatched = unmatchedSentence(f);
    return [
      `No instrument in the regulatory calendar matches ${scopeJurisdictions(f)} for ${scopeAreas(f)} with a key date between ` +
        `${formatLongDate(ctx.scanDate)} and ${formatLongDate(f.windowEnd)} (a ${ctx.horizonMonths}-month horizon).` +
        (unmatched ? ` ${unmatched}` : ''),
      `The offline engine reports only instruments held in its curated calendar (version ${ctx.calendarVersion}), so an empty ` +
        `result does not show that nothing is happening: widen the horizon or the areas, or run the scan with a live provider.`,
    ].join('\n\n');
  }

  const t = tally(prose);
  const paragraphs: string[] = [];

  // 1. Scope and shape of the selection.
  const capped =
    f.matchedCount > prose.length ? ` This briefing covers the ${prose.length} highest-ranked of those ${f.matchedCount} instruments.` : '';
  const unmatched = unmatchedSentence(f);
  paragraphs.push(
    `The regulatory calendar holds ${count(f.matchedCount, 'instrument')} for ${scopeAreas(f)} in ${scopeJurisdictions(f)} with key dates ` +
      `between ${formatLongDate(ctx.scanDate)} and ${formatLongDate(f.windowEnd)}.${capped} ` +
      `By impact, ${breakdown([
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
      const dates = members.map((m) => m.item.key_date).sort();
      const span =
        dates[0] === dates[dates.length - 1]
          ? `on ${formatLongDate(dates[0])}`
          : `between ${formatLongDate(dates[0])} and ${formatLongDate(dates[dates.length - 1])}`;
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
      `The ${joinList(passes.slice())} ${passes.length === 1 ? 'check' : 'checks'} verified ${verifiedCount} of ${count(t.n, 'item')} against the calendar.`,
    );
  }
  tail.push(closing);
  paragraphs.push(tail.join(' '));

  return paragraphs.join('\n\n');
}

/* ------------------------------------------------------------------------------------------------------------ */
/* Briefing block                                                                                               */
/* ------------------------------------------------------------------------------------------------------------ */

function briefingScope(f: Facts): string {
  return f.jurisdictionIds.length === 0
    ? 'the requested jurisdictions'
    : f.jurisdictionIds.length <= 3
      ? joinList(f.jurisdictionIds)
      : count(f.jurisdictionIds.length, 'jurisdiction');
}

function briefingPriority(p: ProseItem): string {
  const flag = p.item.date_confidence === 'expected' ? ' (exp.)' : p.item.date_confidence === 'speculative' ? ' (est.)' : '';
  return `[${p.item.jurisdiction}] ${truncate(shortName(p.item.title), 40)}, ${formatShortDate(p.item.key_date)}${flag}: ${truncate(event(p), 60)}`;
}

/** Sentiment of the window by rule from impact counts, stages and date confidence. */
function sentiment(prose: readonly ProseItem[]): { label: string; rationale: string } {
  if (prose.length === 0) return { label: 'quiet', rationale: 'No calendar instrument falls due in the window.' };
  const t = tally(prose);
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

function briefing(f: Facts): BriefingBlock {
  const { ctx, prose, trends } = f;
  const scope = briefingScope(f);
  if (prose.length === 0) {
    const unmatched = unmatchedSentence(f);
    const mood = sentiment(prose);
    return {
      briefing_headline: `No calendar milestones for ${scope} in the next ${ctx.horizonMonths} months`,
      briefing_standfirst:
        `Nothing in the regulatory calendar for ${scopeAreas(f)} falls due between ${formatShortDate(ctx.scanDate)} and ` +
        `${formatShortDate(f.windowEnd)}.${unmatched ? ` ${unmatched}` : ''}`,
      priorities: [],
      bottom_line_tight: 'Nothing in the calendar falls due in this window.',
      pull_quote: 'No instrument in the regulatory calendar matches this scan.',
      sentiment_label: mood.label,
      sentiment_rationale: mood.rationale,
    };
  }
  const t = tally(prose);
  const top = prose[0];
  const first = earliest(prose);
  const mood = sentiment(prose);
  const mid = dayNumber(ctx.scanDate) + Math.floor((dayNumber(f.windowEnd) - dayNumber(ctx.scanDate)) / 2);
  const early = prose.filter((p) => dayNumber(p.item.key_date) <= mid).length;
  const half = firstHalfLabel(ctx.horizonMonths, ctx.scanDate, f.windowEnd);

  let pullQuote: string;
  if (t.n === 1) {
    pullQuote = `${shortName(top.item.title)} (${top.item.jurisdiction}) is the only milestone in the window, ${when(top)}.`;
  } else if (early === 0) {
    pullQuote = `Nothing lands before ${formatMonthYear(first.item.key_date)}: the first milestone is ${shortName(first.item.title)} (${first.item.jurisdiction}).`;
  } else if (early === t.n) {
    pullQuote = `All ${t.n} milestones land in the next ${half}.`;
  } else {
    pullQuote = `${capitalise(numberWord(early))} of the ${t.n} milestones ${early === 1 ? 'lands' : 'land'} in the next ${half}.`;
  }

  return {
    briefing_headline:
      t.n === 1
        ? `${truncate(shortName(top.item.title), 50)} is the one calendar milestone for ${scope} in the next ${ctx.horizonMonths} months`
        : `${truncate(shortName(top.item.title), 50)} heads ${t.n} regulatory milestones for ${scope} over ${ctx.horizonMonths} months`,
    briefing_standfirst:
      `${count(t.n, 'instrument')} across ${scopeAreas(f)} ${t.n === 1 ? 'falls' : 'fall'} due between ${formatShortDate(ctx.scanDate)} and ` +
      `${formatShortDate(f.windowEnd)}: ${t.high} high impact, ${t.confirmed} with confirmed dates.` +
      (trends.length > 0 ? ` Main thread: ${trends[0].title}.` : ''),
    priorities: prose.slice(0, MAX_PRIORITIES).map(briefingPriority),
    bottom_line_tight:
      `${t.n} due by ${formatShortDate(f.windowEnd)}, ${t.high} high impact; first up: ` +
      `${truncate(shortName(first.item.title), 40)} (${first.item.jurisdiction}) on ${formatShortDate(first.item.key_date)}.`,
    pull_quote: pullQuote,
    sentiment_label: mood.label,
    sentiment_rationale: mood.rationale,
  };
}

/* ------------------------------------------------------------------------------------------------------------ */
/* Entry point                                                                                                  */
/* ------------------------------------------------------------------------------------------------------------ */

/**
 * Composes the offline analysis for the selected entries (from selectEntries / selectEntriesWithStats).
 * `calendar` is the calendar the passes check against (normally the one the entries were selected from).
 */
export function composeOfflineEnvelope(selected: readonly SelectedEntry[], calendar: Calendar, ctx: ComposeContext): OfflineAnalysis {
  const end = computeWindowEnd(ctx.scanDate, ctx.horizonMonths);
  const jurisdictions = resolveJurisdictions(ctx.jurisdictions ?? []);
  const areas = resolveAreas(ctx.areas ?? []);
  const entriesById = new Map(calendar.entries.map((e) => [e.id, e]));

  // Items, then the verification passes that ran.
  const items = buildItems(selected);
  const passNames: PassName[] = [...(ctx.realist ? (['realist'] as const) : []), ...(ctx.auditor ? (['auditor'] as const) : [])];
  const diagnostics: AuditorPrivateDiagnostics['items'] = [];
  const flagged: string[] = [];
  for (const item of items) {
    const entry = entriesById.get(item.id);
    const outcomes: PassOutcome[] = [];
    if (ctx.realist) outcomes.push(realistPass(item, entry, ctx.scanDate));
    if (ctx.auditor) {
      const audit = auditorPass(item, entry);
      outcomes.push(audit);
      if (audit.status !== 'verified') flagged.push(item.id);
    }
    item.verification = { status: combineStatus(outcomes), passes: outcomes.map(publicPass) };
    if (outcomes.length > 0) diagnostics.push({ item_id: item.id, status: item.verification.status, passes: outcomes });
  }
  const verifiedCount = items.filter((i) => i.verification.status === 'verified').length;

  const trends = buildTrends(
    items.map((item, i) => ({ item, entry: selected[i].entry })),
    { scanDate: ctx.scanDate, windowEnd: end, areaIds: areas.ids },
  );

  const facts: Facts = {
    ctx,
    windowEnd: end,
    jurisdictionIds: jurisdictions.ids,
    areaIds: areas.ids,
    unmatchedJurisdictions: jurisdictions.unmatched,
    unmatchedAreas: areas.unmatched,
    prose: items.map((item, i) => ({ item, keyDate: selected[i].nextKeyDate })),
    trends,
    matchedCount: Math.max(ctx.matchedCount ?? selected.length, selected.length),
  };

  const plain: Record<string, string> = {};
  for (const { entry } of selected) plain[entry.id] = entry.plain_summary;

  return {
    items,
    trends,
    executive_summary: executiveSummary(facts),
    executive_narrative: narrative(facts, verifiedCount, passNames),
    _briefing: briefing(facts),
    auditor: { ran: ctx.auditor, passes: passNames, verified_count: verifiedCount, flagged_item_ids: flagged },
    _auditor_private: {
      engine_mode: 'offline',
      scan_date: ctx.scanDate,
      calendar_version: ctx.calendarVersion,
      passes: passNames,
      items: diagnostics,
    },
    _meta: {
      engine_mode: 'offline',
      engine: ctx.engine,
      calendar_version: ctx.calendarVersion,
      scan_date: ctx.scanDate,
      horizon_months: ctx.horizonMonths,
      window_end: end,
      selected_count: items.length,
      matched_count: facts.matchedCount,
      capped: facts.matchedCount > items.length,
      matched_jurisdictions: jurisdictions.ids,
      unmatched_jurisdictions: jurisdictions.unmatched,
      matched_areas: areas.ids,
      unmatched_areas: areas.unmatched,
    },
    plain,
  };
}

export type OfflineRunContext = Omit<ComposeContext, 'calendarVersion' | 'matchedCount'> & {
  /** Defaults to the calendar's own version. */
  calendarVersion?: string;
  /** Selection cap; defaults to MAX_SELECTED_ITEMS. */
  maxItems?: number;
};

/** Convenience: select from `calendar` and compose in one call. */
export function analyseOffline(calendar: Calendar, ctx: OfflineRunContext): OfflineAnalysis {
  const selection = selectEntriesWithStats(calendar, {
    jurisdictions: ctx.jurisdictions,
    areas: ctx.areas,
    horizonMonths: ctx.horizonMonths,
    scanDate: ctx.scanDate,
    maxItems: ctx.maxItems ?? MAX_SELECTED_ITEMS,
  });
  const { maxItems: _maxItems, ...rest } = ctx;
  return composeOfflineEnvelope(selection.selected, calendar, {
    ...rest,
    calendarVersion: ctx.calendarVersion ?? calendar.version,
    matchedCount: selection.matchedCount,
  });
}
