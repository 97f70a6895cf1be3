/** Every engine a scan may name; ENGINES below describes each (an engine is added in both places). */
export const ENGINE_IDS = ['v4', 'v4.5-alpha', 'v4.5-beta', 'council'] as const;
export type EngineId = (typeof ENGINE_IDS)[number];

/** Phase names as they appear in progress events. */
export type EnginePhase = 'plan' | 'search' | 'read' | 'analyse' | 'verify' | 'merge' | 'sub-edit' | 'write' | 'translate' | 'finalise';

export interface EnginePass {
  id: string;
  phase: EnginePhase;
  label: string;
  /** Runs only when the scan config asks for it (realist/auditor flags, translationLanguages). */
  optional: boolean;
  description: string;
}

export interface Engine {
  id: EngineId;
  label: string;
  description: string;
  /** Whether GET /v1/meta/engines lists it; council is accepted but unlisted (decision C4). */
  listed: boolean;
  /** The engine itself makes a config verifier-aware, whatever the realist/auditor flags say. */
  verifierAware: boolean;
  /** verificationMode / realist / auditor are allowed (spec constraint rule 1). */
  acceptsVerificationFlags: boolean;
  /** fetchProvider / searchProvider are allowed. */
  acceptsProviderSelection: boolean;
  /** Council seats use fixed models, so `model` may only be omitted or this tier. */
  fixedModel: 'large' | null;
  passes: readonly EnginePass[];
}

export const HORIZONS = [3, 6, 12, 18, 24, 36] as const;
export type Horizon = (typeof HORIZONS)[number];

export const DEFAULT_ENGINE: EngineId = 'v4';
export const RETIRED_ENGINES = ['v1', 'v2', 'v3', 'admiral'] as const;

const PLAN: EnginePass = { id: 'plan', phase: 'plan', label: 'Plan', optional: false, description: 'Turns jurisdictions, areas and horizon into a research plan of queries per regulator.' };
const SEARCH: EnginePass = { id: 'search', phase: 'search', label: 'Search', optional: false, description: 'Runs the planned queries through the search backend with the search model.' };
const READ: EnginePass = { id: 'read', phase: 'read', label: 'Read', optional: false, description: 'Fetches and reads the primary sources found by the search pass.' };
const REALIST: EnginePass = { id: 'realist', phase: 'verify', label: 'Realist pass', optional: true, description: 'Challenges dates and stages against what regulators have actually published.' };
const AUDITOR: EnginePass = { id: 'auditor', phase: 'verify', label: 'Auditor pass', optional: true, description: 'Checks every item against its citations and flags unsupported claims.' };
const SUB_EDIT: EnginePass = { id: 'sub-edit', phase: 'sub-edit', label: 'Sub-edit', optional: false, description: 'Writes the briefing block: headline, standfirst, priorities, bottom line.' };
const TRANSLATE: EnginePass = { id: 'translate', phase: 'translate', label: 'Translate', optional: true, description: 'Translates the snapshot into the requested translationLanguages.' };
const FINALISE: EnginePass = { id: 'finalise', phase: 'finalise', label: 'Finalise', optional: false, description: 'Final QA (including event verification reads), then persists the snapshot.' };

