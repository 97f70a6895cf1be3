import { addSample, estimate, ESTIMATOR_VERSION, FingerprintStats, MAX_SAMPLES, percentile, RECENT_WINDOW, similarityWeight } from './estimator';
import { EstimateFingerprint, scanFingerprint } from './estimator.fingerprint';

const NOW = '2026-11-02T10:00:00.000Z';
const FP = scanFingerprint({ jurisdictionCount: 2, areaCount: 2, horizon: 12, engine: 'v4' });

function stats(fingerprint: EstimateFingerprint, samples: number[]): FingerprintStats {
  return { fingerprint, samples, lastSeenAt: NOW };
}

function range(n: number, from = 1): number[] {
  return Array.from({ length: n }, (_, i) => from + i);
}

/** Deterministic PRNG (mulberry32) so the property checks are reproducible. */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('percentile', () => {
  it('interpolates linearly between ranks', () => {
    const sorted = [10, 20, 30, 40, 50];
    expect(percentile(sorted, 0)).toBe(10);
    expect(percentile(sorted, 0.5)).toBe(30);
    expect(percentile(sorted, 1)).toBe(50);
    expect(percentile(sorted, 0.1)).toBeCloseTo(14);
    expect(percentile(sorted, 0.9)).toBeCloseTo(46);
    expect(percentile([10, 20], 0.5)).toBe(15);
    expect(percentile([7], 0.9)).toBe(7);
  });

  it('refuses an empty list', () => {
    expect(() => percentile([], 0.5)).toThrow(RangeError);
  });
});

describe('estimate: cold start', () => {
  it('answers nulls, no tier, no fingerprint when there is no history', () => {
    const result = estimate(FP, 'v4', []);
    expect(result).toEqual({
      low_cents: null,
      expected_cents: null,
      high_cents: null,
      confidence: 'cold_start',
      tier: null,
      sample_size: 0,
      estimator_version: ESTIMATOR_VERSION,
      engine: 'v4',
    });
    expect('fingerprint' in result).toBe(false);
    expect(ESTIMATOR_VERSION).toBe('est-2026.11');
  });

  it('treats stats without usable samples as no history', () => {
    expect(estimate(FP, 'v4', [stats(FP, []), stats(FP, [Number.NaN, -5] as number[])]).confidence).toBe('cold_start');
  });
});

describe('estimate: tier 1 (exact fingerprint)', () => {
  it('reports p10, p50 and p90 of the exact window, rounded to whole cents', () => {
    const result = estimate(FP, 'v4', [stats(FP, [10, 20, 30, 40, 50])]);
    expect(result).toEqual({
      low_cents: 14,
      expected_cents: 30,
      high_cents: 46,
      confidence: 'medium',
      tier: 1,
      sample_size: 5,
      fingerprint: FP,
      estimator_version: ESTIMATOR_VERSION,
      engine: 'v4',
    });
  });

  it('needs three samples', () => {
    expect(estimate(FP, 'v4', [stats(FP, [10, 20, 30])]).tier).toBe(1);
    expect(estimate(FP, 'v4', [stats(FP, [10, 20])]).tier).not.toBe(1);
  });

  it('is high confidence from 20 samples', () => {
    expect(estimate(FP, 'v4', [stats(FP, range(19))]).confidence).toBe('medium');
    expect(estimate(FP, 'v4', [stats(FP, range(20))]).confidence).toBe('high');
  });

  it('looks only at the newest samples', () => {
    const samples = [...Array(MAX_SAMPLES - RECENT_WINDOW).fill(1000), ...Array(RECENT_WINDOW).fill(40)];
    const result = estimate(FP, 'v4', [stats(FP, samples)]);
    expect(result).toMatchObject({ low_cents: 40, expected_cents: 40, high_cents: 40, sample_size: RECENT_WINDOW });
  });

  it('rounds fractional cents', () => {
    expect(estimate(FP, 'v4', [stats(FP, [10.4, 10.6, 12.2])])).toMatchObject({ low_cents: 10, expected_cents: 11, high_cents: 12 });
  });

  it('ignores other fingerprints when the exact one has enough samples', () => {
    const other = { ...FP, area_bucket: '13-20' };
    expect(estimate(FP, 'v4', [stats(other, [9000, 9000, 9000]), stats(FP, [10, 10, 10])]).expected_cents).toBe(10);
  });
});

