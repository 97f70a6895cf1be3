/**
 * The council on configured LLM vendors (docs/decisions.md, "Council with real seats"): two analyst seats run the
 * LLM analysis path independently and in parallel, a deterministic merge (council-merge.ts) reconciles their items,
 * and the writer composes the composite's summary, narrative and briefing from the merged items under the same
 * guardrails as other model prose, then writes its plain-English register. Three snapshots: the composite and one
 * per seat.
 *
 * A seat that fails fails the scan (a council is two seats): the other seat is aborted and the error names the
 * seat and its vendor. Transient provider errors stay transient, so the job is retried like any LLM scan.
 */
import { EngineFailure } from '../../domain/failures';
import type { ResolvedScanConfig } from '../../domain/scan-config.types';
import { ProviderTransientError } from '../../infra/providers/provider-errors';
import type { EngineOutput, EngineRunContext, EngineSnapshot } from '../engine.types';
import type { BriefingBlock, ExecutiveSummary, SnapshotItem, SnapshotTrend } from '../envelope.types';
import {
  briefing as ruleBriefing,
  executiveSummary as ruleSummary,
  MAX_PRIORITIES,
  narrative as ruleNarrative,
  type ProseFacts,
} from '../analysis/prose';
import type { SelectedEntry } from '../analysis/selection';
import { analyseWithLlm, type LlmAnalysisDeps, type LlmPhase } from '../llm/llm-analysis';
import type { Env } from '../../domain/vocabulary/models';
import { LlmSession } from '../llm/llm-session';
import { asList, asObject, asText, rewriteSourceReferences, stripReferences } from '../llm/parse';
import { simpleRegisterPhase } from '../llm/simple-register.phase';
import { toBriefing } from '../llm/sub-edit.phase';
import { type CouncilMerge, mergeSeats, type SeatName } from './council-merge';
import { COUNCIL_WRITER_SYSTEM, councilWriterPrompt } from './council-prompts';
import type { CouncilRole, CouncilSeating } from './council-seats';

export const COUNCIL_WRITER_MAX_TOKENS = 4096;

export interface LlmCouncilInput {
  ctx: EngineRunContext;
  seating: CouncilSeating;
  /** Search and page reads, as a standard LLM scan has them; each seat runs its own. */
  shared: Omit<LlmAnalysisDeps, 'analyst'>;
  config: ResolvedScanConfig;
  candidates: SelectedEntry[];
  calendarVersion: string;
  translate: (envelope: Record<string, unknown>) => Promise<string>;
  /** What the run cost before the council started (the plan phase). */
  planCost: () => number;
  title: (suffix: string) => string;
}

const SEAT_PERCENTS: Record<LlmPhase, number> = { search: 15, read: 25, analyse: 40, verify: 45, 'sub-edit': 50 };

const who = (role: CouncilRole) => `${role.provider} ${role.vendorModel}`;

