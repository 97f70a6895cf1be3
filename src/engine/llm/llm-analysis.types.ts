import type { ResolvedScanConfig } from '../../domain/scan-config.types';
import type { Env } from '../../domain/vocabulary/models';
import type { FetchPort } from '../../infra/providers/ports';
import type { SelectedEntry } from '../analysis/selection';
import type { LlmRole } from './llm-session';
import type { SearchRole } from './search.phase';

export interface LlmAnalysisDeps {
  analyst: LlmRole;
  search?: SearchRole;
  fetch?: FetchPort;
  /**
   * The scan's verifyProvider: the final QA stage reads the items' cited pages through it, and the realist and
   * auditor passes judge the page text. Without it the passes use rules and the snippets the analysis had.
   */
  verifyFetch?: FetchPort;
  /** Used when the auditor pass runs; defaults to the analyst. */
  auditor?: LlmRole;
  /** Sub-editor; defaults to the analyst. */
  writer?: LlmRole;
  /** The deployment's catalogue settings (as resolveModel takes them), for the prices of self-hosted models. */
  catalogue?: Env;
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
