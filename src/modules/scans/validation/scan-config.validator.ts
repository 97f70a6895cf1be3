import type { FieldError } from '../../../common/errors/api-error';
import { readRequestBody } from '../../../common/validation/request-body';
import { longerThan } from '../../../common/validation/char-count';
import { isStorableText, unstorableTextMessage } from '../../../common/validation/storable-text';
import { DEFAULT_ENGINE, EngineId, ENGINES, findEngine, HORIZONS, isHorizon, isRetiredEngine, isVerifierAwareConfig } from '../../../domain/vocabulary/engines';
import { isKnownModel, PROVIDER_KEYS, resolveModel } from '../../../domain/vocabulary/models';
import type { ResolvedScanConfig, ScanConfigDefaults } from '../../../domain/scan-config.types';

export const MAX_LIST_ENTRIES = 20;
export const MAX_JURISDICTION_LENGTH = 100;
export const MAX_AREA_LENGTH = 200;
/** The spec puts no maximum on estimate lists; the estimator only counts entries, and a scan takes 20 at most. */
export const MAX_ESTIMATE_LIST_ENTRIES = 100;
/** translationLanguages is not validated against the vocabulary (spec), only bounded: 7 codes are supported. */
export const MAX_TRANSLATION_LANGUAGES = 20;
/** Longest BCP 47 tag in common use (RFC 5646 section 4.4.1 recommends supporting 35). */
export const MAX_LANGUAGE_CODE_LENGTH = 35;

export const SCAN_CONFIG_FIELDS = [
  'jurisdictions',
  'areas',
  'horizon',
  'engine',
  'model',
  'searchModel',
  'verificationMode',
  'realist',
  'auditor',
  'auditorModel',
  'fetchProvider',
  'searchProvider',
  'verifyProvider',
  'translationLanguages',
] as const;

export const ESTIMATE_REQUEST_FIELDS = [
  'jurisdictions',
  'areas',
  'horizon',
  'engine',
  'seekerProvider',
  'analystProvider',
  'translatorProvider',
] as const;

const VERIFICATION_MODES = ['in-analyst'] as const;
const AUDITOR_MODELS = ['medium'] as const;
const FETCH_PROVIDERS = ['fetch-a', 'fetch-b'] as const;
const SEARCH_PROVIDERS = ['search-a', 'search-b'] as const;
const VERIFY_PROVIDERS = ['fetch-b', 'fetch-a'] as const;
/** Engines that take verificationMode / realist / auditor (spec constraint rule 1). */
const VERIFICATION_ENGINES: readonly EngineId[] = ENGINES.filter((engine) => engine.acceptsVerificationFlags).map((engine) => engine.id);
const PROVIDER_SELECTION_ENGINE: EngineId = 'v4.5-beta';

export interface CouncilModelFixed {
  code: 'council_model_fixed';
  detail: string;
}

export interface ScanConfigValidationResult {
  /** Non-empty means 422 `validation_error`; field errors win over `topLevel`. */
  errors: FieldError[];
  /** Engine council with a model other than `large`: 422 `council_model_fixed` when `errors` is empty. */
  topLevel?: CouncilModelFixed;
  /** Present only when the body is fully valid (no field errors and no top-level error). */
  config?: ResolvedScanConfig;
}

// A type alias, not an interface, so it stays assignable to the fingerprint's Record-typed provider hints.
export type EstimateProviderHints = {
  seekerProvider?: string;
  analystProvider?: string;
  translatorProvider?: string;
};

export interface ValidatedEstimateRequest {
  jurisdictions: string[];
  areas: string[];
  horizon: number | null;
  engine: string;
  providers: EstimateProviderHints;
}

export interface EstimateValidationResult {
  errors: FieldError[];
  request?: ValidatedEstimateRequest;
}

/** Outcome of reading the `engine` field: `explicit` tells rule 1 whether the body named it. */
interface EngineReading {
  /** The engine the config runs on; undefined when the given value is unusable. */
  engine?: EngineId;
  explicit: boolean;
}

type Body = Record<string, unknown>;

