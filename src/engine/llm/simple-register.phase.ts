/**
 * The `simple` register written by the LLM writer at scan time (../shared/spec/decisions.md C3; docs/decisions.md,
 * "Council with real seats and the writer's simple register").
 *
 * The writer rewrites the item summaries and implications, the executive summary, the narrative and (when the
 * snapshot has one) the briefing block in plain English; trend descriptions stay rule-built (counts and dates).
 * Its reply is kept only when it passes the guardrails below, as the private envelope key `_simple`
 * (SIMPLE_REGISTER_KEY); `?language=simple` and exports with targetLanguage `simple` project it over the rule-built
 * register (src/modules/snapshots/language-projection.ts). `_meta.simple_register` says which register the snapshot
 * has: `{source: 'writer', writer_model}` or `{source: 'rule', reason}`.
 *
 * Guardrails (any breach discards the whole reply): every item of the snapshot and no other, each with a summary
 * and implications inside their length bounds; a bottom line, at most MAX_PRIORITIES priorities and a narrative
 * inside theirs; a complete briefing block when the snapshot has one (its sentiment label stays the English one); no number that the English prose, titles and dates do not already hold (no new dates, amounts or
 * counts); citation markers `[[cite:N]]` only for citations the snapshot has, and at least one kept when the English
 * narrative has any. Item fields carry no markers.
 */
import { EngineFailure } from '../../domain/failures';
import type { Env } from '../../domain/vocabulary/models';
import { ProviderTransientError } from '../../infra/providers/provider-errors';
import type { BriefingBlock, ExecutiveSummary } from '../envelope.types';
import { MAX_PRIORITIES } from '../analysis/prose';
import { LlmSession, type LlmRole } from './llm-session';
import { asList, asObject, asText, type JsonObject, stripReferences } from './parse';
import { toBriefing } from './sub-edit.phase';

export const SIMPLE_REGISTER_KEY = '_simple';
export const SIMPLE_REGISTER_MAX_TOKENS = 4096;

const LIMITS = { summary: 600, implications: 400, bottomLine: 400, priority: 200, narrative: 4000, briefingField: 400 } as const;

const BRIEFING_TEXT_FIELDS = [
  'briefing_headline',
  'briefing_standfirst',
  'bottom_line_tight',
  'pull_quote',
  'sentiment_rationale',
] as const;

/** `_simple`: the writer's plain-English prose, by item id. */
export interface StoredSimpleRegister {
  items: Array<{ id: string; summary: string; implications: string }>;
  executive_summary: ExecutiveSummary;
  executive_narrative: string;
  _briefing?: BriefingBlock;
}

export const SIMPLE_REGISTER_SYSTEM =
  'You are a plain-English editor. You rewrite a regulatory briefing for readers who are not specialists: short sentences, ' +
  'everyday words, one fact per sentence, dates written out in full. You keep every fact as it is and add none: no new ' +
  'dates, numbers, names or claims. Reply with JSON only.';

interface RegisterItem {
  id: string;
  title: string;
  jurisdiction: string;
  key_date: string;
  date_confidence: string;
  summary: string;
  implications: string;
  milestone?: string;
  citations: Array<{ id: number }>;
}

const str = (value: unknown): string => (typeof value === 'string' ? value : '');

function itemsOf(envelope: Record<string, unknown>): RegisterItem[] {
  return asList(envelope.items)
    .map(asObject)
    .filter((item): item is JsonObject => !!item && typeof item.id === 'string')
    .map((item) => ({
      id: str(item.id),
      title: str(item.title),
      jurisdiction: str(item.jurisdiction),
      key_date: str(item.key_date),
      date_confidence: str(item.date_confidence),
      summary: str(item.summary),
      implications: str(item.implications),
      milestone: str(item.milestone),
      citations: asList(item.citations)
        .map(asObject)
        .filter((c): c is JsonObject => !!c && typeof c.id === 'number')
        .map((c) => ({ id: c.id as number })),
    }));
}

function line(value: string): string {
  return value.replace(/\s+/g, ' ').trim();
}

