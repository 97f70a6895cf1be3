import { createHash } from 'node:crypto';

/** JSON with object keys sorted at every level, so key order never changes the fingerprint. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

export function requestFingerprint(method: string, path: string, query: unknown, body: unknown): string {
  return createHash('sha256').update(canonicalJson({ method, path, query, body })).digest('hex');
}

/** 1 to 255 printable ASCII characters (spec "Limits"). */
export function isValidIdempotencyKey(key: string): boolean {
  return key.length >= 1 && key.length <= 255 && /^[\x20-\x7e]+$/.test(key);
}