export async function runLlmCouncil(input: LlmCouncilInput): Promise<EngineOutput> {
  const { ctx, seating, config } = input;
  const cents = { A: 0, B: 0, writer: 0, simple: 0 };
  const total = () => input.planCost() + cents.A + cents.B + cents.writer + cents.simple;
  let percent = 5;
  const advance = (phase: string, at: number, message: string) => {
    percent = Math.max(percent, at);
    return ctx.advance(phase, percent, message, total());
  };

  const abort = new AbortController();
  const runSeat = async (seat: SeatName, role: CouncilRole, writer: CouncilRole) => {
    // Errors of the scan itself (cancelled, cost ceiling) pass through unnamed; only the seat's own work is named.
    let scanError: unknown;
    try {
      const result = await analyseWithLlm(
        { ...input.shared, analyst: role, writer },
        { config, scanDate: ctx.scanDate, candidates: input.candidates, calendarVersion: input.calendarVersion },
        {
          phase: async (name, message, costSoFar) => {
            cents[seat] = costSoFar;
            await advance(name, SEAT_PERCENTS[name], `Seat ${seat}: ${message}`).catch((error: unknown) => {
              scanError = error;
              throw error;
            });
          },
        },
        abort.signal,
      );
      cents[seat] = result.costCents;
      await advance('analyse', 50, `Seat ${seat} (${who(role)}) analysed ${asList(result.envelope.items).length} item(s)`).catch(
        (error: unknown) => {
          scanError = error;
          throw error;
        },
      );
      return result.envelope;
    } catch (error) {
      if (!abort.signal.aborted) abort.abort();
      throw error === scanError ? error : seatError(seat, role, error);
    }
  };
  const [seatA, seatB] = await Promise.all([
    runSeat('A', seating.seats[0], seating.seatWriters[0]),
    runSeat('B', seating.seats[1], seating.seatWriters[1]),
  ]);

  const merged = mergeSeats(seatView(seatA), seatView(seatB));
  const { agreed, disputed, single_seat: singleSeat } = merged.counts;
  await advance('merge', 65, `Merged: ${agreed} agreed, ${disputed} disputed, ${singleSeat} single-seat`);

  const facts = proseFacts(seatA, merged, config, ctx.scanDate);
  const writing = await writeComposite(seating.writer, merged, facts, config, input.shared.catalogue);
  cents.writer = writing.costCents;
  await advance(
    'write',
    80,
    writing.source === 'writer'
      ? `The writer (${who(seating.writer)}) composed the briefing`
      : `The writer (${who(seating.writer)}) returned no usable briefing; it was composed by rule`,
  );

  const composite = compositeEnvelope(seatA, seatB, merged, writing, seating);
  const simple = await simpleRegisterPhase(seating.writer, composite, input.shared.catalogue);
  cents.simple = simple.costCents;
  await advance('write', 85, simple.message);
  await advance('translate', 90, await input.translate(composite));
  await advance('finalise', 97, 'Finalised the composite and seat snapshots');

  const seatSnapshots: EngineSnapshot[] = (
    [
      ['A', seatA],
      ['B', seatB],
    ] as const
  ).map(([seat, envelope], index) => ({
    kind: 'council_seat',
    seat: `seat-${seat.toLowerCase()}`,
    title: input.title(` — seat ${seat} (${seating.seats[index].provider})`),
    envelope: { ...envelope, _meta: { ...(envelope._meta as object), council_seat: `seat-${seat.toLowerCase()}` } },
  }));
  return {
    snapshots: [{ kind: 'council_composite', title: input.title(' — council'), envelope: composite }, ...seatSnapshots],
    costCents: total(),
  };
}

/** The seat's failure, naming the seat and its vendor; transient errors stay transient (the job is retried). */
function seatError(seat: SeatName, role: CouncilRole, error: unknown): unknown {
  const message = `Council seat ${seat} (${who(role)}) failed: ${error instanceof Error ? error.message : String(error)}`;
  if (error instanceof ProviderTransientError) return new ProviderTransientError(message, error.provider, error.status, error.retryAfterMs);
  if (error instanceof EngineFailure) return new EngineFailure(message);
  return error;
}

function seatView(envelope: Record<string, unknown>): { items: SnapshotItem[]; trends: SnapshotTrend[] } {
  return { items: asList(envelope.items) as SnapshotItem[], trends: asList(envelope.trends) as SnapshotTrend[] };
}

const strings = (value: unknown): string[] => asList(value).filter((v): v is string => typeof v === 'string');

function proseFacts(seatA: Record<string, unknown>, merged: CouncilMerge, config: ResolvedScanConfig, scanDate: string): ProseFacts {
  const meta = asObject(seatA._meta) ?? {};
  return {
    scanDate,
    horizonMonths: config.horizon,
    windowEnd: String(meta.window_end ?? scanDate),
    source: { kind: 'llm' },
    jurisdictionIds: strings(meta.matched_jurisdictions),
    areaIds: strings(meta.matched_areas),
    unmatchedJurisdictions: strings(meta.unmatched_jurisdictions),
    unmatchedAreas: strings(meta.unmatched_areas),
    prose: merged.items.map((item) => ({ item, event: item.milestone ?? 'Key date' })),
    trends: merged.trends,
    matchedCount: merged.items.length,
  };
}

interface CompositeWriting {
  source: 'writer' | 'rule';
  executiveSummary: ExecutiveSummary;
  narrative: string;
  briefing: BriefingBlock;
  note?: string;
  costCents: number;
}

/**
 * The writer's summary, narrative and briefing over the merged items. Sources are the composite's citations
 * (`[S<n>]` is citation n); the narrative keeps only references to them. Any unusable part is written by rule.
 */
