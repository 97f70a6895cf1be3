import * as fs from 'node:fs';
import * as path from 'node:path';
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { AREAS } from '../../domain/vocabulary/areas';
import { JURISDICTIONS } from '../../domain/vocabulary/jurisdictions';
import type { Calendar, CalendarEntry, CalendarFile, CalendarProblem } from './calendar.types';

/** File code (data/calendar/<code>.json) to jurisdiction id in the meta vocabulary. */
export const JURISDICTION_FILE_CODES: Readonly<Record<string, string>> = {
  us: 'US',
  eu: 'EU',
  uk: 'UK',
  sg: 'Singapore',
  hk: 'Hong Kong',
  jp: 'Japan',
  au: 'Australia',
  ch: 'Switzerland',
  ca: 'Canada',
  br: 'Brazil',
  in: 'India',
  cn: 'China',
  kr: 'South Korea',
};

const SCHEMA_RELATIVE = path.join('data', 'calendar.schema.json');

/**
 * The project root: the nearest ancestor of this module (works from src/ under ts/jest
 * and from dist/src/ after a build) that holds data/calendar.schema.json; else the cwd.
 */
export function findProjectRoot(start: string = __dirname): string {
  let current = path.resolve(start);
  for (;;) {
    if (fs.existsSync(path.join(current, SCHEMA_RELATIVE))) return current;
    const parent = path.dirname(current);
    if (parent === current) break;
    current = parent;
  }
  return process.cwd();
}

export function defaultCalendarDir(): string {
  return path.join(findProjectRoot(), 'data', 'calendar');
}

export function defaultSchemaPath(): string {
  return path.join(findProjectRoot(), SCHEMA_RELATIVE);
}

export interface CalendarLoadOptions {
  /** Path of the JSON Schema; defaults to <project>/data/calendar.schema.json. */
  schemaPath?: string;
}

const validatorCache = new Map<string, ValidateFunction>();

function getValidator(schemaPath: string): ValidateFunction {
  const cached = validatorCache.get(schemaPath);
  if (cached) return cached;
  const schema = JSON.parse(fs.readFileSync(schemaPath, 'utf8')) as Record<string, unknown>;
  const ajv = new Ajv({ allErrors: true, strict: true });
  addFormats(ajv);
  const validate = ajv.compile(schema);
  validatorCache.set(schemaPath, validate);
  return validate;
}

const REGULATORS_BY_JURISDICTION = new Map(JURISDICTIONS.map((j) => [j.id, new Set(j.regulators)]));
const AREA_IDS = new Set(AREAS.map((a) => a.id));

interface ParsedFile {
  file: string;
  data?: CalendarFile;
}

function entryIdAt(data: unknown, index: number): string | undefined {
  const entries = (data as { entries?: unknown })?.entries;
  if (!Array.isArray(entries)) return undefined;
  const id = (entries[index] as { id?: unknown } | undefined)?.id;
  return typeof id === 'string' ? id : `#${index}`;
}

/** The url of source `sourceIndex` of entry `entryIndex`, so that a message about a source names it. */
function sourceUrlAt(data: unknown, entryIndex: number, sourceIndex: number): string | undefined {
  const entry = (data as { entries?: unknown[] })?.entries?.[entryIndex] as { sources?: unknown[] } | undefined;
  const url = (entry?.sources?.[sourceIndex] as { url?: unknown } | undefined)?.url;
  return typeof url === 'string' ? url : undefined;
}

function schemaProblems(file: string, data: unknown, errors: ErrorObject[]): CalendarProblem[] {
  return errors.map((err) => {
    const match = /^\/entries\/(\d+)(\/.*)?$/.exec(err.instancePath);
    const entryId = match ? entryIdAt(data, Number(match[1])) : undefined;
    const where = match ? match[2] || '' : err.instancePath || '/';
    const extra = err.params && 'allowedValues' in err.params ? ` (${(err.params.allowedValues as unknown[]).join(', ')})` : '';
    const prop = err.params && 'additionalProperty' in err.params ? ` '${String(err.params.additionalProperty)}'` : '';
    const source = match && /^\/sources\/(\d+)/.exec(where);
    const url = source ? sourceUrlAt(data, Number(match[1]), Number(source[1])) : undefined;
    const suffix = url ? ` (source ${url})` : '';
    return { file, entryId, message: `schema: ${where || '/'} ${err.message ?? 'is invalid'}${prop}${extra}${suffix}` };
  });
}

