/**
 * LLM-backed analysis: the search, read, analyse, verify and sub-edit phases run over the provider ports when the
 * resolved analyst model belongs to a configured real provider.
 * Each phase is its own file; the model's output passes the guardrails (guardrails.ts) before anything is kept,
 * and rule-built prose (../analysis/prose.ts) stands in where a model's is unusable.
 *
 * Transient provider errors (ProviderTransientError) propagate so that the job is retried; permanent ones are
 * EngineFailure.
 */
import { resolveAreas, resolveJurisdictions } from '../analysis/matching';
import { windowEnd as computeWindowEnd } from '../analysis/selection';
import { analysePhase } from './analyse.phase';
import { llmEnvelope } from './llm-envelope';
import { LlmSession } from './llm-session';
import { readPhase } from './read.phase';
import { searchPhase } from './search.phase';
import { SourceBook } from './source-book';
import { subEditPhase } from './sub-edit.phase';
import { verifyPhase } from './verify.phase';

import type { LlmAnalysisDeps, LlmAnalysisHooks, LlmAnalysisInput, LlmAnalysisResult } from './llm-analysis.types';

export type { LlmAnalysisDeps, LlmAnalysisHooks, LlmAnalysisInput, LlmAnalysisResult, LlmPhase } from './llm-analysis.types';
export type { LlmRole } from './llm-session';
export { webItemId } from './guardrails';

export async function analyseWithLlm(
  deps: LlmAnalysisDeps,
  input: LlmAnalysisInput,
  hooks: LlmAnalysisHooks,
  signal?: AbortSignal,
): Promise<LlmAnalysisResult> {
  const { config, scanDate } = input;
  const windowEnd = computeWindowEnd(scanDate, config.horizon);
  const jurisdictions = resolveJurisdictions(config.jurisdictions);
  const areas = resolveAreas(config.areas);
  const session = new LlmSession(signal, deps.catalogue);
  const book = new SourceBook(input.candidates);

  const search = await searchPhase(session, deps.search, config, { scanDate, windowEnd }, book);
  await hooks.phase('search', search.message, session.cost);
  const read = await readPhase(deps.fetch, search.webSources, signal);
  await hooks.phase('read', read.message, session.cost);
  const analysis = await analysePhase(
    session,
    deps.analyst,
    { config, scanDate, windowEnd, candidates: input.candidates, jurisdictions, areas },
    book,
  );
  await hooks.phase('analyse', analysis.message, session.cost);
  const auditor = deps.auditor ?? deps.analyst;
  const verification = await verifyPhase(
    session,
    { realist: deps.analyst, auditor, pages: deps.verifyFetch },
    config,
    scanDate,
    analysis.items,
    analysis.entryById,
    book.sources,
  );
  await hooks.phase('verify', verification.message, session.cost);
  const writer = deps.writer ?? deps.analyst;
  const scope = {
    jurisdictions: jurisdictions.ids.length ? jurisdictions.ids : config.jurisdictions,
    areas: areas.ids.length ? areas.ids : config.areas,
  };
  const subEdit = await subEditPhase(
    session,
    writer,
    analysis.facts,
    scope,
    analysis.executiveSummary.bottom_line,
    analysis.mentionsDropped,
  );
  await hooks.phase('sub-edit', subEdit.message, session.cost);

  const envelope = llmEnvelope({
    deps: { ...deps, auditor, writer },
    input,
    windowEnd,
    jurisdictions,
    areas,
    book,
    search,
    read,
    analysis,
    verification,
    subEdit,
    notes: session.notes,
  });
  return { envelope, costCents: session.cost };
}
