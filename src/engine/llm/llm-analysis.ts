/**
 * LLM-backed analysis: the search, read, analyse, verify and sub-edit phases run over the provider ports when the
 * resolved analyst model belongs to a configured real provider.
 *
 * The model's output is never trusted as is. Guardrails keep the service from presenting invented instruments or
 * passed dates as upcoming: an item is dropped (and recorded in `_meta.llm.dropped`) when its key date is not
 * inside [scanDate, windowEnd], when its jurisdiction or area is not one of the requested ones, or when it cites
 * none of the sources it was given. Items grounded in a calendar candidate take that entry's id, regulator and
 * citations (stable ids for drift); items grounded only in web sources get `web-<hash of title + jurisdiction>`.
 *
 * Transient provider errors (ProviderTransientError) propagate so that the job is retried; permanent ones are
 * EngineFailure.
 */
import { createHash } from 'node:crypto';
import { MODEL_PRICES, costCents as priceOf, type ModelUsage } from '../../domain/vocabulary/models';
import type { ResolvedScanConfig } from '../../domain/scan-config.types';
import type { CalendarEntry } from '../calendar/calendar.types';
import type { AuditorSidecar, BriefingBlock, Citation, DateConfidence, ExecutiveSummary, Impact, ItemStage, SnapshotItem, SnapshotTrend } from '../envelope.types';
import { formatLongDate, formatShortDate } from '../analysis/dates';
import { normalizeName, resolveArea, resolveAreas, resolveJurisdiction, resolveJurisdictions } from '../analysis/matching';
import { IMPACT_RANK, type SelectedEntry, windowEnd as computeWindowEnd } from '../analysis/selection';
import { compactList, count, ensureFinalStop, joinList, sentences, shortName, slugify, truncate } from '../analysis/text';
import { type CheckDetail, type PassName, type PassOutcome, combineStatus, publicPass, realistPass } from '../analysis/verification';
import type { FetchPort, LlmPort, SearchPort, SearchResult } from '../../infra/providers/ports';
import { asEnum, asIsoDate, asList, asObject, asText, extractJsonObject, type JsonObject, rewriteSourceReferences, sourceNumbers, stripReferences } from './parse';
import { ANALYST_SYSTEM, AUDITOR_SYSTEM, JSON_REMINDER, type NumberedSource, WRITER_SYSTEM, analystPrompt, auditorPrompt, writerPrompt } from './prompts';
import { EngineFailure } from '../../domain/failures';
import { ProviderTransientError } from '../../infra/providers/provider-errors';

export interface LlmRole {
  port: LlmPort;
  /** Our catalogue id, for prices. */
  modelId: string;
  /** The vendor's model id sent on the wire. */
  vendorModel: string;
}

export interface LlmAnalysisDeps {
  analyst: LlmRole;
  search?: { port: SearchPort; modelId?: string; vendorModel?: string };
  fetch?: FetchPort;
  /** Used when the auditor pass runs; defaults to the analyst. */
  auditor?: LlmRole;
  /** Sub-editor; defaults to the analyst. */
  writer?: LlmRole;
}

export interface LlmAnalysisInput {
  config: ResolvedScanConfig;
  /** YYYY-MM-DD */
  scanDate: string;
  /** Calendar grounding from selectEntries (may be empty). */
  candidates: SelectedEntry[];
  calendarVersion: string;
}

export type LlmPhase = 'search' | 'read' | 'analyse' | 'verify' | 'sub-edit';

export interface LlmAnalysisHooks {
  phase(name: LlmPhase, message: string, costSoFarCents: number): Promise<void>;
}

export interface LlmAnalysisResult {
  envelope: Record<string, unknown>;
  costCents: number;
}

/** Caps (kept small: each query and page read costs time and money). */
export const MAX_SEARCH_QUERIES = 8;
export const RESULTS_PER_QUERY = 5;
export const MAX_WEB_SOURCES = 24;
export const MAX_PAGE_READS = 5;
export const EXCERPT_CHARS = 1200;
export const MAX_PRIORITIES = 5;
export const ANALYST_MAX_TOKENS = 8192;
export const AUDITOR_MAX_TOKENS = 4096;
export const WRITER_MAX_TOKENS = 2048;

const STAGES: readonly ItemStage[] = ['proposed', 'consultation', 'adopted', 'in_force', 'applies'];
const CONFIDENCES: readonly DateConfidence[] = ['confirmed', 'expected', 'speculative'];
const IMPACTS: readonly Impact[] = ['high', 'medium', 'low'];
const MOMENTA: readonly SnapshotTrend['momentum'][] = ['rising', 'steady', 'fading'];
const STATUSES = ['verified', 'unverified', 'disputed'] as const;
const ADVANCED_STAGES = new Set<ItemStage>(['adopted', 'in_force', 'applies']);

export interface DroppedItem {
  ref: string | null;
  title: string | null;
  reason: string;
}

