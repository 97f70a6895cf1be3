import { createHash } from 'node:crypto';

export type FingerprintScanMode = 'standard' | 'council';
export type DateRangeBucket = 'short' | 'medium' | 'long' | 'any';

/** What the estimator groups historical runs by; names of jurisdictions and areas never enter it. */
export interface EstimateFingerprint {
  scan_mode: FingerprintScanMode;
  engine_version: string;
  jurisdiction_bucket: string;
  area_bucket: string;
  enabled_exports_count: number;
  provider_mix_hash: string;
  date_range_bucket: DateRangeBucket;
}

/** Stable order of the fingerprint's fields, used by fingerprintKey and the similarity weights. */
export const FINGERPRINT_DIMENSIONS = [
  'scan_mode',
  'engine_version',
  'jurisdiction_bucket',
  'area_bucket',
  'date_range_bucket',
  'provider_mix_hash',
  'enabled_exports_count',
] as const satisfies readonly (keyof EstimateFingerprint)[];
export type FingerprintDimension = (typeof FINGERPRINT_DIMENSIONS)[number];

export type ProviderHints = Readonly<Record<string, string | null | undefined>>;

export interface FingerprintInput {
  jurisdictionCount: number;
  areaCount: number;
  horizon: number | null;
  engine: string;
  /** How the request runs; deliberately not part of the fingerprint, since sync and async cost the same. */
  scanMode?: 'sync' | 'async' | 'estimate';
  /** Provider hints by role (seekerProvider, analystProvider, translatorProvider); absent or empty: the default mix. */
  providers?: ProviderHints;
  enabledExportsCount?: number;
}

/** Upper bounds of the count buckets; the estimate endpoint does not cap the counts, hence the open last bucket. */
const COUNT_BUCKETS: readonly { max: number; label: string }[] = [
  { max: 1, label: '1' },
  { max: 3, label: '2-3' },
  { max: 6, label: '4-6' },
  { max: 12, label: '7-12' },
  { max: 20, label: '13-20' },
];
const OPEN_COUNT_BUCKET = '21+';

/** A representative count per bucket, for scaling costs between buckets. */
export const COUNT_BUCKET_MIDPOINTS: Readonly<Record<string, number>> = {
  '1': 1,
  '2-3': 2.5,
  '4-6': 5,
  '7-12': 9.5,
  '13-20': 16.5,
  [OPEN_COUNT_BUCKET]: 24,
};

export function countBucket(count: number): string {
  const n = Math.max(1, Math.floor(count));
  return COUNT_BUCKETS.find((bucket) => n <= bucket.max)?.label ?? OPEN_COUNT_BUCKET;
}

export function dateRangeBucket(horizon: number | null): DateRangeBucket {
  if (horizon === null) return 'any';
  if (horizon <= 6) return 'short';
  if (horizon <= 18) return 'medium';
  return 'long';
}

export function providerMixHash(providers?: ProviderHints): string {
  const entries = Object.entries(providers ?? {})
    .filter((entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1] !== '')
    .map(([role, provider]) => `${role}=${provider}`)
    .sort();
  const mix = entries.length === 0 ? 'default' : entries.join(',');
  return createHash('sha256').update(mix).digest('hex').slice(0, 12);
}

export function scanFingerprint(input: FingerprintInput): EstimateFingerprint {
  return {
    scan_mode: input.engine === 'council' ? 'council' : 'standard',
    engine_version: input.engine,
    jurisdiction_bucket: countBucket(input.jurisdictionCount),
    area_bucket: countBucket(input.areaCount),
    // Exports are costed separately today; the dimension is kept so history stays comparable once they are not.
    enabled_exports_count: input.enabledExportsCount ?? 0,
    provider_mix_hash: providerMixHash(input.providers),
    date_range_bucket: dateRangeBucket(input.horizon),
  };
}

/** Compact (it is a primary key of at most 200 chars); no value can contain `|`. */
export function fingerprintKey(fp: EstimateFingerprint): string {
  return FINGERPRINT_DIMENSIONS.map((dimension) => String(fp[dimension])).join('|');
}
