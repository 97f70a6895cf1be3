import { COUNT_BUCKET_MIDPOINTS, EstimateFingerprint, FINGERPRINT_DIMENSIONS, FingerprintDimension, fingerprintKey } from './estimator.fingerprint';

export const ESTIMATOR_VERSION = 'est-2026.11';
/** Samples kept per fingerprint. */
export const MAX_SAMPLES = 200;
/** Newest samples per fingerprint an estimate looks at, so price changes show up within a few dozen runs. */
export const RECENT_WINDOW = 50;
export const MIN_TIER1_SAMPLES = 3;
export const MIN_TIER2_SAMPLES = 3;
/** Samples behind a tier 1 estimate for `high` confidence, behind a tier 2 one for `medium`. */
export const CONFIDENT_SAMPLES = 20;

/** The dimensions tier 2 may relax, one at a time; scan_mode and engine_version must always match. */
export const RELAXABLE_DIMENSIONS = [
  'jurisdiction_bucket',
  'area_bucket',
  'date_range_bucket',
  'provider_mix_hash',
  'enabled_exports_count',
] as const satisfies readonly FingerprintDimension[];

/** Tier 3 weighs a fingerprint 2^(sum of the weights of the dimensions it shares with the target). */
export const SIMILARITY_WEIGHTS: Readonly<Record<FingerprintDimension, number>> = {
  engine_version: 4,
  scan_mode: 2,
  jurisdiction_bucket: 1,
  area_bucket: 1,
  date_range_bucket: 1,
  provider_mix_hash: 1,
  enabled_exports_count: 1,
};

/** z for the 10th/90th percentile of a normal distribution: tier 3 reports the same band as tiers 1 and 2. */
const Z_P90 = 1.2816;
/** Tier 3 borrows from other configs, so its band is never narrower than ±25 % of the expected cost. */
const MIN_TIER3_RELATIVE_SPREAD = 0.25;
const MIN_SCALE = 0.25;
const MAX_SCALE = 4;

export type EstimateConfidence = 'high' | 'medium' | 'low' | 'cold_start';
export type EstimateTier = 1 | 2 | 3;

export interface EstimateResponse {
  low_cents: number | null;
  expected_cents: number | null;
  high_cents: number | null;
  confidence: EstimateConfidence;
  tier: EstimateTier | null;
  sample_size: number;
  /** Absent on a cold start. */
  fingerprint?: EstimateFingerprint;
  estimator_version: string;
  engine: string;
}

export interface FingerprintStats {
  fingerprint: EstimateFingerprint;
  /** Recent actual costs in cents, newest last, at most MAX_SAMPLES. */
  samples: number[];
  lastSeenAt: string;
}

/** Linear interpolation between the closest ranks (numpy's default); `sorted` ascending and non-empty. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) throw new RangeError('percentile of no samples');
  const rank = (sorted.length - 1) * Math.min(1, Math.max(0, p));
  const lower = Math.floor(rank);
  const upper = Math.min(lower + 1, sorted.length - 1);
  return sorted[lower] + (rank - lower) * (sorted[upper] - sorted[lower]);
}

export function estimate(fp: EstimateFingerprint, engine: string, stats: readonly FingerprintStats[]): EstimateResponse {
  const usable = stats
    .map((entry) => ({ fingerprint: entry.fingerprint, samples: recentSamples(entry.samples) }))
    .filter((entry) => entry.samples.length > 0);
  const key = fingerprintKey(fp);

  const exact = usable.filter((entry) => fingerprintKey(entry.fingerprint) === key).flatMap((entry) => entry.samples);
  if (exact.length >= MIN_TIER1_SAMPLES) {
    return fromPercentiles(exact, 1, exact.length >= CONFIDENT_SAMPLES ? 'high' : 'medium', fp, engine);
  }

  // The exact fingerprint's few samples join its neighbours rather than being thrown away.
  const neighbours = usable.filter((entry) => relaxedDistance(fp, entry.fingerprint) <= 1).flatMap((entry) => entry.samples);
  if (neighbours.length >= MIN_TIER2_SAMPLES) {
    return fromPercentiles(neighbours, 2, neighbours.length >= CONFIDENT_SAMPLES ? 'medium' : 'low', fp, engine);
  }

  if (usable.length > 0) return similarityWeighted(fp, engine, usable);

  return {
    low_cents: null,
    expected_cents: null,
    high_cents: null,
    confidence: 'cold_start',
    tier: null,
    sample_size: 0,
    estimator_version: ESTIMATOR_VERSION,
    engine,
  };
}

/** Records one actual cost (fractional cents are kept; estimates round). Returns a new object. */
export function addSample(
  stats: FingerprintStats | undefined,
  fp: EstimateFingerprint,
  cost: number,
  now: Date | string,
): FingerprintStats {
  if (!Number.isFinite(cost) || cost < 0) throw new RangeError(`A scan cost must be a non-negative number of cents, got ${cost}`);
  if (stats && fingerprintKey(stats.fingerprint) !== fingerprintKey(fp)) {
    throw new Error('addSample: the stats belong to another fingerprint');
  }
  const samples = [...(stats?.samples ?? []), cost].slice(-MAX_SAMPLES);
  return { fingerprint: { ...fp }, samples, lastSeenAt: typeof now === 'string' ? now : now.toISOString() };
}

