/** Seconds from `start` to `end` (now when the end is not recorded), never negative: for duration histograms. */
export function secondsBetween(start: Date, end: Date | null | undefined, nowMs = Date.now()): number {
  return Math.max(0, ((end?.getTime() ?? nowMs) - start.getTime()) / 1000);
}
