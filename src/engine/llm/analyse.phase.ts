import { EngineFailure } from '../../domain/failures';
import type { ResolvedScanConfig } from '../../domain/scan-config.types';
import type { ExecutiveSummary, SnapshotItem, SnapshotTrend } from '../envelope.types';
import type { ResolvedNames } from '../analysis/matching';
import type { SelectedEntry } from '../analysis/selection';
import { count, slugify } from '../analysis/text';
import { applyGuardrails, type Guarded } from './guardrails';
import type { LlmRole, LlmSession } from './llm-session';
import { asEnum, asList, asObject, asText, rewriteSourceReferences, stripReferences } from './parse';
import { ANALYST_SYSTEM, analystPrompt } from './prompts';
import { executiveSummary as ruleSummary, MAX_PRIORITIES, narrative as ruleNarrative, type ProseFacts } from '../analysis/prose';
import type { SourceBook } from './source-book';

export const ANALYST_MAX_TOKENS = 8192;

const MOMENTA: readonly SnapshotTrend['momentum'][] = ['rising', 'steady', 'fading'];

export interface AnalyseInput {
  config: ResolvedScanConfig;
  scanDate: string;
  windowEnd: string;
  candidates: readonly SelectedEntry[];
  jurisdictions: ResolvedNames;
  areas: ResolvedNames;
}

export interface AnalyseOutcome extends Guarded {
  attempts: number;
  trends: SnapshotTrend[];
  /** What rule-built prose is written from, here and in the sub-edit. */
  facts: ProseFacts;
  executiveSummary: ExecutiveSummary;
  narrative: string;
  /** Whether the narrative is the analyst's or built by rule. */
  narrativeSource: 'analyst' | 'rule';
  /** True for text that names an item the guardrails dropped: such text is not published. */
  mentionsDropped: (text: string) => boolean;
  message: string;
}

/**
 * The analyst model turns the candidates and sources into items, trends, a summary and a narrative; the
 * guardrails keep only what is grounded, and prose that names a dropped item is replaced by rule-built prose.
 */
export async function analysePhase(session: LlmSession, analyst: LlmRole, input: AnalyseInput, book: SourceBook): Promise<AnalyseOutcome> {
  const { config, scanDate, windowEnd } = input;
  const prompt = analystPrompt({
    jurisdictions: config.jurisdictions,
    areas: config.areas,
    horizonMonths: config.horizon,
    scanDate,
    windowEnd,
    candidates: input.candidates,
    candidateSources: book.candidateSources,
    sources: book.sources,
  });
  const analysis = await session.completeJson(analyst, ANALYST_SYSTEM, prompt, ANALYST_MAX_TOKENS, true);
  const raw = analysis.value;
  if (!raw || !Array.isArray(raw.items)) throw new EngineFailure('the analyst model returned no usable JSON');

  const guarded = applyGuardrails(raw, {
    candidates: input.candidates,
    sources: book.sources,
    scanDate,
    windowEnd,
    jurisdictionIds: input.jurisdictions.ids,
    jurisdictionNames: config.jurisdictions,
    areaIds: input.areas.ids,
    areaNames: config.areas,
  });
  const { items, dropped, refToId, citationBySource } = guarded;
  const trends = buildTrends(asList(raw.trends), refToId, items);
  const droppedTitles = dropped
    .map((d) => d.title)
    .filter((t): t is string => !!t && t.length >= 6 && !items.some((i) => i.title.toLowerCase() === t.toLowerCase()));
  const mentionsDropped = (text: string) => droppedTitles.some((t) => text.toLowerCase().includes(t.toLowerCase()));
  const citationIds = new Set(items.flatMap((i) => i.citations.map((c) => c.id)));

  const facts: ProseFacts = {
    scanDate,
    horizonMonths: config.horizon,
    windowEnd,
    source: { kind: 'llm' },
    jurisdictionIds: input.jurisdictions.ids,
    areaIds: input.areas.ids,
    unmatchedJurisdictions: input.jurisdictions.unmatched,
    unmatchedAreas: input.areas.unmatched,
    prose: items.map((item) => ({
      item,
      event: guarded.entryById.get(item.id)?.milestones.find((k) => k.date === item.key_date)?.event ?? 'Key date',
    })),
    trends,
    matchedCount: items.length,
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
  if (!narrative) narrative = ruleNarrative(facts, 0, []);
  const proposed = items.length + dropped.length;
  const message =
    `The analyst proposed ${count(proposed, 'item')}: kept ${items.length}${dropped.length ? `, the guardrails dropped ${dropped.length}` : ''}; ` +
    `grouped into ${count(trends.length, 'trend')}`;
  return { ...guarded, attempts: analysis.attempts, trends, facts, executiveSummary, narrative, narrativeSource, mentionsDropped, message };
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
