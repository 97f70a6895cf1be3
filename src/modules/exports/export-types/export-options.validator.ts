import { longerThan } from '../../../common/validation/char-count';
import { isStorableText, unstorableTextMessage } from '../../../common/validation/storable-text';
import { didYouMean } from './did-you-mean';
import { EXPORT_TYPES, ExportTypeEntry, exportTypeKeys, findExportType, isExportProvider, OptionSchema } from './export-types.registry';

export type FieldErrorCode =
  'required' | 'invalid' | 'unknown' | 'incompatible' | 'unknown_option' | 'invalid_type' | 'invalid_value' | 'too_long';

export interface FieldError {
  path: string;
  code: FieldErrorCode;
  message: string;
}

/** Members of `options`: the largest schema has 5 options and 1 alias, so more is refused as a whole. */
export const MAX_EXPORT_OPTIONS = 20;
/** Longest option value of any type (the spec's `instructions` limit); an option's own maxLength may be lower. */
export const MAX_OPTION_VALUE_LENGTH = 2000;
/** Longest part of a client's value quoted back in a message. */
const QUOTE_LENGTH = 40;

export interface ExportRequestInput {
  provider: unknown;
  artifact_type: unknown;
  options: unknown;
}

export interface ExportValidationContext {
  /**
   * Integrations configured on the account (`notebook`, `voicePodcast`). Omitted: the request is judged on its
   * own, and the caller checks `integrationError` once it knows the account.
   */
  integrations?: ReadonlySet<string>;
}

export interface NormalizedExportRequest {
  type: ExportTypeEntry;
  /** Canonical option names, defaults filled in, deprecated options dropped. */
  options: Record<string, string>;
}

export interface ExportValidationResult {
  /** Non-empty means 422 `validation_error`; it takes precedence over `localeError`. */
  errors: FieldError[];
  /** Set when targetLanguage is outside the closed enum: 422 top-level `unsupported_locale`. */
  localeError?: string;
  /** Present only when the request is fully valid. */
  normalized?: NormalizedExportRequest;
}

export function validateExportRequest(input: ExportRequestInput, ctx: ExportValidationContext = {}): ExportValidationResult {
  const errors: FieldError[] = [];
  const provider = readProvider(input.provider, errors);
  const artifactType = readRequiredString(input.artifact_type, 'artifact_type', errors);
  const type = resolveType(provider, artifactType, errors);
  const options = readOptions(input.options, errors);

  const missing = type && ctx.integrations ? integrationError(type, ctx.integrations) : undefined;
  if (missing) errors.push(missing);

  if (!type || !options) return { errors };
  const checked = checkOptions(type, options, errors);
  const result: ExportValidationResult = { errors };
  if (checked.localeError) result.localeError = checked.localeError;
  if (errors.length === 0 && !checked.localeError) result.normalized = { type, options: checked.normalized };
  return result;
}

/** The error for a provider-backed type whose integration the account has not configured. */
export function integrationError(type: ExportTypeEntry, integrations: ReadonlySet<string>): FieldError | undefined {
  if (!type.requires_provider || integrations.has(type.requires_provider)) return undefined;
  return {
    path: 'provider',
    code: 'incompatible',
    message: `${type.key} needs the ${type.requires_provider} integration, which is not configured on this account.`,
  };
}

function readRequiredString(value: unknown, path: string, errors: FieldError[]): string | undefined {
  if (value === undefined || value === null || value === '') {
    errors.push({ path, code: 'required', message: `${path} is required.` });
    return undefined;
  }
  if (typeof value !== 'string') {
    errors.push({ path, code: 'invalid', message: `${path} must be a string.` });
    return undefined;
  }
  return value;
}

function quote(value: string): string {
  return `'${value.length > QUOTE_LENGTH ? `${value.slice(0, QUOTE_LENGTH)}…` : value}'`;
}

function hint(input: string, candidates: readonly string[]): string {
  const suggestion = didYouMean(input, candidates);
  return suggestion === undefined ? '' : ` Did you mean '${suggestion}'?`;
}

const VALID_PAIRS = ` Valid provider:artifact_type pairs: ${exportTypeKeys().join(', ')}.`;

/** Undefined when missing, not a string or not a registered provider (the error is already recorded). */
function readProvider(value: unknown, errors: FieldError[]): string | undefined {
  const provider = readRequiredString(value, 'provider', errors);
  if (provider === undefined || isExportProvider(provider)) return provider;
  const providers = [...new Set(EXPORT_TYPES.map((entry) => entry.provider))];
  errors.push({
    path: 'provider',
    code: 'unknown',
    message: `Unknown provider ${quote(provider)}.${hint(provider, providers)}${VALID_PAIRS}`,
  });
  return undefined;
}

