export function levenshtein(a: string, b: string): number {
  if (a === b) return 0;
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min(previous[j] + 1, current[j - 1] + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length];
}

/**
 * Longest input a suggestion is looked for. Names of providers, artifact types and options are short, and
 * Levenshtein costs input x candidate length, so a megabyte-long name must cost nothing here.
 */
export const MAX_SUGGESTION_INPUT_LENGTH = 64;

/**
 * The candidate closest to `input` (case-insensitive), or undefined when even the closest one
 * differs in more than about half of its characters, where a suggestion would only confuse,
 * or when the input is longer than MAX_SUGGESTION_INPUT_LENGTH.
 */
export function didYouMean(input: string, candidates: readonly string[]): string | undefined {
  if (input.length > MAX_SUGGESTION_INPUT_LENGTH) return undefined;
  const needle = input.toLowerCase();
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const distance = levenshtein(needle, candidate.toLowerCase());
    if (!best || distance < best.distance) best = { candidate, distance };
  }
  if (!best) return undefined;
  const limit = Math.max(2, Math.floor(Math.max(needle.length, best.candidate.length) / 2));
  return best.distance <= limit ? best.candidate : undefined;
}