export function simpleRegisterPrompt(envelope: Record<string, unknown>): string {
  const plain = asObject(envelope._plain) ?? {};
  const summary = asObject(envelope.executive_summary);
  const briefing = asObject(envelope._briefing);
  const parts = ['Items:'];
  for (const item of itemsOf(envelope)) {
    parts.push(
      `- id ${item.id}: ${line(item.title)} | ${item.jurisdiction} | key date ${item.key_date} (${item.date_confidence})${item.milestone ? `: ${line(item.milestone)}` : ''}`,
      `  summary: ${line(item.summary)}`,
      `  implications: ${line(item.implications)}`,
      ...(typeof plain[item.id] === 'string' ? [`  plain summary: ${line(plain[item.id] as string)}`] : []),
    );
  }
  parts.push(
    '',
    `Bottom line: ${line(str(summary?.bottom_line))}`,
    `Priorities: ${asList(summary?.priorities).map(str).map(line).join(' / ')}`,
    '',
    'Narrative (keep each [[cite:N]] marker after the sentence it supports; use no other marker):',
    str(envelope.executive_narrative),
    '',
    ...(briefing
      ? [
          '',
          `Briefing: headline ${line(str(briefing.briefing_headline))} | standfirst ${line(str(briefing.briefing_standfirst))} | ` +
            `priorities ${asList(briefing.priorities).map(str).map(line).join(' / ')} | bottom line ${line(str(briefing.bottom_line_tight))} | ` +
            `pull quote ${line(str(briefing.pull_quote))} | sentiment ${str(briefing.sentiment_label)}: ${line(str(briefing.sentiment_rationale))}`,
        ]
      : []),
    '',
    'Rewrite all of this in plain English. Keep every item, by its id. Add no fact, date or number that is not above.',
    'Return JSON: {"items": [{"id": "<item id>", "summary": "2-3 short sentences", "implications": "1-2 short sentences"}], ' +
      '"executive_summary": {"bottom_line": "1-2 short sentences", "priorities": ["up to 5 short lines"]}, ' +
      '"executive_narrative": "2-3 short paragraphs with the [[cite:N]] markers kept"' +
      (briefing
        ? ', "briefing": {"briefing_headline": "<= 110 chars", "briefing_standfirst": "1-2 short sentences", "priorities": ' +
          '["up to 5 short labels, each starting with a jurisdiction tag such as [EU]"], "bottom_line_tight": "one short sentence", ' +
          '"pull_quote": "one short sentence", "sentiment_label": "the same label as above", "sentiment_rationale": "one short sentence"}}'
        : '}'),
  );
  return parts.join('\n');
}

/** Digit runs without leading zeros ("2026-07-01" holds 2026, 7 and 1). */
function numbersIn(text: string): string[] {
  return [...text.replace(/\[\[cite:\d+\]\]/g, '').matchAll(/\d+/g)].map((m) => String(Number(m[0])));
}

function sourceNumbers(envelope: Record<string, unknown>, items: readonly RegisterItem[]): Set<string> {
  const plain = Object.values(asObject(envelope._plain) ?? {}).map(str);
  const summary = asObject(envelope.executive_summary);
  const meta = asObject(envelope._meta);
  const briefing = asObject(envelope._briefing) ?? {};
  const texts = [
    ...Object.values(briefing).flatMap((v) => (Array.isArray(v) ? v.map(str) : [str(v)])),
    ...items.flatMap((i) => [i.title, i.summary, i.implications, i.key_date, i.milestone ?? '', i.jurisdiction]),
    ...plain,
    str(summary?.bottom_line),
    ...asList(summary?.priorities).map(str),
    str(envelope.executive_narrative),
    String(meta?.horizon_months ?? ''),
    str(meta?.scan_date),
    str(meta?.window_end),
    String(items.length),
  ];
  return new Set(texts.flatMap(numbersIn));
}