export const ENGINES: readonly Engine[] = [
  {
    id: 'v4',
    label: 'v4',
    description: 'Default engine: plan, search, read, analyse, optional realist and auditor verification passes, sub-edit, translate and finalise.',
    listed: true,
    verifierAware: false,
    acceptsVerificationFlags: true,
    acceptsProviderSelection: false,
    fixedModel: null,
    passes: [
      PLAN,
      SEARCH,
      READ,
      { id: 'analyse', phase: 'analyse', label: 'Analyse', optional: false, description: 'The analyst model extracts regulatory items, dates and impact, and derives trends.' },
      REALIST,
      AUDITOR,
      SUB_EDIT,
      TRANSLATE,
      FINALISE,
    ],
  },
  {
    id: 'v4.5-alpha',
    label: 'v4.5 alpha',
    description: 'v4 with verifier-aware analysis: the analyst writes items so the realist and auditor passes can check each claim against its citation.',
    listed: true,
    verifierAware: true,
    acceptsVerificationFlags: true,
    acceptsProviderSelection: false,
    fixedModel: null,
    passes: [
      PLAN,
      SEARCH,
      READ,
      { id: 'analyse', phase: 'analyse', label: 'Verifier-aware analysis', optional: false, description: 'The analyst ties every date and stage to a citation so the verification passes can check it.' },
      REALIST,
      AUDITOR,
      SUB_EDIT,
      TRANSLATE,
      FINALISE,
    ],
  },
  {
    id: 'v4.5-beta',
    label: 'v4.5 beta',
    description: 'v4.5 alpha plus pluggable search and page-fetch providers (searchProvider, fetchProvider).',
    listed: true,
    verifierAware: true,
    acceptsVerificationFlags: true,
    acceptsProviderSelection: true,
    fixedModel: null,
    passes: [
      PLAN,
      { ...SEARCH, description: 'Runs the planned queries through the selected search provider (searchProvider).' },
      { ...READ, description: 'Reads the primary sources through the selected page-fetch provider (fetchProvider).' },
      { id: 'analyse', phase: 'analyse', label: 'Verifier-aware analysis', optional: false, description: 'The analyst ties every date and stage to a citation so the verification passes can check it.' },
      REALIST,
      AUDITOR,
      SUB_EDIT,
      TRANSLATE,
      FINALISE,
    ],
  },
  {
    id: 'council',
    label: 'Council',
    description: 'Two fixed analyst seats analyse in parallel, a deterministic merge reconciles them and a writer composes one briefing. Takes about 15 minutes; use mode=async.',
    listed: false,
    verifierAware: false,
    acceptsVerificationFlags: false,
    acceptsProviderSelection: false,
    fixedModel: 'large',
    passes: [
      PLAN,
      SEARCH,
      READ,
      { id: 'seat-a', phase: 'analyse', label: 'Analyst seat A', optional: false, description: 'First fixed analyst seat; runs in parallel with seat B and is stored as a seat snapshot.' },
      { id: 'seat-b', phase: 'analyse', label: 'Analyst seat B', optional: false, description: 'Second fixed analyst seat; runs in parallel with seat A and is stored as a seat snapshot.' },
      { id: 'merge', phase: 'merge', label: 'Merge', optional: false, description: 'Deterministically merges both seats: same item ids collapse, disagreements are kept with both views.' },
      { id: 'write', phase: 'write', label: 'Writer', optional: false, description: 'Composes one briefing over the merged items; stored as the composite snapshot.' },
      TRANSLATE,
      FINALISE,
    ],
  },
];

export function findEngine(id: string): Engine | undefined {
  return ENGINES.find((engine) => engine.id === id);
}

export function isRetiredEngine(id: string): boolean {
  return (RETIRED_ENGINES as readonly string[]).includes(id);
}

export function isHorizon(value: unknown): value is Horizon {
  return typeof value === 'number' && (HORIZONS as readonly number[]).includes(value);
}

/** Spec constraint rule 2: the engine, or v4 with a verification pass switched on. */
export function isVerifierAwareConfig(config: { engine?: string; verificationMode?: string; realist?: boolean; auditor?: boolean }): boolean {
  const engine = findEngine(config.engine ?? DEFAULT_ENGINE);
  if (!engine) return false;
  if (engine.verifierAware) return true;
  // verificationMode only fills in the flags the caller left unset.
  const impliedByMode = config.verificationMode !== undefined;
  const realist = config.realist ?? impliedByMode;
  const auditor = config.auditor ?? impliedByMode;
  return engine.id === 'v4' && (realist || auditor);
}

/** Body of GET /v1/meta/engines. */
export function listPublicEngines(): { data: { id: string; label: string; description: string }[]; horizons: number[] } {
  return {
    data: ENGINES.filter((engine) => engine.listed).map(({ id, label, description }) => ({ id, label, description })),
    horizons: [...HORIZONS],
  };
}