async function writeComposite(
  writer: CouncilRole,
  merged: CouncilMerge,
  facts: ProseFacts,
  config: ResolvedScanConfig,
  catalogue: Env = {},
): Promise<CompositeWriting> {
  const session = new LlmSession(undefined, catalogue);
  const rule = () => ({ executiveSummary: ruleSummary(facts), narrative: ruleNarrative(facts, 0, []), briefing: ruleBriefing(facts) });
  if (merged.items.length === 0) return { source: 'rule', ...rule(), note: 'no item to brief on', costCents: 0 };
  let raw: Record<string, unknown> | null = null;
  let note: string | undefined;
  try {
    const reply = await session.completeJson(
      writer,
      COUNCIL_WRITER_SYSTEM,
      councilWriterPrompt({
        jurisdictions: facts.jurisdictionIds.length ? facts.jurisdictionIds : config.jurisdictions,
        areas: facts.areaIds.length ? facts.areaIds : config.areas,
        horizonMonths: config.horizon,
        scanDate: facts.scanDate,
        windowEnd: facts.windowEnd,
        items: merged.items,
      }),
      COUNCIL_WRITER_MAX_TOKENS,
      true,
    );
    raw = reply.value;
  } catch (error) {
    if (error instanceof ProviderTransientError || !(error instanceof EngineFailure)) throw error;
    note = `the writer model failed (${error.message})`;
  }
  const citationIds = new Set(merged.items.flatMap((i) => i.citations.map((c) => c.id)));
  const summaryRaw = asObject(raw?.executive_summary);
  const bottomLine = asText(summaryRaw?.bottom_line);
  const narrativeRaw = asText(raw?.executive_narrative);
  const narrative = narrativeRaw
    ? rewriteSourceReferences(
        narrativeRaw,
        (n) => (citationIds.has(n) ? n : undefined),
        (id) => citationIds.has(id),
      )
    : '';
  const briefingRaw = asObject(raw?.briefing);
  const briefing = briefingRaw ? toBriefing(briefingRaw, () => false) : null;
  if (!bottomLine || !narrative || !briefing) {
    return { source: 'rule', ...rule(), note: note ?? 'the writer model returned no usable briefing', costCents: session.cost };
  }
  return {
    source: 'writer',
    executiveSummary: {
      bottom_line: stripReferences(bottomLine),
      priorities: asList(summaryRaw?.priorities)
        .map(asText)
        .filter((p): p is string => !!p)
        .map(stripReferences)
        .slice(0, MAX_PRIORITIES),
    },
    narrative,
    briefing,
    costCents: session.cost,
  };
}

/** Seat A's scan facts with the merged items and the writer's prose; `_meta.council` records the seats and the merge. */
function compositeEnvelope(
  seatA: Record<string, unknown>,
  seatB: Record<string, unknown>,
  merged: CouncilMerge,
  writing: CompositeWriting,
  seating: CouncilSeating,
): Record<string, unknown> {
  const meta = asObject(seatA._meta) ?? {};
  // Plain-language summaries (the rule-built simple register's source) from the seat the item's prose comes from.
  const plain: Record<string, string> = {};
  for (const item of merged.items) {
    const seatPlain = asObject((item.council.seats[0] === 'A' ? seatA : seatB)._plain) ?? {};
    if (typeof seatPlain[item.id] === 'string') plain[item.id] = seatPlain[item.id] as string;
  }
  const flagged = merged.items.filter((i) => i.council.agreement === 'disputed').map((i) => i.id);
  const role = ({ provider, modelId, vendorModel }: CouncilRole) => ({ provider, model: modelId, vendor_model: vendorModel });
  // Seat A's own analysis record stays on its seat snapshot.
  const common: Record<string, unknown> = { ...meta };
  for (const key of ['llm', 'analyst_model', 'dropped', 'lens']) delete common[key];
  return {
    items: merged.items,
    trends: merged.trends,
    executive_summary: writing.executiveSummary,
    executive_narrative: writing.narrative,
    _briefing: writing.briefing,
    auditor: { ran: false, passes: [], verified_count: 0, flagged_item_ids: [] },
    translations: {},
    _plain: plain,
    _meta: {
      ...common,
      engine_mode: 'llm',
      selected_count: merged.items.length,
      writer_model: seating.writer.modelId,
      council: {
        mode: 'llm',
        seats: seating.seats.map((seat, index) => ({ seat: index === 0 ? 'A' : 'B', ...role(seat) })),
        same_vendor: seating.seats[0].provider === seating.seats[1].provider,
        writer: { ...role(seating.writer), briefing: writing.source, ...(writing.note ? { note: writing.note } : {}) },
        merge: {
          ...merged.counts,
          disputed_item_ids: flagged,
          rule: 'items matched by id; disputed fields take the earlier key date, higher impact, lower date confidence and earlier stage',
        },
      },
    },
  };
}