/** The writer's reply as a StoredSimpleRegister, or why it cannot be kept. */
export function guardSimpleRegister(
  raw: JsonObject | null,
  envelope: Record<string, unknown>,
): { register: StoredSimpleRegister } | { reason: string } {
  if (!raw) return { reason: 'returned no usable JSON' };
  const items = itemsOf(envelope);
  const wanted = new Set(items.map((i) => i.id));
  const written = new Map<string, { summary: string; implications: string }>();
  for (const value of asList(raw.items)) {
    const record = asObject(value);
    const id = asText(record?.id);
    if (!id || !wanted.has(id)) return { reason: `named an item the snapshot does not have (${id ?? 'no id'})` };
    const summary = asText(record?.summary);
    const implications = asText(record?.implications) ?? '';
    if (!summary || summary.length > LIMITS.summary) return { reason: `wrote no summary, or one too long, for ${id}` };
    if (implications.length > LIMITS.implications) return { reason: `wrote implications too long for ${id}` };
    written.set(id, { summary: stripReferences(summary), implications: stripReferences(implications) });
  }
  const missing = items.find((i) => !written.has(i.id));
  if (missing) return { reason: `left out item ${missing.id}` };

  const summaryRaw = asObject(raw.executive_summary);
  const bottomLine = asText(summaryRaw?.bottom_line);
  if (!bottomLine || bottomLine.length > LIMITS.bottomLine) return { reason: 'wrote no bottom line, or one too long' };
  const priorities = asList(summaryRaw?.priorities).map(asText);
  if (priorities.length > MAX_PRIORITIES || priorities.some((p) => !p || p.length > LIMITS.priority))
    return { reason: `wrote more than ${MAX_PRIORITIES} priorities, or an empty or long one` };
  const narrative = asText(raw.executive_narrative);
  if (!narrative || narrative.length > LIMITS.narrative) return { reason: 'wrote no narrative, or one too long' };

  const citationIds = new Set(items.flatMap((i) => i.citations.map((c) => c.id)));
  const markers = [...narrative.matchAll(/\[\[cite:(\d+)\]\]/g)].map((m) => Number(m[1]));
  const foreign = markers.find((id) => !citationIds.has(id));
  if (foreign !== undefined) return { reason: `cited [[cite:${foreign}]], which the snapshot does not have` };
  if (/\[\[cite:\d+\]\]/.test(str(envelope.executive_narrative)) && markers.length === 0)
    return { reason: 'dropped every citation marker of the narrative' };

  let briefing: BriefingBlock | undefined;
  const englishBriefing = asObject(envelope._briefing);
  if (englishBriefing) {
    const written = asObject(raw.briefing);
    const block = written ? toBriefing(written, () => false) : null;
    if (!block || BRIEFING_TEXT_FIELDS.some((field) => block[field].length > LIMITS.briefingField) || block.priorities.length === 0)
      return { reason: 'wrote no usable briefing block' };
    briefing = { ...block, sentiment_label: str(englishBriefing.sentiment_label) || block.sentiment_label };
  }

  const allowed = sourceNumbers(envelope, items);
  const prose = [
    ...(briefing ? [...BRIEFING_TEXT_FIELDS.map((field) => briefing[field]), ...briefing.priorities] : []),
    ...[...written.values()].flatMap((w) => [w.summary, w.implications]),
    bottomLine,
    ...(priorities as string[]),
    narrative,
  ];
  const invented = prose.flatMap(numbersIn).find((n) => !allowed.has(n));
  if (invented !== undefined) return { reason: `introduced a number the snapshot does not hold (${invented})` };

  return {
    register: {
      items: items.map((i) => ({ id: i.id, ...written.get(i.id)! })),
      executive_summary: { bottom_line: stripReferences(bottomLine), priorities: (priorities as string[]).map(stripReferences) },
      executive_narrative: narrative.trim(),
      ...(briefing ? { _briefing: briefing } : {}),
    },
  };
}

/**
 * Asks `writer` for the plain-English register of `envelope` and stores it (or the reason it was not kept) on the
 * envelope. A transient provider error retries the scan, like every other phase; a permanent one keeps the
 * rule-built register. Returns what the writer cost.
 */
export async function simpleRegisterPhase(
  writer: LlmRole,
  envelope: Record<string, unknown>,
  catalogue: Env = {},
  signal?: AbortSignal,
): Promise<{ costCents: number; message: string }> {
  const session = new LlmSession(signal, catalogue);
  const meta = () => (asObject(envelope._meta) ?? {}) as JsonObject;
  const useRule = (reason: string) => {
    envelope._meta = { ...meta(), simple_register: { source: 'rule', reason } };
    return { costCents: session.cost, message: 'Kept the rule-built plain-English register' };
  };
  if (itemsOf(envelope).length === 0) return useRule('no item to rewrite');
  let reply: JsonObject | null;
  try {
    reply = (await session.completeJson(writer, SIMPLE_REGISTER_SYSTEM, simpleRegisterPrompt(envelope), SIMPLE_REGISTER_MAX_TOKENS, false))
      .value;
  } catch (error) {
    if (error instanceof ProviderTransientError || !(error instanceof EngineFailure)) throw error;
    return useRule(`the writer model failed (${error.message})`);
  }
  const guarded = guardSimpleRegister(reply, envelope);
  if ('reason' in guarded) return useRule(`the writer's plain register ${guarded.reason}`);
  envelope[SIMPLE_REGISTER_KEY] = guarded.register;
  envelope._meta = { ...meta(), simple_register: { source: 'writer', writer_model: writer.modelId } };
  return { costCents: session.cost, message: 'The writer wrote the plain-English register' };
}
