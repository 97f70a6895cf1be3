/**
 * Offline composition: turns selected calendar entries into the snapshot envelope's analysis keys
 * (items, trends, executive summary and narrative, sub-editor briefing block, verification, auditor sidecar,
 * _meta) by rule. Pure and deterministic: the same inputs always give the same output; the scan date comes
 * in through the context and the clock is never read. Only instruments from the calendar are reported.
 */
import type { Calendar, CalendarEntry, Milestone } from '../calendar/calendar.types';
import { formatPeriod } from './dates';
import type {
  AuditorSidecar,
  BriefingBlock,
  Citation,
  ExecutiveSummary,
  ItemMilestone,
  SnapshotEnvelope,
  SnapshotItem,
  SnapshotTrend,
} from '../envelope.types';
import { type MatchedInstrument, type MatchedSummary, summariseMatched } from './aggregates';
import { resolveAreas, resolveJurisdictions } from './matching';
import { type SelectedEntry, MAX_SELECTED_ITEMS, SELECTION_ORDER, selectEntriesWithStats, windowEnd as computeWindowEnd } from './selection';
import { capitalise, datePhrase, ensureFinalStop, eventInSentence } from './text';
import { briefing, executiveSummary, narrative, type ProseFacts } from './prose';
import { buildTrends } from './trends';
import { type PassName, type PassOutcome, auditorPass, combineStatus, publicPass, realistPass } from './verification';

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
  /** Matching entries the cap left out, in rank order; kept (privately) so exports can list every match. */
  beyondCap?: readonly SelectedEntry[];
};

/** A matching instrument the item cap left out, as exports list it (`list: all_matched`). */
export type BeyondCapItem = Pick<
  SnapshotItem,
  'id' | 'title' | 'jurisdiction' | 'area' | 'areas' | 'regulator' | 'stage' | 'impact' | 'key_date' | 'date_confidence' | 'key_date_precision' | 'milestone'
> & { citation: Omit<Citation, 'id'> | null };

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
  /** How the kept items were chosen when more matched. */
  selection: { max_items: number; order: string };
  /** Counts over every matching instrument (not only the kept items), for tiles, charts and "N of M shown". */
  matched_summary: MatchedSummary;
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
  /** Private: the matching instruments the cap left out (store under a key no read path returns). */
  _beyond_cap: BeyondCapItem[];
};



/* ------------------------------------------------------------------------------------------------------------ */
/* Items                                                                                                        */
/* ------------------------------------------------------------------------------------------------------------ */

/** The clause naming what happens on the key date ("On 10 July 2027: application of the single rulebook."). */
export function keyDateClause(keyDate: Milestone): string {
  const phrase = datePhrase(keyDate.date, keyDate.confidence, keyDate.precision);
  const event = eventInSentence(keyDate.event);
  return `${capitalise(phrase)}${keyDate.confidence === 'speculative' ? ' (not yet announced)' : ''}: ${event}.`;
}

/**
 * The clause saying what did not happen as planned ("Slipped: final rules were expected in Q3 2026; no new date has
 * been announced."), so that a passed date is never read as upcoming and never silently dropped.
 */
export function unresolvedClause(milestones: readonly Milestone[]): string {
  return milestones
    .map((m) => {
      const precision = m.precision ?? 'day';
      const when = `${precision === 'day' ? 'on' : 'in'} ${formatPeriod(m.date, precision)}`;
      const event = eventInSentence(m.event);
      return m.slipped
        ? `Slipped: ${event} was expected ${when}; no new date has been announced.`
        : `Unconfirmed: ${event} was due ${when}; the calendar records no outcome yet.`;
    })
    .join(' ');
}

/** An entry's sources as citations numbered from `firstId`, official sources first (the first is the item's source). */
function citationsOf(entry: CalendarEntry, firstId: number): Citation[] {
  const ordered = [...entry.sources].sort((a, b) => Number((a.kind ?? 'official') !== 'official') - Number((b.kind ?? 'official') !== 'official'));
  return ordered.map((source, i) => ({
    id: firstId + i,
    url: source.url,
    title: source.title,
    publisher: source.publisher,
    published_at: source.published_at ?? null,
    kind: source.kind ?? 'official',
    ...(source.language ? { language: source.language } : {}),
  }));
}

