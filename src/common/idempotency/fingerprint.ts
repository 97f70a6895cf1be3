import { createHash } from 'node:crypto';
import { invalidRequest } from '../errors/api-error';

/**
 * Deeper than any body the parser admits (MAX_JSON_DEPTH in src/common/http/body-parser.ts), so clients meet that
 * limit first; this one only keeps the recursion below from ever running out of stack.
 */
export const MAX_FINGERPRINT_DEPTH = 64;

const tooDeep = () => invalidRequest(`The request is nested deeper than ${MAX_FINGERPRINT_DEPTH} levels`);

/** JSON with object keys sorted at every level, so key order never changes the fingerprint. */
export function canonicalJson(value: unknown, depth = 0): string {
  if (depth > MAX_FINGERPRINT_DEPTH) throw tooDeep();
  if (Array.isArray(value)) return `[${value.map((entry) => canonicalJson(entry, depth + 1)).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v, depth + 1)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/**
 * More values (array entries and object members, nested ones included) than a valid body of either idempotent
 * endpoint can hold: a scan has at most 14 fields and 3 lists of 20, an export 4 fields and 20 options.
 */
export const MAX_CANONICAL_VALUES = 10_000;

/**
 * SHA-256 of the request in canonical JSON. A body with more than MAX_CANONICAL_VALUES values fails validation
 * whatever its order, so it is never stored for replay; it is hashed as sent, since sorting the keys of a 2 MB body
 * of members costs about half a second before validation can refuse it.
 */
export function requestFingerprint(method: string, path: string, query: unknown, body: unknown): string {
  const request = { method, path, query, body };
  const text = hasMoreValuesThan(request, MAX_CANONICAL_VALUES) ? `as-sent:${JSON.stringify(request)}` : canonicalJson(request);
  return createHash('sha256').update(text).digest('hex');
}

/** Stops counting at the limit; iterative, and refuses the depths canonicalJson refuses, so JSON.stringify is safe. */
function hasMoreValuesThan(root: unknown, limit: number): boolean {
  const pending: Array<[unknown, number]> = [[root, 0]];
  let count = 0;
  while (pending.length > 0) {
    const [value, depth] = pending.pop()!;
    if (value === null || typeof value !== 'object') continue;
    if (depth >= MAX_FINGERPRINT_DEPTH) throw tooDeep();
    for (const key in value) {
      if (++count > limit) return true;
      pending.push([(value as Record<string, unknown>)[key], depth + 1]);
    }
  }
  return false;
}

/** 1 to 255 printable ASCII characters (spec "Limits"); the length is checked before the characters. */
export function isValidIdempotencyKey(key: string): boolean {
  return key.length >= 1 && key.length <= 255 && /^[\x20-\x7e]+$/.test(key);
}
