import { EngineFailure } from '../../domain/failures';
import { ProviderTransientError } from '../../infra/providers/provider-errors';
import type { BriefingBlock } from '../envelope.types';
import type { LlmRole, LlmSession } from './llm-session';
import { asList, asText, type JsonObject, stripReferences } from './parse';
import { WRITER_SYSTEM, writerPrompt } from './prompts';
import { briefing as ruleBriefing, MAX_PRIORITIES, type ProseFacts } from '../analysis/prose';

export const WRITER_MAX_TOKENS = 2048;

export interface SubEditOutcome {
  /** The writer's briefing, or null when a rule-built one stands in. */
  written: BriefingBlock | null;
  briefing: BriefingBlock;
  note?: string;
  message: string;
}

/** The writer model drafts the briefing; a permanent failure or an unusable reply falls back to a rule-built one. */
export async function subEditPhase(
  session: LlmSession,
  writer: LlmRole,
  facts: ProseFacts,
  /** The jurisdictions and areas the writer is told about: resolved ids, or the names as requested. */
  scope: { jurisdictions: string[]; areas: string[] },
  bottomLine: string,
  mentionsDropped: (text: string) => boolean,
): Promise<SubEditOutcome> {
  let written: BriefingBlock | null = null;
  let note: string | undefined;
  const items = facts.prose.map((p) => p.item);
  if (items.length > 0) {
    try {
      const reply = await session.completeJson(
        writer,
        WRITER_SYSTEM,
        writerPrompt({
          jurisdictions: scope.jurisdictions,
          areas: scope.areas,
          horizonMonths: facts.horizonMonths,
          scanDate: facts.scanDate,
          windowEnd: facts.windowEnd,
          items,
          bottomLine,
        }),
        WRITER_MAX_TOKENS,
        false,
      );
      written = reply.value ? toBriefing(reply.value, mentionsDropped) : null;
      if (!written) note = 'the writer model returned no usable briefing; a rule-built briefing was used';
    } catch (error) {
      if (error instanceof ProviderTransientError || !(error instanceof EngineFailure)) throw error;
      note = `the writer model failed (${error.message}); a rule-built briefing was used`;
    }
  } else {
    note = 'no item to brief on; a rule-built briefing was used';
  }
  return {
    written,
    briefing: written ?? ruleBriefing(facts),
    ...(note ? { note } : {}),
    message: written ? 'Sub-edited the briefing' : 'Composed the briefing by rule',
  };
}

const BRIEFING_FIELDS = [
  'briefing_headline',
  'briefing_standfirst',
  'bottom_line_tight',
  'pull_quote',
  'sentiment_label',
  'sentiment_rationale',
] as const;

/** The writer's briefing block, or null when a field is missing or names a dropped item (exported for the council writer). */
export function toBriefing(raw: JsonObject, mentionsDropped: (text: string) => boolean): BriefingBlock | null {
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