function timelineOf(selected: SelectedEntry, citations: readonly Citation[]): ItemMilestone[] {
  const idOf = (url: string | undefined) => citations.find((c) => c.url === url)?.id ?? citations[0]?.id ?? null;
  const row = (m: Milestone, status: ItemMilestone['status']): ItemMilestone => ({
    date: m.date,
    precision: m.precision ?? 'day',
    event: m.event,
    confidence: m.confidence,
    status,
    citation_id: idOf(m.source),
    ...(m.history?.length ? { previous_dates: m.history.map((h) => ({ date: h.date, precision: h.precision })) } : {}),
  });
  return [
    ...selected.unresolved.map((m) => row(m, m.slipped ? 'slipped' : 'unconfirmed')),
    ...selected.windowDates.map((m) => row(m, 'upcoming')),
  ];
}

/** What an item and a beyond-cap row share: the instrument and its next milestone inside the window. */
function instrumentFields({ entry, area, nextKeyDate }: SelectedEntry) {
  return {
    id: entry.id,
    title: entry.title,
    jurisdiction: entry.jurisdiction,
    area,
    areas: [...entry.areas],
    regulator: entry.regulator,
    stage: entry.stage,
    impact: entry.impact,
    key_date: nextKeyDate.date,
    date_confidence: nextKeyDate.confidence,
    key_date_precision: nextKeyDate.precision ?? 'day',
    milestone: nextKeyDate.event,
  };
}

/** The facts of a matching instrument that aggregates and prose count. */
function matchedInstrument(picked: SelectedEntry): MatchedInstrument {
  return { ...instrumentFields(picked), window_milestones: picked.windowDates.map((m) => ({ date: m.date, precision: m.precision ?? 'day' })) };
}

function beyondCapItem(picked: SelectedEntry): BeyondCapItem {
  const [citation] = citationsOf(picked.entry, 0);
  return { ...instrumentFields(picked), citation: citation ? (({ id: _id, ...rest }) => rest)(citation) : null };
}

function buildItems(selected: readonly SelectedEntry[]): SnapshotItem[] {
  let nextCitationId = 1;
  return selected.map((picked) => {
    const { entry, nextKeyDate, unresolved } = picked;
    const citations = citationsOf(entry, nextCitationId);
    nextCitationId += citations.length;
    const slippedText = unresolved.length > 0 ? ` ${unresolvedClause(unresolved)}` : '';
    return {
      ...instrumentFields(picked),
      instrument_type: entry.instrument_type,
      timeline: timelineOf(picked, citations),
      summary: `${ensureFinalStop(entry.summary)} ${keyDateClause(nextKeyDate)}${slippedText}`,
      implications: ensureFinalStop(entry.implications),
      citations,
      verification: { status: 'unverified' as const, passes: [] },
    };
  });
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
  const keptIds = new Set(selected.map(({ entry }) => entry.id));
  const matched = [...selected, ...(ctx.beyondCap ?? []).filter(({ entry }) => !keptIds.has(entry.id))].map(matchedInstrument);

  const trends = buildTrends(
    items.map((item, i) => ({ item, entry: selected[i].entry })),
    { scanDate: ctx.scanDate, windowEnd: end, areaIds: areas.ids },
  );

  const facts: ProseFacts = {
    scanDate: ctx.scanDate,
    horizonMonths: ctx.horizonMonths,
    windowEnd: end,
    source: { kind: 'calendar', calendarVersion: ctx.calendarVersion },
    jurisdictionIds: jurisdictions.ids,
    areaIds: areas.ids,
    unmatchedJurisdictions: jurisdictions.unmatched,
    unmatchedAreas: areas.unmatched,
    prose: items.map((item, i) => ({ item, event: selected[i].nextKeyDate.event })),
    trends,
    matchedCount: Math.max(ctx.matchedCount ?? selected.length, selected.length, matched.length),
    matched,
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
    _beyond_cap: (ctx.beyondCap ?? []).map(beyondCapItem),
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
      selection: { max_items: MAX_SELECTED_ITEMS, order: SELECTION_ORDER },
      matched_summary: summariseMatched(matched, keptIds, { jurisdictions: jurisdictions.ids, areas: areas.ids }),
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
    beyondCap: selection.matched.slice(selection.selected.length),
  });
}

/** The public envelope of an offline analysis, as a read returns it (private keys and the plain map left out). */
export function publicEnvelope(analysis: OfflineAnalysis): SnapshotEnvelope {
  return {
    items: analysis.items,
    trends: analysis.trends,
    executive_summary: analysis.executive_summary,
    executive_narrative: analysis.executive_narrative,
    _briefing: analysis._briefing,
    auditor: analysis.auditor,
    translations: {},
    _meta: analysis._meta as unknown as Record<string, unknown>,
  };
}