/** Stable id of an instrument grounded only in web sources. */
export function webItemId(title: string, jurisdiction: string): string {
  const hash = createHash('sha256')
    .update(`${normalizeName(title)}|${normalizeName(jurisdiction)}`)
    .digest('hex');
  return `web-${hash.slice(0, 10)}`;
}

export async function analyseWithLlm(
  deps: LlmAnalysisDeps,
  input: LlmAnalysisInput,
  hooks: LlmAnalysisHooks,
  signal?: AbortSignal,
): Promise<LlmAnalysisResult> {
  const { config, scanDate } = input;
  const end = computeWindowEnd(scanDate, config.horizon);
  const requestedJurisdictions = resolveJurisdictions(config.jurisdictions);
  const requestedAreas = resolveAreas(config.areas);
  const notes: string[] = [];
  let cost = 0;
  const charge = (modelId: string | undefined, usage: ModelUsage) => {
    if (modelId && Object.hasOwn(MODEL_PRICES, modelId)) cost += priceOf(modelId, usage);
    else notes.push(`no price for model ${modelId ?? '(unknown)'}; its usage was not costed`);
  };
  const llm = async (role: LlmRole, system: string, prompt: string, maxTokens: number, retry: boolean) => {
    signal?.throwIfAborted();
    const messages = [{ role: 'user' as const, content: prompt }];
    const first = await role.port.complete({ model: role.vendorModel, system, messages, maxTokens, json: true }, signal);
    charge(role.modelId, first.usage);
    const parsed = extractJsonObject(first.text);
    if (parsed || !retry) return { value: parsed, attempts: 1 };
    const second = await role.port.complete(
      {
        model: role.vendorModel,
        system,
        messages: [
          ...messages,
          { role: 'assistant', content: first.text.slice(0, 4000) || '(empty)' },
          { role: 'user', content: JSON_REMINDER },
        ],
        maxTokens,
        json: true,
      },
      signal,
    );
    charge(role.modelId, second.usage);
    return { value: extractJsonObject(second.text), attempts: 2 };
  };

  // ---------------------------------------------------------------------------------------------- sources
  const sources: NumberedSource[] = [];
  const byUrl = new Map<string, NumberedSource>();
  const candidateSources = new Map<string, number[]>();
  for (const { entry } of input.candidates) {
    const numbers: number[] = [];
    for (const source of entry.sources) {
      let numbered = byUrl.get(source.url);
      if (!numbered) {
        numbered = {
          number: sources.length + 1,
          url: source.url,
          title: source.title,
          publisher: source.publisher,
          publishedAt: source.published_at ?? null,
          snippet: '',
          calendarId: entry.id,
        };
        sources.push(numbered);
        byUrl.set(source.url, numbered);
      }
      numbers.push(numbered.number);
    }
    candidateSources.set(entry.id, numbers);
  }

  // ---------------------------------------------------------------------------------------------- 1. search
  const searchErrors: string[] = [];
  const webSources: NumberedSource[] = [];
  let queries = 0;
  if (deps.search) {
    const year = scanDate.slice(0, 4);
    const years = end.slice(0, 4) === year ? year : `${year}-${end.slice(0, 4)}`;
    const planned: string[] = [];
    for (const jurisdiction of config.jurisdictions) {
      for (const area of config.areas) planned.push(`${area} regulation ${jurisdiction} upcoming deadlines ${years}`);
    }
    for (const query of planned.slice(0, MAX_SEARCH_QUERIES)) {
      signal?.throwIfAborted();
      let results: SearchResult[];
      try {
        const response = await deps.search.port.search(query, { maxResults: RESULTS_PER_QUERY, model: deps.search.vendorModel }, signal);
        charge(deps.search.modelId, response.usage);
        results = response.results;
      } catch (error) {
        // A transient failure retries the job; a permanent one loses this query only.
        if (error instanceof ProviderTransientError || !(error instanceof EngineFailure)) throw error;
        searchErrors.push(error.message);
        continue;
      } finally {
        queries++;
      }
      for (const result of results) {
        if (webSources.length >= MAX_WEB_SOURCES) break;
        if (!isHttpUrl(result.url) || byUrl.has(result.url)) continue;
        const numbered: NumberedSource = {
          number: sources.length + 1,
          url: result.url,
          title: result.title || hostOf(result.url),
          publisher: hostOf(result.url),
          publishedAt: asIsoDate(result.publishedAt) ?? null,
          snippet: truncate(result.snippet ?? '', 400),
        };
        sources.push(numbered);
        webSources.push(numbered);
        byUrl.set(result.url, numbered);
      }
    }
    if (queries > 0 && searchErrors.length === queries) {
      notes.push('every search query failed; the analysis used the calendar only');
    }
  }
  await hooks.phase(
    'search',
    deps.search
      ? `Ran ${count(queries, 'search query', 'search queries')} with ${deps.search.port.provider}: ${count(webSources.length, 'web source')}`
      : 'No search provider: the analysis is grounded in the regulatory calendar',
    cost,
  );

  // ---------------------------------------------------------------------------------------------- 2. read
  let pagesRead = 0;
  const readErrors: string[] = [];
  if (deps.fetch) {
    for (const source of webSources.slice(0, MAX_PAGE_READS)) {
      signal?.throwIfAborted();
      try {
        const page = await deps.fetch.fetch(source.url, signal);
        const text = page.text.replace(/\s+/g, ' ').trim();
        if (text) {
          source.excerpt = truncate(text, EXCERPT_CHARS);
          pagesRead++;
        }
        if (page.title && (source.title === hostOf(source.url) || !source.title)) source.title = page.title;
      } catch (error) {
        if (signal?.aborted) throw error;
        readErrors.push(`${source.url}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }
  await hooks.phase(
    'read',
    deps.fetch
      ? `Read ${count(pagesRead, 'source page')}${readErrors.length ? ` (${readErrors.length} unreadable)` : ''}`
      : 'No page reads configured',
    cost,
  );

  // ---------------------------------------------------------------------------------------------- 3. analyse
  const prompt = analystPrompt({
    jurisdictions: config.jurisdictions,
    areas: config.areas,
    horizonMonths: config.horizon,
    scanDate,
    windowEnd: end,
    candidates: input.candidates,
    candidateSources,
    sources,
  });
  const analysis = await llm(deps.analyst, ANALYST_SYSTEM, prompt, ANALYST_MAX_TOKENS, true);
  const raw = analysis.value;
  if (!raw || !Array.isArray(raw.items)) throw new EngineFailure('the analyst model returned no usable JSON');

  const guarded = applyGuardrails(raw, {
    candidates: input.candidates,
    sources,
    scanDate,
    windowEnd: end,
    jurisdictionIds: requestedJurisdictions.ids,
    jurisdictionNames: config.jurisdictions,
    areaIds: requestedAreas.ids,
    areaNames: config.areas,
  });
  const { items, dropped, refToId, entryById, citationBySource } = guarded;
  const trends = buildTrends(asList(raw.trends), refToId, items);
  const droppedTitles = dropped
    .map((d) => d.title)
    .filter((t): t is string => !!t && t.length >= 6 && !items.some((i) => i.title.toLowerCase() === t.toLowerCase()));
  const mentionsDropped = (text: string) => droppedTitles.some((t) => text.toLowerCase().includes(t.toLowerCase()));
  const citationIds = new Set(items.flatMap((i) => i.citations.map((c) => c.id)));

  const facts: Facts = {
    jurisdictions: requestedJurisdictions.ids.length ? requestedJurisdictions.ids : config.jurisdictions,
    areas: requestedAreas.ids.length ? requestedAreas.ids : config.areas,
    horizonMonths: config.horizon,
    scanDate,
    windowEnd: end,
    items,
  };
  const summaryRaw = asObject(raw.executive_summary);
  const bottomLine = asText(summaryRaw?.bottom_line);
  const executiveSummary: ExecutiveSummary =
    items.length > 0 && bottomLine && !mentionsDropped(bottomLine)
      ? {
          bottom_line: stripReferences(bottomLine),
          priorities: asList(summaryRaw?.priorities)
            .map(asText)
            .filter((p): p is string => !!p && !mentionsDropped(p))
            .map(stripReferences)
            .slice(0, MAX_PRIORITIES),
        }
      : ruleSummary(facts);
  let narrative = '';
  const narrativeRaw = asText(raw.executive_narrative);
  if (items.length > 0 && narrativeRaw) {
    const rewritten = rewriteSourceReferences(
      narrativeRaw,
      (n) => citationBySource.get(n),
      (id) => citationIds.has(id),
    );
    narrative = droppedTitles.length ? withoutSentencesMentioning(rewritten, mentionsDropped) : rewritten;
  }
  const narrativeSource = narrative ? 'analyst' : 'rule';
  if (!narrative) narrative = ruleNarrative(facts);
  await hooks.phase(
    'analyse',
    `Analysed ${count(items.length, 'item')} into ${count(trends.length, 'trend')}${dropped.length ? `; dropped ${dropped.length} unsupported` : ''}`,
    cost,
  );

  // ---------------------------------------------------------------------------------------------- 4. verify
  const passNames: PassName[] = [...(config.realist ? (['realist'] as const) : []), ...(config.auditor ? (['auditor'] as const) : [])];
  const outcomes = new Map<string, PassOutcome[]>(items.map((i) => [i.id, []]));
  if (config.realist) {
    for (const item of items) {
      const entry = entryById.get(item.id);
      outcomes.get(item.id)!.push(entry ? realistPass(item, entry, scanDate) : webRealistPass(item, scanDate));
    }
  }
  let auditorError: string | undefined;
  if (config.auditor && items.length > 0) {
    const auditor = deps.auditor ?? deps.analyst;
    const verdict = await llm(auditor, AUDITOR_SYSTEM, auditorPrompt(items, sources, scanDate), AUDITOR_MAX_TOKENS, true);
    const verdicts = new Map<string, { status: (typeof STATUSES)[number]; note: string }>();
    if (!verdict.value || !Array.isArray(verdict.value.items)) {
      auditorError = 'the auditor model returned no usable JSON';
    } else {
      for (const entry of verdict.value.items) {
        const record = asObject(entry);
        const id = asText(record?.id);
        const status = asEnum(record?.status, STATUSES);
        if (id && status && !verdicts.has(id)) verdicts.set(id, { status, note: stripReferences(asText(record?.note) ?? '') });
      }
    }
    for (const item of items) {
      const found = verdicts.get(item.id);
      // Passed dates are disputed whatever the model says (the guardrails already drop them).
      const status = found?.status ?? 'unverified';
      const note = found
        ? found.note || `The auditor marked the item ${found.status}.`
        : auditorError
          ? 'The auditor pass could not check this item.'
          : 'The auditor returned no verdict for this item.';
      const check: CheckDetail = {
        check: found ? 'llm_source_review' : 'llm_no_verdict',
        outcome: status === 'verified' ? 'ok' : status,
        detail: note,
      };
      outcomes.get(item.id)!.push({ pass: 'auditor', status, note, checks: [check] });
    }
  }
  const diagnostics: Array<{ item_id: string; status: SnapshotItem['verification']['status']; passes: PassOutcome[] }> = [];
  const flagged: string[] = [];
  for (const item of items) {
    const passes = outcomes.get(item.id) ?? [];
    item.verification = { status: combineStatus(passes), passes: passes.map(publicPass) };
    if (passes.some((p) => p.pass === 'auditor' && p.status !== 'verified')) flagged.push(item.id);
    if (passes.length > 0) diagnostics.push({ item_id: item.id, status: item.verification.status, passes });
  }
  const verifiedCount = items.filter((i) => i.verification.status === 'verified').length;
  const auditorSidecar: AuditorSidecar = {
    ran: config.auditor,
    passes: passNames,
    verified_count: verifiedCount,
    flagged_item_ids: flagged,
  };
  await hooks.phase(
    'verify',
    passNames.length
      ? `Ran the ${joinList(passNames)} pass${passNames.length > 1 ? 'es' : ''}: ${verifiedCount} of ${count(items.length, 'item')} verified`
      : 'No verification pass requested',
    cost,
  );

  // ---------------------------------------------------------------------------------------------- 5. sub-edit
  let briefing: BriefingBlock | null = null;
  let briefingNote: string | undefined;
  if (items.length > 0) {
    const writer = deps.writer ?? deps.analyst;
    try {
      const written = await llm(
        writer,
        WRITER_SYSTEM,
        writerPrompt({
          jurisdictions: facts.jurisdictions,
          areas: facts.areas,
          horizonMonths: config.horizon,
          scanDate,
          windowEnd: end,
          items,
          bottomLine: executiveSummary.bottom_line,
        }),
        WRITER_MAX_TOKENS,
        false,
      );
      briefing = written.value ? toBriefing(written.value, mentionsDropped) : null;
      if (!briefing) briefingNote = 'the writer model returned no usable briefing; a rule-built briefing was used';
    } catch (error) {
      if (error instanceof ProviderTransientError || !(error instanceof EngineFailure)) throw error;
      briefingNote = `the writer model failed (${error.message}); a rule-built briefing was used`;
    }
  } else {
    briefingNote = 'no item to brief on; a rule-built briefing was used';
  }
  const finalBriefing = briefing ?? ruleBriefing(facts);
  await hooks.phase('sub-edit', briefing ? 'Sub-edited the briefing' : 'Composed the briefing by rule', cost);

  // ---------------------------------------------------------------------------------------------- 6. envelope
  const plain: Record<string, string> = {};
  for (const item of items) plain[item.id] = entryById.get(item.id)?.plain_summary ?? sentences(item.summary)[0] ?? item.summary;
  const droppedReasons: Record<string, number> = {};
  for (const d of dropped) droppedReasons[d.reason.replace(/ \(.*\)$/, '')] = (droppedReasons[d.reason.replace(/ \(.*\)$/, '')] ?? 0) + 1;
  const envelope: Record<string, unknown> = {
    items,
    trends,
    executive_summary: executiveSummary,
    executive_narrative: narrative,
    _briefing: finalBriefing,
    auditor: auditorSidecar,
    _auditor_private: {
      engine_mode: 'llm',
      scan_date: scanDate,
      calendar_version: input.calendarVersion,
      passes: passNames,
      auditor_model: config.auditor ? (deps.auditor ?? deps.analyst).modelId : null,
      ...(auditorError ? { auditor_error: auditorError } : {}),
      items: diagnostics,
    },
    translations: {},
    _plain: plain,
    _meta: {
      engine_mode: 'llm',
      engine: config.engine,
      analyst_model: deps.analyst.modelId,
      search_provider: deps.search?.port.provider ?? null,
      search_model: deps.search?.modelId ?? null,
      fetch_provider: deps.fetch?.provider ?? null,
      writer_model: (deps.writer ?? deps.analyst).modelId,
      calendar_version: input.calendarVersion,
      scan_date: scanDate,
      horizon_months: config.horizon,
      window_end: end,
      matched_jurisdictions: requestedJurisdictions.ids,
      unmatched_jurisdictions: requestedJurisdictions.unmatched,
      matched_areas: requestedAreas.ids,
      unmatched_areas: requestedAreas.unmatched,
      candidates_count: input.candidates.length,
      sources_count: sources.length,
      selected_count: items.length,
      dropped: { count: dropped.length, reasons: droppedReasons, items: dropped },
      llm: {
        dropped: { count: dropped.length, reasons: droppedReasons, items: dropped },
        analyst_attempts: analysis.attempts,
        search_queries: queries,
        web_sources: webSources.length,
        pages_read: pagesRead,
        omitted_candidates: input.candidates.map((c) => c.entry.id).filter((id) => !items.some((i) => i.id === id)),
        narrative: narrativeSource,
        briefing: briefing ? 'writer' : 'rule',
        ...(briefingNote ? { briefing_note: briefingNote } : {}),
        ...(searchErrors.length ? { search_errors: searchErrors } : {}),
        ...(readErrors.length ? { read_errors: readErrors } : {}),
        ...(auditorError ? { auditor_error: auditorError } : {}),
        ...(notes.length ? { notes: [...new Set(notes)] } : {}),
      },
    },
  };
  return { envelope, costCents: cost };
}

/* ------------------------------------------------------------------------------------------------------------ */
/* Guardrails                                                                                                   */
/* ------------------------------------------------------------------------------------------------------------ */

interface GuardContext {
  candidates: readonly SelectedEntry[];
  sources: readonly NumberedSource[];
  scanDate: string;
  windowEnd: string;
  jurisdictionIds: string[];
  jurisdictionNames: string[];
  areaIds: string[];
  areaNames: string[];
}

interface Guarded {
  items: SnapshotItem[];
  dropped: DroppedItem[];
  /** Model refs (and item ids / titles) -> kept item id, for trends. */
  refToId: Map<string, string>;
  entryById: Map<string, CalendarEntry>;
  /** Source number -> citation id (only sources some kept item cites). */
  citationBySource: Map<number, number>;
}

/** A requested name or id matching `value` (resolved ids, or exact case-insensitive text for unrecognised names). */
function matchRequested(
  value: string | undefined,
  resolve: (name: string) => string | null,
  ids: string[],
  names: string[],
): string | null {
  if (!value) return null;
  const id = resolve(value);
  if (id && ids.includes(id)) return id;
  const exact = names.find((n) => n.trim().toLowerCase() === value.trim().toLowerCase());
  if (exact) return resolve(exact) ?? exact;
  return null;
}

export function applyGuardrails(raw: JsonObject, ctx: GuardContext): Guarded {
  const candidateById = new Map(ctx.candidates.map((c) => [c.entry.id.toLowerCase(), c]));
  const sourceByNumber = new Map(ctx.sources.map((s) => [s.number, s]));
  const dropped: DroppedItem[] = [];
  const kept: Array<{ item: SnapshotItem; sourceNumbers: number[]; refs: string[]; entry?: CalendarEntry }> = [];
  const seen = new Set<string>();

  for (const value of asList(raw.items)) {
    const record = asObject(value);
    const ref = asText(record?.ref) ?? null;
    const rawTitle = asText(record?.title) ?? null;
    const drop = (reason: string) => dropped.push({ ref, title: rawTitle, reason });
    if (!record) {
      drop('not an object');
      continue;
    }
    const candidate = ref
      ? (candidateById.get(ref.toLowerCase()) ?? candidateById.get(ref.toLowerCase().replace(/^cal(endar)?[:\s-]*/, '')))
      : undefined;
    const entry = candidate?.entry;
    const title = entry?.title ?? rawTitle;
    if (!title) {
      drop('no title');
      continue;
    }

    // Key date: inside [scanDate, windowEnd].
    const keyDate = asIsoDate(record.key_date) ?? (asText(record.key_date) ? undefined : candidate?.nextKeyDate.date);
    if (!keyDate) {
      drop(`no valid key date (${String(record.key_date ?? 'missing')})`);
      continue;
    }
    if (keyDate < ctx.scanDate) {
      drop(`key date before the scan date (${keyDate})`);
      continue;
    }
    if (keyDate > ctx.windowEnd) {
      drop(`key date after the window end (${keyDate})`);
      continue;
    }

    // Jurisdiction and area: among the requested ones.
    const jurisdiction = entry
      ? matchRequested(entry.jurisdiction, resolveJurisdiction, ctx.jurisdictionIds, ctx.jurisdictionNames)
      : matchRequested(asText(record.jurisdiction), resolveJurisdiction, ctx.jurisdictionIds, ctx.jurisdictionNames);
    if (!jurisdiction) {
      drop(`jurisdiction not requested (${entry?.jurisdiction ?? asText(record.jurisdiction) ?? 'missing'})`);
      continue;
    }
    let area = matchRequested(asText(record.area), resolveArea, ctx.areaIds, ctx.areaNames);
    if (entry) {
      if (!area || !entry.areas.includes(area)) area = candidate!.area;
    }
    if (!area) {
      drop(`area not requested (${asText(record.area) ?? 'missing'})`);
      continue;
    }

    // Sources: calendar items cite their entry's sources; web items the valid numbered sources they list.
    let numbers: number[];
    if (entry) {
      numbers = entry.sources.map((s) => ctx.sources.find((n) => n.url === s.url)?.number).filter((n): n is number => n !== undefined);
    } else {
      const listed = sourceNumbers(record.source_numbers ?? record.sources);
      const fromRef = ref ? sourceNumbers(ref) : [];
      numbers = [...new Set([...listed, ...fromRef])].filter((n) => sourceByNumber.has(n));
    }
    if (numbers.length === 0) {
      drop('cites no provided source');
      continue;
    }

    const id = entry ? entry.id : webItemId(title, jurisdiction);
    if (seen.has(id)) {
      drop(`duplicate of ${id}`);
      continue;
    }
    seen.add(id);
    const calendarDate = entry?.key_dates.find((k) => k.date === keyDate);
    const item: SnapshotItem = {
      id,
      title,
      jurisdiction,
      area,
      regulator: entry?.regulator ?? asText(record.regulator) ?? 'Not stated',
      instrument_type: entry?.instrument_type ?? asText(record.instrument_type)?.toLowerCase() ?? 'regulation',
      stage: asEnum(record.stage, STAGES) ?? entry?.stage ?? 'proposed',
      key_date: keyDate,
      date_confidence: asEnum(record.date_confidence, CONFIDENCES) ?? calendarDate?.confidence ?? 'speculative',
      impact: asEnum(record.impact, IMPACTS) ?? entry?.impact ?? 'medium',
      summary: ensureFinalStop(stripReferences(asText(record.summary) ?? entry?.summary ?? title)),
      implications: ensureFinalStop(
        stripReferences(asText(record.implications) ?? entry?.implications ?? 'Assess the impact on the firm.'),
      ),
      citations: [],
      verification: { status: 'unverified', passes: [] },
    };
    kept.push({ item, sourceNumbers: numbers, refs: [ref, rawTitle, id].filter((r): r is string => !!r), entry });
  }

  // Rank like the offline engine (impact, date, id), then number citations snapshot-wide in that order.
  kept.sort(
    (a, b) =>
      IMPACT_RANK[a.item.impact] - IMPACT_RANK[b.item.impact] ||
      a.item.key_date.localeCompare(b.item.key_date) ||
      a.item.id.localeCompare(b.item.id),
  );
  const citationBySource = new Map<number, number>();
  const citations = new Map<number, Citation>();
  for (const { item, sourceNumbers: numbers } of kept) {
    for (const n of numbers) {
      if (!citationBySource.has(n)) {
        const source = sourceByNumber.get(n)!;
        const id = citationBySource.size + 1;
        citationBySource.set(n, id);
        citations.set(id, { id, url: source.url, title: source.title, publisher: source.publisher, published_at: source.publishedAt });
      }
      item.citations.push({ ...citations.get(citationBySource.get(n)!)! });
    }
  }
  const refToId = new Map<string, string>();
  for (const { item, refs } of kept) for (const ref of refs) if (!refToId.has(ref.toLowerCase())) refToId.set(ref.toLowerCase(), item.id);
  const entryById = new Map<string, CalendarEntry>();
  for (const { item, entry } of kept) if (entry) entryById.set(item.id, entry);
  return { items: kept.map((k) => k.item), dropped, refToId, entryById, citationBySource };
}

function buildTrends(rawTrends: unknown[], refToId: Map<string, string>, items: readonly SnapshotItem[]): SnapshotTrend[] {
  const byId = new Map(items.map((i) => [i.id, i]));
  const trends: SnapshotTrend[] = [];
  const usedIds = new Set<string>();
  for (const value of rawTrends) {
    const record = asObject(value);
    const title = asText(record?.title);
    if (!record || !title) continue;
    const refs = asList(record.item_refs ?? record.item_ids ?? record.items).map(asText);
    const itemIds = [...new Set(refs.map((r) => (r ? refToId.get(r.toLowerCase()) : undefined)).filter((id): id is string => !!id))];
    if (itemIds.length === 0) continue;
    const members = itemIds.map((id) => byId.get(id)!);
    let id = `trend-${slugify(title) || 'untitled'}`;
    for (let n = 2; usedIds.has(id); n++) id = `trend-${slugify(title) || 'untitled'}-${n}`;
    usedIds.add(id);
    trends.push({
      id,
      title: stripReferences(title),
      description: stripReferences(asText(record.description) ?? ''),
      item_ids: itemIds,
      jurisdictions: [...new Set(members.map((m) => m.jurisdiction))],
      areas: [...new Set(members.map((m) => m.area))],
      momentum: asEnum(record.momentum, MOMENTA) ?? 'steady',
    });
  }
  return trends;
}

function withoutSentencesMentioning(text: string, mentions: (text: string) => boolean): string {
  return text
    .split(/\n{2,}/)
    .map((paragraph) =>
      paragraph
        .split(/(?<=[.!?])\s+(?=[A-Z0-9"“'])/)
        .filter((s) => !mentions(s))
        .join(' '),
    )
    .filter((p) => p.trim() !== '')
    .join('\n\n');
}

/* ------------------------------------------------------------------------------------------------------------ */
/* Verification of web-only items                                                                               */
/* ------------------------------------------------------------------------------------------------------------ */

/** Realist pass for an item with no calendar entry: date and stage plausibility by rule. */
export function webRealistPass(item: SnapshotItem, scanDate: string): PassOutcome {
  const checks: CheckDetail[] = [];
  const when = formatLongDate(item.key_date);
  checks.push(
    item.key_date < scanDate
      ? { check: 'key_date_upcoming', outcome: 'disputed', detail: `Key date ${when} had already passed on the scan date.` }
      : { check: 'key_date_upcoming', outcome: 'ok', detail: `Key date ${when} is on or after the scan date.` },
  );
  if (item.date_confidence === 'speculative') {
    checks.push({ check: 'date_firmness', outcome: 'unverified', detail: `The ${when} date is an estimate.` });
  } else if (item.date_confidence === 'expected' && !ADVANCED_STAGES.has(item.stage)) {
    checks.push({
      check: 'date_firmness',
      outcome: 'unverified',
      detail: `The ${when} date is planned for an instrument still at the ${item.stage.replace('_', ' ')} stage and may slip.`,
    });
  } else if (item.date_confidence === 'confirmed' && !ADVANCED_STAGES.has(item.stage)) {
    checks.push({
      check: 'stage_plausible',
      outcome: 'unverified',
      detail: `A confirmed date for an instrument that is still ${item.stage.replace('_', ' ')} needs checking.`,
    });
  } else {
    checks.push({ check: 'date_firmness', outcome: 'ok', detail: `The ${when} date is ${item.date_confidence}.` });
  }
  checks.push({
    check: 'calendar_corroboration',
    outcome: 'unverified',
    detail: 'The instrument is not in the curated calendar; it rests on web sources only.',
  });
  const status = checks.some((c) => c.outcome === 'disputed')
    ? 'disputed'
    : checks.some((c) => c.outcome === 'unverified')
      ? 'unverified'
      : 'verified';
  const note = checks
    .filter((c) => c.outcome === status)
    .map((c) => c.detail)
    .join(' ');
  return { pass: 'realist', status, note, checks };
}

/* ------------------------------------------------------------------------------------------------------------ */
/* Briefing and rule-built fallbacks                                                                            */
/* ------------------------------------------------------------------------------------------------------------ */

interface Facts {
  jurisdictions: string[];
  areas: string[];
  horizonMonths: number;
  scanDate: string;
  windowEnd: string;
  items: SnapshotItem[];
}

const BRIEFING_FIELDS = [
  'briefing_headline',
  'briefing_standfirst',
  'bottom_line_tight',
  'pull_quote',
  'sentiment_label',
  'sentiment_rationale',
] as const;

function toBriefing(raw: JsonObject, mentionsDropped: (text: string) => boolean): BriefingBlock | null {
  const out: Partial<Record<(typeof BRIEFING_FIELDS)[number], string>> = {};
  for (const field of BRIEFING_FIELDS) {
    const text = asText(raw[field]);
    if (!text || mentionsDropped(text)) return null;
    out[field] = stripReferences(text);
  }
  const priorities = asList(raw.priorities)
    .map(asText)
    .filter((p): p is string => !!p && /^\[[^\]]+\]\s*\S/.test(p) && !mentionsDropped(p))
    .map(stripReferences)
    .slice(0, MAX_PRIORITIES);
  return {
    briefing_headline: out.briefing_headline!,
    briefing_standfirst: out.briefing_standfirst!,
    priorities,
    bottom_line_tight: out.bottom_line_tight!,
    pull_quote: out.pull_quote!,
    sentiment_label: out.sentiment_label!.toLowerCase(),
    sentiment_rationale: out.sentiment_rationale!,
  };
}

function scope(f: Facts): string {
  return `${compactList(f.jurisdictions, 'jurisdiction', 3)} for ${compactList(f.areas, 'area', 3)}`;
}

function ruleSummary(f: Facts): ExecutiveSummary {
  if (f.items.length === 0) {
    return {
      bottom_line: `No supported instrument for ${scope(f)} has a key date between ${formatLongDate(f.scanDate)} and ${formatLongDate(f.windowEnd)}.`,
      priorities: [],
    };
  }
  const high = f.items.filter((i) => i.impact === 'high').length;
  const top = f.items[0];
  return {
    bottom_line:
      `${count(f.items.length, 'instrument')} for ${scope(f)} ${f.items.length === 1 ? 'falls' : 'fall'} due in the ${f.horizonMonths} months to ` +
      `${formatLongDate(f.windowEnd)}; ${high} ${high === 1 ? 'is' : 'are'} high impact. Top priority: ${shortName(top.title)} (${top.jurisdiction}), ` +
      `${formatLongDate(top.key_date)}.`,
    priorities: f.items
      .slice(0, MAX_PRIORITIES)
      .map((i) => `${shortName(i.title)} (${i.jurisdiction}), ${formatLongDate(i.key_date)} (${i.date_confidence}).`),
  };
}

function ruleNarrative(f: Facts): string {
  if (f.items.length === 0) {
    return (
      `No instrument supported by the calendar or the sources found matches ${scope(f)} with a key date between ` +
      `${formatLongDate(f.scanDate)} and ${formatLongDate(f.windowEnd)} (a ${f.horizonMonths}-month horizon). An empty result does not show ` +
      'that nothing is happening: widen the horizon or the areas.'
    );
  }
  const lines = f.items.slice(0, 5).map((i) => {
    const cite = i.citations[0] ? ` [[cite:${i.citations[0].id}]]` : '';
    return `${i.title} (${i.jurisdiction}, ${i.regulator}) falls due on ${formatLongDate(i.key_date)} (${i.date_confidence}).${cite}`;
  });
  return [ruleSummary(f).bottom_line, lines.join(' ')].join('\n\n');
}

function ruleBriefing(f: Facts): BriefingBlock {
  const items = f.items;
  if (items.length === 0) {
    return {
      briefing_headline: `No supported milestones for ${compactList(f.jurisdictions, 'jurisdiction', 3)} in the next ${f.horizonMonths} months`,
      briefing_standfirst: `Nothing found for ${scope(f)} falls due between ${formatShortDate(f.scanDate)} and ${formatShortDate(f.windowEnd)}.`,
      priorities: [],
      bottom_line_tight: 'Nothing falls due in this window.',
      pull_quote: 'No supported instrument matches this scan.',
      sentiment_label: 'quiet',
      sentiment_rationale: 'No supported instrument falls due in the window.',
    };
  }
  const high = items.filter((i) => i.impact === 'high').length;
  const confirmed = items.filter((i) => i.date_confidence === 'confirmed').length;
  const first = items.reduce((best, i) => (i.key_date < best.key_date ? i : best), items[0]);
  const top = items[0];
  const label = high >= 3 ? 'intensifying' : high === 0 ? 'easing' : 'steady';
  return {
    briefing_headline: `${truncate(shortName(top.title), 50)} heads ${count(items.length, 'milestone')} for ${compactList(f.jurisdictions, 'jurisdiction', 3)} over ${f.horizonMonths} months`,
    briefing_standfirst:
      `${count(items.length, 'instrument')} across ${compactList(f.areas, 'area', 3)} ${items.length === 1 ? 'falls' : 'fall'} due between ` +
      `${formatShortDate(f.scanDate)} and ${formatShortDate(f.windowEnd)}: ${high} high impact, ${confirmed} with confirmed dates.`,
    priorities: items
      .slice(0, MAX_PRIORITIES)
      .map((i) => `[${i.jurisdiction}] ${truncate(shortName(i.title), 40)}, ${formatShortDate(i.key_date)}`),
    bottom_line_tight: `${items.length} due by ${formatShortDate(f.windowEnd)}, ${high} high impact; first up: ${truncate(shortName(first.title), 40)} (${first.jurisdiction}) on ${formatShortDate(first.key_date)}.`,
    pull_quote: `${shortName(top.title)} (${top.jurisdiction}) leads, ${formatLongDate(top.key_date)}.`,
    sentiment_label: label,
    sentiment_rationale: `${label.charAt(0).toUpperCase()}${label.slice(1)}: ${high} of ${count(items.length, 'instrument')} high impact, ${confirmed} with confirmed dates.`,
  };
}

/* ------------------------------------------------------------------------------------------------------------ */

function isHttpUrl(url: string): boolean {
  try {
    const protocol = new URL(url).protocol;
    return protocol === 'https:' || protocol === 'http:';
  } catch {
    return false;
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname.replace(/^www\./, '');
  } catch {
    return url;
  }
}