describe('estimate: tier 2 (one dimension relaxed)', () => {
  it('pools the fingerprints that differ in exactly one relaxable dimension', () => {
    const result = estimate(FP, 'v4', [
      stats({ ...FP, jurisdiction_bucket: '4-6' }, [100]),
      stats({ ...FP, date_range_bucket: 'long' }, [200]),
      stats({ ...FP, provider_mix_hash: 'abcdefabcdef' }, [300]),
      stats({ ...FP, enabled_exports_count: 1 }, [400]),
      stats({ ...FP, area_bucket: '1' }, [500]),
    ]);
    expect(result).toMatchObject({
      tier: 2,
      confidence: 'low',
      sample_size: 5,
      low_cents: 140,
      expected_cents: 300,
      high_cents: 460,
      fingerprint: FP,
    });
  });

  it('includes the exact fingerprint when it has too few samples of its own', () => {
    const result = estimate(FP, 'v4', [stats(FP, [10, 20]), stats({ ...FP, area_bucket: '1' }, [30])]);
    expect(result).toMatchObject({ tier: 2, sample_size: 3, expected_cents: 20 });
  });

  it('leaves out fingerprints two dimensions away, or of another engine or scan mode', () => {
    const result = estimate(FP, 'v4', [
      stats({ ...FP, area_bucket: '1', date_range_bucket: 'long' }, [1, 1, 1]),
      stats({ ...FP, engine_version: 'v4.5-alpha' }, [1, 1, 1]),
      stats({ ...FP, scan_mode: 'council' }, [1, 1, 1]),
      stats({ ...FP, area_bucket: '1' }, [100, 100]),
    ]);
    expect(result.tier).toBe(3);
  });

  it('is medium confidence from 20 pooled samples', () => {
    expect(estimate(FP, 'v4', [stats({ ...FP, area_bucket: '1' }, range(19))]).confidence).toBe('low');
    expect(
      estimate(FP, 'v4', [stats({ ...FP, area_bucket: '1' }, range(10)), stats({ ...FP, area_bucket: '4-6' }, range(10))]).confidence,
    ).toBe('medium');
  });
});

describe('estimate: tier 3 (global similarity-weighted mean)', () => {
  it('uses whatever history exists, at low confidence', () => {
    const other = scanFingerprint({ jurisdictionCount: 2, areaCount: 2, horizon: 12, engine: 'council' });
    const result = estimate(FP, 'v4', [stats(other, [100])]);
    expect(result).toMatchObject({
      tier: 3,
      confidence: 'low',
      sample_size: 1,
      expected_cents: 100,
      low_cents: 75,
      high_cents: 125,
      fingerprint: FP,
    });
  });

  it('weighs fingerprints by similarity, the engine most', () => {
    const sameEngine = { ...FP, date_range_bucket: 'long' as const, provider_mix_hash: 'abcdefabcdef', enabled_exports_count: 1 };
    const otherEngine = { ...FP, engine_version: 'v4.5-beta' };
    expect(similarityWeight(FP, FP)).toBeGreaterThan(similarityWeight(FP, otherEngine));
    expect(similarityWeight(FP, sameEngine)).toBeGreaterThan(
      similarityWeight(FP, { ...FP, engine_version: 'v4.5-beta', date_range_bucket: 'long' }),
    );
    const result = estimate(FP, 'v4', [stats(sameEngine, [100]), stats(otherEngine, [1000])]);
    // sameEngine shares 4 of 7 dimensions (weight 2^(4+2+1+1)), otherEngine all but the engine (weight 2^(2+1+1+1+1+1)).
    expect(result.expected_cents).toBe(Math.round((100 * 256 + 1000 * 128) / 384));
  });

  it('scales other sizes by the square root of the jurisdiction x area ratio, clamped', () => {
    const small = scanFingerprint({ jurisdictionCount: 1, areaCount: 1, horizon: 12, engine: 'v4.5-beta' });
    const target = scanFingerprint({ jurisdictionCount: 4, areaCount: 5, horizon: 12, engine: 'v4' }); // 5 x 5 midpoints
    expect(estimate(target, 'v4', [stats(small, [100])]).expected_cents).toBe(400);
    const huge = scanFingerprint({ jurisdictionCount: 20, areaCount: 20, horizon: 12, engine: 'v4' });
    expect(estimate(huge, 'v4', [stats(small, [100])]).expected_cents).toBe(400);
    expect(estimate(small, 'v4.5-beta', [stats({ ...huge, engine_version: 'v4' }, [100])]).expected_cents).toBe(25);
  });

  it('widens the band with the weighted spread', () => {
    const other = { ...FP, engine_version: 'council', scan_mode: 'council' as const };
    const result = estimate(FP, 'v4', [stats(other, [0, 200])]);
    // mean 100, sd 100: 100 ± 1.2816 * 100
    expect(result).toMatchObject({ expected_cents: 100, low_cents: 0, high_cents: 228, sample_size: 2 });
  });
});