export function validateScanConfig(value: unknown, defaults: ScanConfigDefaults): ScanConfigValidationResult {
  const reading = readRequestBody(value, SCAN_CONFIG_FIELDS);
  if (!reading.ok) return { errors: [reading.error] };
  const { body, errors } = reading;

  const jurisdictions = readNameList(body.jurisdictions, 'jurisdictions', MAX_JURISDICTION_LENGTH, errors);
  const areas = readNameList(body.areas, 'areas', MAX_AREA_LENGTH, errors);
  const horizon = readHorizon(body.horizon, true, errors);
  const { engine, explicit: engineExplicit } = readEngine(body.engine, errors);
  const model = readModel(body, 'model', errors);
  const searchModel = readModel(body, 'searchModel', errors);
  const verificationMode = readEnum(body, 'verificationMode', VERIFICATION_MODES, errors);
  const realistFlag = readBoolean(body, 'realist', errors);
  const auditorFlag = readBoolean(body, 'auditor', errors);
  const auditorModel = readEnum(body, 'auditorModel', AUDITOR_MODELS, errors);
  const fetchProvider = readEnum(body, 'fetchProvider', FETCH_PROVIDERS, errors);
  const searchProvider = readEnum(body, 'searchProvider', SEARCH_PROVIDERS, errors);
  const verifyProvider = readEnum(body, 'verifyProvider', VERIFY_PROVIDERS, errors);
  const translationLanguages = readLanguages(body.translationLanguages, errors);

  // An unusable engine gets its own error; judging the other fields against a guess would only add noise.
  if (engine !== undefined) {
    checkVerificationFlags(engine, engineExplicit, { verificationMode, realist: realistFlag, auditor: auditorFlag }, errors);
    checkProviderSelection(engine, { fetchProvider, searchProvider }, errors);
  }

  // verificationMode only fills in the flags the caller left unset.
  const realist = realistFlag ?? verificationMode !== undefined;
  const auditor = auditorFlag ?? verificationMode !== undefined;

  if (engine !== undefined && model !== undefined && isSmallModel(model) && isVerifierAwareConfig({ engine, realist, auditor })) {
    errors.push({
      path: 'model',
      code: 'small_model_blocked_on_verifier',
      message: `model ${model} is a small model, which cannot run a verifier-aware config (engine ${engine}${
        engine === 'v4' ? ' with realist or auditor on' : ''
      }); choose medium, large or large48.`,
    });
  }

  const topLevel = councilModelCheck(engine, body.model);
  const result: ScanConfigValidationResult = { errors };
  if (topLevel) result.topLevel = topLevel;
  if (errors.length > 0 || topLevel) return result;

  // Every value below passed its check; the non-null assertions only restate that.
  const resolvedEngine = engine!;
  const providerSelection = resolvedEngine === PROVIDER_SELECTION_ENGINE;
  const resolvedFetch = providerSelection ? (fetchProvider ?? defaults.defaultFetchProvider) : null;
  const resolvedSearch = providerSelection ? (searchProvider ?? defaults.defaultSearchProvider) : null;
  result.config = {
    jurisdictions: jurisdictions!,
    areas: areas!,
    horizon: horizon as ResolvedScanConfig['horizon'],
    engine: resolvedEngine,
    model: model ?? null,
    searchModel: searchModel ?? null,
    verificationMode: verificationMode ?? null,
    realist,
    auditor,
    // The app config only admits `medium` as DEFAULT_AUDITOR_MODEL (C1).
    auditorModel: auditorModel ?? (defaults.defaultAuditorModel as ResolvedScanConfig['auditorModel']),
    fetchProvider: resolvedFetch,
    searchProvider: resolvedSearch,
    verifyProvider: verifyProvider ?? (resolvedFetch === 'fetch-a' ? 'fetch-a' : defaults.defaultVerifyProvider),
    translationLanguages: translationLanguages ?? [],
  };
  return result;
}

export function validateEstimateRequest(value: unknown): EstimateValidationResult {
  const reading = readRequestBody(value, ESTIMATE_REQUEST_FIELDS);
  if (!reading.ok) return { errors: [reading.error] };
  const { body, errors } = reading;

  const estimateList = { maxEntries: MAX_ESTIMATE_LIST_ENTRIES };
  const jurisdictions = readNameList(body.jurisdictions, 'jurisdictions', MAX_JURISDICTION_LENGTH, errors, estimateList);
  const areas = readNameList(body.areas, 'areas', MAX_AREA_LENGTH, errors, estimateList);
  const horizon = readHorizon(body.horizon, false, errors);
  const { engine } = readEngine(body.engine, errors);
  const providers: EstimateProviderHints = {};
  for (const field of ['seekerProvider', 'analystProvider', 'translatorProvider'] as const) {
    const value = readEnum(body, field, PROVIDER_KEYS, errors);
    if (value !== undefined) providers[field] = value;
  }

  if (errors.length > 0) return { errors };
  return { errors, request: { jurisdictions: jurisdictions!, areas: areas!, horizon: horizon ?? null, engine: engine!, providers } };
}

