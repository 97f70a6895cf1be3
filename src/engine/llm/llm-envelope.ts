import type { ResolvedNames } from '../analysis/matching';
import { sentences } from '../analysis/text';
import type { AnalyseOutcome } from './analyse.phase';
import type { LlmAnalysisDeps, LlmAnalysisInput } from './llm-analysis.types';
import type { LlmRole } from './llm-session';
import type { ReadOutcome } from './read.phase';
import type { SearchOutcome } from './search.phase';
import type { SourceBook } from './source-book';
import type { SubEditOutcome } from './sub-edit.phase';
import type { VerifyOutcome } from './verify.phase';

export interface LlmEnvelopeParts {
  deps: LlmAnalysisDeps & { auditor: LlmRole; writer: LlmRole };
  input: LlmAnalysisInput;
  windowEnd: string;
  jurisdictions: ResolvedNames;
  areas: ResolvedNames;
  book: SourceBook;
  search: SearchOutcome;
  read: ReadOutcome;
  analysis: AnalyseOutcome;
  verification: VerifyOutcome;
  subEdit: SubEditOutcome;
  notes: readonly string[];
}

/** The snapshot envelope of an LLM run, with `_meta.llm` recording what each phase did and dropped. */
export function llmEnvelope(parts: LlmEnvelopeParts): Record<string, unknown> {
  const { deps, input, windowEnd, analysis, verification, subEdit, search, read } = parts;
  const { config, scanDate } = input;
  const { items, entryById, dropped } = analysis;
  const plain: Record<string, string> = {};
  for (const item of items) plain[item.id] = entryById.get(item.id)?.plain_summary ?? sentences(item.summary)[0] ?? item.summary;
  const droppedReasons: Record<string, number> = {};
  for (const d of dropped) {
    const reason = d.reason.replace(/ \(.*\)$/, '');
    droppedReasons[reason] = (droppedReasons[reason] ?? 0) + 1;
  }
  const { auditorError } = verification;
  return {
    items,
    trends: analysis.trends,
    executive_summary: analysis.executiveSummary,
    executive_narrative: analysis.narrative,
    _briefing: subEdit.briefing,
    auditor: verification.sidecar,
    _auditor_private: {
      engine_mode: 'llm',
      scan_date: scanDate,
      calendar_version: input.calendarVersion,
      passes: verification.passNames,
      auditor_model: config.auditor ? deps.auditor.modelId : null,
      ...(auditorError ? { auditor_error: auditorError } : {}),
      items: verification.diagnostics,
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
      verify_provider: verification.pages?.provider ?? null,
      writer_model: deps.writer.modelId,
      calendar_version: input.calendarVersion,
      scan_date: scanDate,
      horizon_months: config.horizon,
      window_end: windowEnd,
      matched_jurisdictions: parts.jurisdictions.ids,
      unmatched_jurisdictions: parts.jurisdictions.unmatched,
      matched_areas: parts.areas.ids,
      unmatched_areas: parts.areas.unmatched,
      candidates_count: input.candidates.length,
      sources_count: parts.book.sources.length,
      selected_count: items.length,
      dropped: { count: dropped.length, reasons: droppedReasons, items: dropped },
      llm: {
        dropped: { count: dropped.length, reasons: droppedReasons, items: dropped },
        analyst_attempts: analysis.attempts,
        search_queries: search.queries,
        web_sources: search.webSources.length,
        pages_read: read.pagesRead,
        ...(verification.pages
          ? {
              verify_pages: {
                read: verification.pages.read,
                unreachable: verification.pages.unreachable,
                not_read: verification.pages.notRead,
              },
            }
          : {}),
        omitted_candidates: input.candidates.map((c) => c.entry.id).filter((id) => !items.some((i) => i.id === id)),
        narrative: analysis.narrativeSource,
        briefing: subEdit.written ? 'writer' : 'rule',
        ...(subEdit.note ? { briefing_note: subEdit.note } : {}),
        ...(search.errors.length ? { search_errors: search.errors } : {}),
        ...(read.errors.length ? { read_errors: read.errors } : {}),
        ...(auditorError ? { auditor_error: auditorError } : {}),
        ...(verification.verifierErrors ? { verifier_errors: verification.verifierErrors } : {}),
        ...(parts.notes.length ? { notes: [...new Set(parts.notes)] } : {}),
      },
    },
  };
}