describe('estimate: property', () => {
  it('always orders low <= expected <= high as non-negative whole cents', () => {
    const random = rng(42);
    const buckets = ['1', '2-3', '4-6', '7-12', '13-20'];
    const engines = ['v4', 'v4.5-alpha', 'v4.5-beta', 'council'];
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
    for (let run = 0; run < 500; run++) {
      const history: FingerprintStats[] = [];
      for (let i = Math.floor(random() * 6); i > 0; i--) {
        const engine = pick(engines);
        const fingerprint: EstimateFingerprint = {
          ...FP,
          engine_version: engine,
          scan_mode: engine === 'council' ? 'council' : 'standard',
          jurisdiction_bucket: pick(buckets),
          area_bucket: pick(buckets),
          date_range_bucket: pick(['short', 'medium', 'long', 'any'] as const),
        };
        const samples = Array.from({ length: Math.floor(random() * 30) }, () => Math.round(random() * 5000 * 100) / 100);
        history.push(stats(fingerprint, samples));
      }
      const target = { ...FP, jurisdiction_bucket: pick(buckets), area_bucket: pick(buckets) };
      const result = estimate(target, 'v4', history);
      if (result.tier === null) {
        expect(result.expected_cents).toBeNull();
        continue;
      }
      const { low_cents: low, expected_cents: expected, high_cents: high } = result;
      for (const value of [low, expected, high]) expect(Number.isInteger(value) && value! >= 0).toBe(true);
      expect(low!).toBeLessThanOrEqual(expected!);
      expect(expected!).toBeLessThanOrEqual(high!);
      expect(result.sample_size).toBeGreaterThan(0);
    }
  });
});

describe('addSample', () => {
  it('starts stats for a new fingerprint', () => {
    expect(addSample(undefined, FP, 12.5, new Date(NOW))).toEqual({ fingerprint: FP, samples: [12.5], lastSeenAt: NOW });
  });

  it('appends newest last and keeps only the newest MAX_SAMPLES', () => {
    let current: FingerprintStats | undefined;
    for (const cost of range(MAX_SAMPLES + 5)) current = addSample(current, FP, cost, NOW);
    expect(current!.samples).toHaveLength(MAX_SAMPLES);
    expect(current!.samples[0]).toBe(6);
    expect(current!.samples.at(-1)).toBe(MAX_SAMPLES + 5);
  });

  it('does not modify the stats it is given', () => {
    const before = stats(FP, [1, 2]);
    const after = addSample(before, FP, 3, '2026-11-03T00:00:00.000Z');
    expect(before.samples).toEqual([1, 2]);
    expect(after).toEqual({ fingerprint: FP, samples: [1, 2, 3], lastSeenAt: '2026-11-03T00:00:00.000Z' });
  });

  it('refuses a negative or non-finite cost and stats of another fingerprint', () => {
    expect(() => addSample(undefined, FP, -1, NOW)).toThrow(RangeError);
    expect(() => addSample(undefined, FP, Number.POSITIVE_INFINITY, NOW)).toThrow(RangeError);
    expect(() => addSample(stats({ ...FP, area_bucket: '1' }, [1]), FP, 1, NOW)).toThrow(/another fingerprint/);
  });
});