/** Optional fields treat JSON null like an absent field. */
function isAbsent(value: unknown): value is undefined | null {
  return value === undefined || value === null;
}

function show(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `'${value.length > 40 ? `${value.slice(0, 40)}…` : value}'`;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return `a ${typeof value}`;
}

/** One error for a list of the wrong size, so its entries are never judged one by one (a 2 MB list has 500,000). */
function checkListSize(value: unknown[], path: string, maxEntries: number, errors: FieldError[]): boolean {
  if (value.length === 0) {
    errors.push({ path, code: 'invalid', message: `${path} must have at least one entry.` });
    return false;
  }
  if (value.length > maxEntries) {
    errors.push({ path, code: 'invalid', message: `${path} may have at most ${maxEntries} entries (got ${value.length}).` });
    return false;
  }
  return true;
}

function readNameList(
  value: unknown,
  path: 'jurisdictions' | 'areas',
  maxLength: number,
  errors: FieldError[],
  { maxEntries = MAX_LIST_ENTRIES } = {},
): string[] | undefined {
  if (isAbsent(value)) {
    errors.push({ path, code: 'required', message: `${path} is required: a list of 1 to ${maxEntries} names.` });
    return undefined;
  }
  if (!Array.isArray(value)) {
    errors.push({ path, code: 'invalid', message: `${path} must be an array of strings, not ${show(value)}.` });
    return undefined;
  }
  if (!checkListSize(value, path, maxEntries, errors)) return undefined;
  let ok = true;
  const names: string[] = [];
  value.forEach((entry, index) => {
    const entryPath = `${path}[${index}]`;
    if (typeof entry !== 'string') {
      errors.push({ path: entryPath, code: 'invalid', message: `${entryPath} must be a string, not ${show(entry)}.` });
      ok = false;
      return;
    }
    const name = entry.trim();
    if (name === '') {
      errors.push({ path: entryPath, code: 'invalid', message: `${entryPath} must not be empty.` });
      ok = false;
    } else if (longerThan(name, maxLength)) {
      errors.push({
        path: entryPath,
        code: 'too_long',
        message: `${entryPath} must be at most ${maxLength} characters (got ${[...name].length}).`,
      });
      ok = false;
    } else if (!isStorableText(name)) {
      errors.push({ path: entryPath, code: 'invalid', message: `${unstorableTextMessage(entryPath)}.` });
      ok = false;
    }
    names.push(name);
  });
  return ok ? names : undefined;
}

function readHorizon(value: unknown, required: boolean, errors: FieldError[]): number | undefined {
  const allowed = `${HORIZONS.join(', ')} (months)`;
  if (isAbsent(value)) {
    if (required) errors.push({ path: 'horizon', code: 'required', message: `horizon is required: one of ${allowed}.` });
    return undefined;
  }
  if (!isHorizon(value)) {
    errors.push({ path: 'horizon', code: 'invalid', message: `horizon must be one of ${allowed}, not ${show(value)}.` });
    return undefined;
  }
  return value;
}

function readEngine(value: unknown, errors: FieldError[]): EngineReading {
  if (isAbsent(value)) return { engine: DEFAULT_ENGINE, explicit: false };
  if (typeof value === 'string') {
    const engine = findEngine(value);
    if (engine) return { engine: engine.id, explicit: true };
    if (isRetiredEngine(value)) {
      errors.push({
        path: 'engine',
        code: 'engine_deprecated',
        message: `Engine ${value} is retired; use v4, v4.5-alpha or v4.5-beta.`,
      });
      return { explicit: true };
    }
  }
  errors.push({
    path: 'engine',
    code: 'invalid',
    message: `engine must be one of v4, v4.5-alpha, v4.5-beta, council, not ${show(value)}.`,
  });
  return { explicit: true };
}

function readModel(body: Body, path: 'model' | 'searchModel', errors: FieldError[]): string | undefined {
  const value = body[path];
  if (isAbsent(value)) return undefined;
  if (typeof value !== 'string' || !isKnownModel(value)) {
    errors.push({
      path,
      code: 'invalid',
      message: `${path} must be a model id from GET /v1/meta/models or a tier (large, large48, medium, small), not ${show(value)}.`,
    });
    return undefined;
  }
  return value;
}