/** Rules the JSON Schema cannot express: file/jurisdiction match, id prefix, vocabularies, milestone order and sources. */
function entryProblems(file: string, code: string, entry: CalendarEntry): CalendarProblem[] {
  const problems: CalendarProblem[] = [];
  const push = (message: string) => problems.push({ file, entryId: entry.id, message });
  const jurisdiction = JURISDICTION_FILE_CODES[code];
  if (jurisdiction && entry.jurisdiction !== jurisdiction) {
    push(`jurisdiction '${entry.jurisdiction}' does not match file jurisdiction '${jurisdiction}'`);
  }
  if (!entry.id.startsWith(`${code}-`)) push(`id must start with '${code}-'`);
  const regulators = REGULATORS_BY_JURISDICTION.get(entry.jurisdiction);
  if (!regulators) {
    push(`unknown jurisdiction '${entry.jurisdiction}'`);
  } else if (!regulators.has(entry.regulator)) {
    push(`regulator '${entry.regulator}' is not listed for ${entry.jurisdiction} (${[...regulators].join(', ')})`);
  }
  for (const area of entry.areas) {
    if (!AREA_IDS.has(area)) push(`unknown area '${area}'`);
  }
  for (let i = 1; i < entry.milestones.length; i++) {
    if (entry.milestones[i].date < entry.milestones[i - 1].date) {
      push(`milestones are not sorted ascending (${entry.milestones[i - 1].date} before ${entry.milestones[i].date})`);
      break;
    }
  }
  const sourceUrls = new Set(entry.sources.map((s) => s.url));
  for (const milestone of entry.milestones) {
    const what = `milestone ${milestone.date} '${milestone.event}'`;
    if (milestone.source && !sourceUrls.has(milestone.source)) push(`${what}: source ${milestone.source} is not one of the entry's sources`);
    if (milestone.slipped && milestone.confidence === 'confirmed') push(`${what}: a slipped milestone cannot be confirmed`);
    for (const earlier of milestone.history ?? []) {
      if (!sourceUrls.has(earlier.source)) push(`${what}: history source ${earlier.source} is not one of the entry's sources`);
    }
  }
  return problems;
}

function readFiles(dir: string, schemaPath: string): { parsed: ParsedFile[]; problems: CalendarProblem[] } {
  const problems: CalendarProblem[] = [];
  const parsed: ParsedFile[] = [];
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) {
    return { parsed, problems: [{ file: dir, message: 'calendar directory not found' }] };
  }
  const names = fs
    .readdirSync(dir)
    .filter((n) => n.endsWith('.json'))
    .sort();
  if (names.length === 0) problems.push({ file: dir, message: 'no calendar files (*.json) found' });
  const validate = getValidator(schemaPath);
  const seen = new Map<string, string>();

  for (const file of names) {
    const code = file.replace(/\.json$/, '');
    const expectedJurisdiction = JURISDICTION_FILE_CODES[code];
    if (!expectedJurisdiction) {
      problems.push({ file, message: `unknown file code '${code}' (expected one of ${Object.keys(JURISDICTION_FILE_CODES).join(', ')})` });
      parsed.push({ file });
      continue;
    }
    let data: unknown;
    try {
      data = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
    } catch (err) {
      problems.push({ file, message: `invalid JSON: ${(err as Error).message}` });
      parsed.push({ file });
      continue;
    }
    if (!validate(data)) {
      problems.push(...schemaProblems(file, data, validate.errors ?? []));
      parsed.push({ file });
      continue;
    }
    const calendarFile = data as CalendarFile;
    if (calendarFile.jurisdiction !== expectedJurisdiction) {
      problems.push({ file, message: `file jurisdiction '${calendarFile.jurisdiction}' should be '${expectedJurisdiction}'` });
    }
    for (const entry of calendarFile.entries) {
      problems.push(...entryProblems(file, code, entry));
      const previous = seen.get(entry.id);
      if (previous) {
        problems.push({ file, entryId: entry.id, message: `duplicate id (also in ${previous})` });
      } else {
        seen.set(entry.id, file);
      }
    }
    parsed.push({ file, data: calendarFile });
  }
  return { parsed, problems };
}

/** Formats a problem as `file [entry id]: message`. */
export function formatProblem(p: CalendarProblem): string {
  return `${p.file}${p.entryId ? ` [${p.entryId}]` : ''}: ${p.message}`;
}

/**
 * Reads every calendar file in `dir`: the files that passed the schema and the cross-file rules' input, with the
 * problems found. Used by scripts/calendar-check.ts to run its citation-quality rules on the valid files.
 */
export function readCalendarFiles(
  dir: string = defaultCalendarDir(),
  options: CalendarLoadOptions = {},
): { files: { file: string; data: CalendarFile }[]; problems: CalendarProblem[] } {
  const { parsed, problems } = readFiles(dir, options.schemaPath ?? defaultSchemaPath());
  const files = parsed.flatMap(({ file, data }) => (data ? [{ file, data }] : []));
  return { files, problems };
}

/** Validates every calendar file in `dir`; returns the problems found (empty when valid). */
export function validateCalendarFiles(dir: string = defaultCalendarDir(), options: CalendarLoadOptions = {}): CalendarProblem[] {
  return readFiles(dir, options.schemaPath ?? defaultSchemaPath()).problems;
}

/**
 * Reads and validates every data/calendar/*.json file synchronously.
 * Throws an Error naming the file and entry id of each problem when data is invalid.
 */
export function loadCalendar(dir: string = defaultCalendarDir(), options: CalendarLoadOptions = {}): Calendar {
  const { parsed, problems } = readFiles(dir, options.schemaPath ?? defaultSchemaPath());
  if (problems.length > 0) {
    const shown = problems.slice(0, 20).map(formatProblem);
    const more = problems.length > 20 ? `\n... and ${problems.length - 20} more` : '';
    throw new Error(`Invalid regulatory calendar in ${dir}:\n${shown.join('\n')}${more}`);
  }
  let version = '';
  let asOf = '';
  const entries: CalendarEntry[] = [];
  for (const { data } of parsed) {
    if (!data) continue;
    if (data.as_of > version) version = data.as_of;
    if (!asOf || data.as_of < asOf) asOf = data.as_of;
    entries.push(...data.entries);
  }
  return { version, as_of: asOf, entries };
}
