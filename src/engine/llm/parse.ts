/**
 * Defensive parsing of model replies: models wrap JSON in code fences, add prose around it, or return
 * something else entirely. Nothing here throws on model output.
 */

export type JsonObject = Record<string, unknown>;

/** Removes a leading `<think>…</think>` block and surrounding Markdown code fences. */
export function stripWrapping(text: string): string {
  let out = text.trim();
  const think = out.startsWith('<think>') ? out.indexOf('</think>') : -1;
  if (think !== -1) out = out.slice(think + '</think>'.length).trim();
  const fenced = /^```[a-zA-Z0-9_-]*\s*\n?([\s\S]*?)\n?```\s*$/.exec(out);
  if (fenced) out = fenced[1].trim();
  return out;
}

/**
 * The outermost JSON object in `text` (code fences and surrounding prose ignored), or null when there is none.
 * Scans for balanced braces outside strings, trying each `{` in turn until one parses.
 */
export function extractJsonObject(text: string): JsonObject | null {
  if (typeof text !== 'string') return null;
  const cleaned = stripWrapping(text);
  const direct = tryParse(cleaned);
  if (direct) return direct;
  for (let start = cleaned.indexOf('{'); start !== -1; start = cleaned.indexOf('{', start + 1)) {
    const end = matchingBrace(cleaned, start);
    if (end === -1) continue;
    const parsed = tryParse(cleaned.slice(start, end + 1));
    if (parsed) return parsed;
  }
  return null;
}

function tryParse(text: string): JsonObject | null {
  try {
    const value = JSON.parse(text) as unknown;
    return asObject(value) ?? null;
  } catch {
    return null;
  }
}

function matchingBrace(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  let escaped = false;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (ch === '\\') escaped = true;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === '{') depth++;
    else if (ch === '}') {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}

export function asObject(value: unknown): JsonObject | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as JsonObject) : undefined;
}

export function asList(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** A trimmed non-empty string, or undefined. Numbers are accepted and stringified. */
export function asText(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

export function asEnum<T extends string>(value: unknown, allowed: readonly T[]): T | undefined {
  const text = asText(value)
    ?.toLowerCase()
    .replace(/[\s-]+/g, '_');
  return text !== undefined && (allowed as readonly string[]).includes(text) ? (text as T) : undefined;
}

/**
 * Source numbers from a model's `source_numbers` (numbers, "S3", "3", "[S3]"); invalid entries are ignored,
 * order kept, deduplicated.
 */
export function sourceNumbers(value: unknown): number[] {
  const out: number[] = [];
  const list = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
  for (const entry of list) {
    let n: number | undefined;
    if (typeof entry === 'number' && Number.isInteger(entry)) n = entry;
    else if (typeof entry === 'string') {
      const match = /^\s*\[?\s*S?\s*(\d+)\s*\]?\s*$/i.exec(entry);
      if (match) n = Number(match[1]);
    }
    if (n !== undefined && n > 0 && !out.includes(n)) out.push(n);
  }
  return out;
}

/** An ISO date YYYY-MM-DD (a longer ISO timestamp is cut to its date), or undefined. */
export function asIsoDate(value: unknown): string | undefined {
  const text = asText(value);
  if (!text) return undefined;
  const match = /^(\d{4})-(\d{2})-(\d{2})(?:$|T)/.exec(text);
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined;
  return `${match[1]}-${match[2]}-${match[3]}`;
}

/** `[S3]`, `[S3, S5]`, `[S3][S4]` references in model prose. */
const SOURCE_REFERENCE = /\[\s*S\s*\d+(?:\s*[,;]\s*S?\s*\d+)*\s*\]/gi;

/**
 * Rewrites `[S<n>]` references into `[[cite:N]]` markers through `citationFor` (source number -> citation id);
 * references with no citation are dropped. Existing `[[cite:N]]` markers the model wrote are removed unless
 * `keepMarker` accepts their id.
 */
export function rewriteSourceReferences(
  text: string,
  citationFor: (sourceNumber: number) => number | undefined,
  keepMarker: (citationId: number) => boolean = () => false,
): string {
  const withoutForeign = text.replace(/\s?\[\[cite:(\d+)\]\]/g, (whole, id: string) => (keepMarker(Number(id)) ? whole : ''));
  const rewritten = withoutForeign.replace(SOURCE_REFERENCE, (whole) => {
    const ids: number[] = [];
    for (const match of whole.matchAll(/\d+/g)) {
      const id = citationFor(Number(match[0]));
      if (id !== undefined && !ids.includes(id)) ids.push(id);
    }
    return ids.map((id) => `[[cite:${id}]]`).join('');
  });
  return tidy(rewritten);
}

/** Removes `[S<n>]` references and `[[cite:N]]` markers (for plain-prose fields). */
export function stripReferences(text: string): string {
  return tidy(text.replace(SOURCE_REFERENCE, '').replace(/\[\[cite:\d+\]\]/g, ''));
}

/** Collapses the spaces a removed reference leaves behind ("rules  ." -> "rules."). */
function tidy(text: string): string {
  return text
    .replace(/[ \t]+(\[\[cite:)/g, ' $1')
    .replace(/[ \t]+([.,;:!?])/g, '$1')
    .replace(/[ \t]{2,}/g, ' ')
    .replace(/[ \t]+$/gm, '')
    .trim();
}