function resolveType(provider: string | undefined, artifactType: string | undefined, errors: FieldError[]): ExportTypeEntry | undefined {
  if (provider === undefined || artifactType === undefined) return undefined;
  const type = findExportType(provider, artifactType);
  if (!type) {
    const artifactTypes = EXPORT_TYPES.filter((entry) => entry.provider === provider).map((entry) => entry.artifact_type);
    errors.push({
      path: 'artifact_type',
      code: 'unknown',
      message: `${quote(`${provider}:${artifactType}`)} is not a registered export type.${hint(artifactType, artifactTypes)}${VALID_PAIRS}`,
    });
  }
  return type;
}

function readOptions(value: unknown, errors: FieldError[]): Record<string, unknown> | undefined {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) {
    errors.push({ path: 'options', code: 'invalid', message: 'options must be an object whose values are strings.' });
    return undefined;
  }
  const count = Object.keys(value).length;
  if (count > MAX_EXPORT_OPTIONS) {
    errors.push({ path: 'options', code: 'invalid', message: `options may have at most ${MAX_EXPORT_OPTIONS} members (got ${count}).` });
    return undefined;
  }
  return value as Record<string, unknown>;
}

interface GivenValue {
  key: string;
  value: string;
}

function checkOptions(
  type: ExportTypeEntry,
  options: Record<string, unknown>,
  errors: FieldError[],
): { normalized: Record<string, string>; localeError?: string } {
  const schema = type.options_schema;
  const canonicalNames = Object.keys(schema);
  const canonicalByName = new Map<string, string>();
  for (const name of canonicalNames) {
    canonicalByName.set(name, name);
    for (const alias of schema[name].aliases ?? []) canonicalByName.set(alias, name);
  }

  const given = new Map<string, GivenValue[]>();
  for (const key of Object.keys(options)) {
    const canonical = canonicalByName.get(key);
    if (canonical === undefined) {
      errors.push({ path: `options.${key}`, code: 'unknown_option', message: unknownOptionMessage(type, key, canonicalNames) });
      continue;
    }
    const value = options[key];
    if (typeof value !== 'string') {
      errors.push({ path: `options.${key}`, code: 'invalid_type', message: `options.${key} must be a string.` });
      continue;
    }
    given.set(canonical, [...(given.get(canonical) ?? []), { key, value }]);
  }

  let localeError: string | undefined;
  const values = new Map<string, string>();
  for (const [name, entries] of given) {
    const [first] = entries;
    const conflicting = entries.find((entry) => entry.value !== first.value);
    if (conflicting) {
      const aliasKey = entries.find((entry) => entry.key !== name)?.key ?? conflicting.key;
      errors.push({
        path: `options.${aliasKey}`,
        code: 'invalid',
        message: `options.${aliasKey} is another name for options.${name}; give one of them, or both with the same value.`,
      });
      continue;
    }
    const option = schema[name];
    const path = `options.${first.key}`;
    // Length first, so no value longer than any option may be is compared, quoted or stored.
    const maxLength = Math.min(option.maxLength ?? MAX_OPTION_VALUE_LENGTH, MAX_OPTION_VALUE_LENGTH);
    if (longerThan(first.value, maxLength)) {
      errors.push({ path, code: 'too_long', message: `${path} must be at most ${maxLength} characters.` });
      continue;
    }
    if (!isStorableText(first.value)) {
      errors.push({ path, code: 'invalid', message: `${unstorableTextMessage(path)}.` });
      continue;
    }
    if (option.enum && !option.enum.includes(first.value)) {
      if (option.localeOption) {
        localeError = `targetLanguage ${quote(first.value)} is not supported. Supported values: ${option.enum.join(', ')}.`;
      } else {
        errors.push({ path, code: 'invalid_value', message: invalidValueMessage(path, first.value, option) });
      }
      continue;
    }
    values.set(name, first.value);
  }

  const normalized: Record<string, string> = {};
  for (const name of canonicalNames) {
    const option = schema[name];
    if (option.deprecated) continue;
    const value = values.get(name) ?? option.default;
    if (value !== undefined) normalized[name] = value;
  }
  return localeError === undefined ? { normalized } : { normalized, localeError };
}

function unknownOptionMessage(type: ExportTypeEntry, key: string, canonicalNames: string[]): string {
  if (canonicalNames.length === 0) return `Unknown option ${quote(key)}: ${type.key} takes no options.`;
  const candidates = canonicalNames.flatMap((name) => [name, ...(type.options_schema[name].aliases ?? [])]);
  return `Unknown option ${quote(key)} for ${type.key}.${hint(key, candidates)} Valid options: ${canonicalNames.join(', ')}.`;
}

function invalidValueMessage(path: string, value: string, option: OptionSchema): string {
  const valid = ` Valid values: ${(option.enum ?? []).join(', ')}.`;
  if (option.withdrawn?.includes(value)) return `${path} ${quote(value)} has been withdrawn.${valid}`;
  const sameButCase = option.enum?.find((candidate) => candidate.toLowerCase() === value.toLowerCase());
  const caseHint = sameButCase === undefined ? '' : ` Did you mean '${sameButCase}'?`;
  return `${path} ${quote(value)} is not allowed.${caseHint}${valid}`;
}