function recentSamples(samples: readonly unknown[]): number[] {
  // Rows come from storage, so anything that is not a cost is skipped rather than trusted.
  const costs = samples.filter((value): value is number => typeof value === 'number' && Number.isFinite(value) && value >= 0);
  return costs.slice(-RECENT_WINDOW);
}

/** Number of relaxable dimensions that differ; Infinity when scan_mode or engine_version differ. */
function relaxedDistance(target: EstimateFingerprint, other: EstimateFingerprint): number {
  if (target.scan_mode !== other.scan_mode || target.engine_version !== other.engine_version) return Infinity;
  return RELAXABLE_DIMENSIONS.filter((dimension) => target[dimension] !== other[dimension]).length;
}

function fromPercentiles(
  samples: number[],
  tier: EstimateTier,
  confidence: EstimateConfidence,
  fp: EstimateFingerprint,
  engine: string,
): EstimateResponse {
  const sorted = [...samples].sort((a, b) => a - b);
  return band(percentile(sorted, 0.1), percentile(sorted, 0.5), percentile(sorted, 0.9), tier, confidence, samples.length, fp, engine);
}

/**
 * Tier 3: a weighted mean over every sample, each weighted by how alike its fingerprint is to the target, and
 * scaled from its fingerprint's size (jurisdictions x areas, by bucket midpoint) to the target's. The scale is the
 * square root of the size ratio, clamped to [0.25, 4]: part of a run's cost (planning, sub-edit, finalise, and all
 * of an offline run) does not grow with the number of pairs.
 */
function similarityWeighted(
  fp: EstimateFingerprint,
  engine: string,
  entries: { fingerprint: EstimateFingerprint; samples: number[] }[],
): EstimateResponse {
  let totalWeight = 0;
  let weightedSum = 0;
  const points: { value: number; weight: number }[] = [];
  for (const entry of entries) {
    const weight = similarityWeight(fp, entry.fingerprint);
    const scale = sizeScale(entry.fingerprint, fp);
    for (const sample of entry.samples) {
      const value = sample * scale;
      points.push({ value, weight });
      totalWeight += weight;
      weightedSum += weight * value;
    }
  }
  const mean = weightedSum / totalWeight;
  const variance = points.reduce((sum, point) => sum + point.weight * (point.value - mean) ** 2, 0) / totalWeight;
  const spread = Math.max(Z_P90 * Math.sqrt(variance), MIN_TIER3_RELATIVE_SPREAD * mean);
  return band(Math.max(0, mean - spread), mean, mean + spread, 3, 'low', points.length, fp, engine);
}

export function similarityWeight(target: EstimateFingerprint, other: EstimateFingerprint): number {
  const score = FINGERPRINT_DIMENSIONS.reduce(
    (sum, dimension) => sum + (target[dimension] === other[dimension] ? SIMILARITY_WEIGHTS[dimension] : 0),
    0,
  );
  return 2 ** score;
}

function bucketSize(fp: EstimateFingerprint): number {
  return (COUNT_BUCKET_MIDPOINTS[fp.jurisdiction_bucket] ?? 1) * (COUNT_BUCKET_MIDPOINTS[fp.area_bucket] ?? 1);
}

function sizeScale(from: EstimateFingerprint, to: EstimateFingerprint): number {
  return Math.min(MAX_SCALE, Math.max(MIN_SCALE, Math.sqrt(bucketSize(to) / bucketSize(from))));
}

function band(
  low: number,
  expected: number,
  high: number,
  tier: EstimateTier,
  confidence: EstimateConfidence,
  sampleSize: number,
  fp: EstimateFingerprint,
  engine: string,
): EstimateResponse {
  // Math.round is monotonic, so the low <= expected <= high order survives rounding.
  return {
    low_cents: Math.round(low),
    expected_cents: Math.round(expected),
    high_cents: Math.round(high),
    confidence,
    tier,
    sample_size: sampleSize,
    fingerprint: { ...fp },
    estimator_version: ESTIMATOR_VERSION,
    engine,
  };
}