function readEnum<T extends string>(body: Body, path: string, allowed: readonly T[], errors: FieldError[]): T | undefined {
  const value = body[path];
  if (isAbsent(value)) return undefined;
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    const expected = allowed.length === 1 ? `accepts only ${allowed[0]}` : `must be one of ${allowed.join(', ')}`;
    errors.push({ path, code: 'invalid', message: `${path} ${expected}, not ${show(value)}.` });
    return undefined;
  }
  return value as T;
}

function readBoolean(body: Body, path: string, errors: FieldError[]): boolean | undefined {
  const value = body[path];
  if (isAbsent(value)) return undefined;
  if (typeof value !== 'boolean') {
    errors.push({ path, code: 'invalid', message: `${path} must be true or false, not ${show(value)}.` });
    return undefined;
  }
  return value;
}

function readLanguages(value: unknown, errors: FieldError[]): string[] | undefined {
  const path = 'translationLanguages';
  if (isAbsent(value)) return undefined;
  if (!Array.isArray(value)) {
    errors.push({ path, code: 'invalid', message: `${path} must be an array of language codes, not ${show(value)}.` });
    return undefined;
  }
  if (value.length > MAX_TRANSLATION_LANGUAGES) {
    errors.push({ path, code: 'invalid', message: `${path} may have at most ${MAX_TRANSLATION_LANGUAGES} entries (got ${value.length}).` });
    return undefined;
  }
  let ok = true;
  value.forEach((entry, index) => {
    const entryPath = `${path}[${index}]`;
    if (typeof entry !== 'string') {
      errors.push({ path: entryPath, code: 'invalid', message: `${entryPath} must be a language code string, not ${show(entry)}.` });
      ok = false;
    } else if (longerThan(entry, MAX_LANGUAGE_CODE_LENGTH)) {
      errors.push({ path: entryPath, code: 'too_long', message: `${entryPath} must be at most ${MAX_LANGUAGE_CODE_LENGTH} characters.` });
      ok = false;
    } else if (!isStorableText(entry)) {
      errors.push({ path: entryPath, code: 'invalid', message: `${unstorableTextMessage(entryPath)}.` });
      ok = false;
    }
  });
  return ok ? [...new Set(value as string[])] : undefined;
}

function checkVerificationFlags(
  engine: EngineId,
  explicit: boolean,
  flags: { verificationMode?: string; realist?: boolean; auditor?: boolean },
  errors: FieldError[],
): void {
  const offending: string[] = [];
  if (flags.verificationMode !== undefined) offending.push('verificationMode');
  if (flags.realist === true) offending.push('realist');
  if (flags.auditor === true) offending.push('auditor');
  if (offending.length === 0) return;

  const allowed = VERIFICATION_ENGINES.join(', ');
  let reason: string | undefined;
  if (!explicit) reason = `requires an explicit engine (${allowed}) in the same body; the default engine does not count`;
  else if (!VERIFICATION_ENGINES.includes(engine)) reason = `is only valid with engine ${allowed}, not ${engine}`;
  if (reason === undefined) return;
  for (const path of offending) errors.push({ path, code: 'incompatible', message: `${path} ${reason}.` });
}

function checkProviderSelection(
  engine: EngineId,
  providers: { fetchProvider?: string; searchProvider?: string },
  errors: FieldError[],
): void {
  if (engine === PROVIDER_SELECTION_ENGINE) return;
  for (const path of ['fetchProvider', 'searchProvider'] as const) {
    if (providers[path] !== undefined) {
      errors.push({
        path,
        code: 'incompatible',
        message: `${path} is only valid with engine ${PROVIDER_SELECTION_ENGINE}, not ${engine}.`,
      });
    }
  }
}

/**
 * Rule 2 blocks the tier shorthand `small` and every catalogue model of tier small (including a pro variant of one):
 * the block is about the model's capability, so spelling it by id must not get around it.
 */
function isSmallModel(model: string): boolean {
  return resolveModel(model, {})?.model.tier === 'small';
}

/** Rule 3: only the tier shorthand `large` is accepted, since council seats use their own fixed large models. */
function councilModelCheck(engine: EngineId | undefined, model: unknown): CouncilModelFixed | undefined {
  if (engine !== 'council' || isAbsent(model) || model === 'large') return undefined;
  return {
    code: 'council_model_fixed',
    detail: `Engine council uses fixed analyst models; omit model or set it to large (got ${show(model)}).`,
  };
}
