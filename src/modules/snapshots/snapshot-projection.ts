/**
 * Keys that hold private data (auditor failure diagnostics, register sources, the writer's plain-English register
 * and the matches the item cap left out, both for exports); no read path returns them.
 */
export const PRIVATE_ENVELOPE_KEYS = ['_auditor_private', '_plain', '_beyond_cap', '_simple'];

const CITATION_MARKER = /\s?\[\[cite:\d+\]\]/g;

/** Plain-prose fields whose citation markers are stripped on reads from persistence. */
export function stripCitationMarkers(text: string): string {
  return text.replace(CITATION_MARKER, '');
}

function withoutPrivateKeys(envelope: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(envelope)) if (!PRIVATE_ENVELOPE_KEYS.includes(key)) out[key] = value;
  return out;
}

function stripProse(value: unknown): unknown {
  if (typeof value === 'string') return stripCitationMarkers(value);
  if (Array.isArray(value)) return value.map(stripProse);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, k === 'citations' || k === 'url' ? v : stripProse(v)]),
    );
  }
  return value;
}

/**
 * The envelope as live and synchronous completions send it: private keys removed, markers kept.
 * Unknown keys pass through unchanged (the envelope is open).
 */
export function liveProjection(envelope: Record<string, unknown>): Record<string, unknown> {
  return withoutPrivateKeys(envelope);
}

/** The envelope as every read from persistence returns it: private keys removed and markers stripped from prose. */
export function storedProjection(envelope: Record<string, unknown>): Record<string, unknown> {
  return stripProse(withoutPrivateKeys(envelope)) as Record<string, unknown>;
}
