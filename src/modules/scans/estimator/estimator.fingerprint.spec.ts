import { countBucket, dateRangeBucket, FINGERPRINT_DIMENSIONS, fingerprintKey, providerMixHash, scanFingerprint } from './estimator.fingerprint';
import { validateEstimateRequest, validateScanConfig } from '../validation/scan-config.validator';

describe('scanFingerprint', () => {
  it('builds every spec field from counts, horizon and engine', () => {
    expect(scanFingerprint({ jurisdictionCount: 2, areaCount: 5, horizon: 12, engine: 'v4' })).toEqual({
      scan_mode: 'standard',
      engine_version: 'v4',
      jurisdiction_bucket: '2-3',
      area_bucket: '4-6',
      enabled_exports_count: 0,
      provider_mix_hash: providerMixHash(),
      date_range_bucket: 'medium',
    });
    expect(Object.keys(scanFingerprint({ jurisdictionCount: 1, areaCount: 1, horizon: null, engine: 'v4' })).sort()).toEqual(
      [...FINGERPRINT_DIMENSIONS].sort(),
    );
  });

  it('marks council runs as their own scan mode', () => {
    expect(scanFingerprint({ jurisdictionCount: 1, areaCount: 1, horizon: 3, engine: 'council' }).scan_mode).toBe('council');
    expect(scanFingerprint({ jurisdictionCount: 1, areaCount: 1, horizon: 3, engine: 'v4.5-beta' }).scan_mode).toBe('standard');
  });

  it('is the same for sync, async and estimate requests of one config', () => {
    const base = { jurisdictionCount: 4, areaCount: 2, horizon: 24, engine: 'v4.5-alpha' };
    const sync = scanFingerprint({ ...base, scanMode: 'sync' });
    expect(scanFingerprint({ ...base, scanMode: 'async' })).toEqual(sync);
    expect(scanFingerprint({ ...base, scanMode: 'estimate' })).toEqual(sync);
    expect(scanFingerprint(base)).toEqual(sync);
  });

  it('ignores names and their order: a scan body and an estimate body of equivalent configs agree', () => {
    const defaults = {
      defaultFetchProvider: 'fetch-a',
      defaultSearchProvider: 'search-a',
      defaultVerifyProvider: 'fetch-b',
      defaultAuditorModel: 'medium',
    } as const;
    const scan = validateScanConfig(
      { jurisdictions: ['EU', 'UK'], areas: ['AI', 'Privacy', 'Payments'], horizon: 12, engine: 'v4' },
      defaults,
    ).config!;
    const estimate = validateEstimateRequest({
      jurisdictions: ['Singapore', 'Brazil'],
      areas: ['Payments', 'AI', 'Cyber'],
      horizon: 18,
    }).request!;
    const fromScan = scanFingerprint({
      jurisdictionCount: scan.jurisdictions.length,
      areaCount: scan.areas.length,
      horizon: scan.horizon,
      engine: scan.engine,
    });
    const fromEstimate = scanFingerprint({
      jurisdictionCount: estimate.jurisdictions.length,
      areaCount: estimate.areas.length,
      horizon: estimate.horizon,
      engine: estimate.engine,
      providers: estimate.providers,
    });
    expect(fromEstimate).toEqual(fromScan);
    expect(fingerprintKey(fromEstimate)).toBe(fingerprintKey(fromScan));
  });

  it('counts the enabled exports when given', () => {
    expect(
      scanFingerprint({ jurisdictionCount: 1, areaCount: 1, horizon: 6, engine: 'v4', enabledExportsCount: 2 }).enabled_exports_count,
    ).toBe(2);
  });
});

describe('buckets', () => {
  it('groups counts into 1, 2-3, 4-6, 7-12, 13-20 and 21+', () => {
    const labels = [1, 2, 3, 4, 6, 7, 12, 13, 20, 21, 50].map(countBucket);
    expect(labels).toEqual(['1', '2-3', '2-3', '4-6', '4-6', '7-12', '7-12', '13-20', '13-20', '21+', '21+']);
  });

  it('groups horizons into short, medium, long, or any without one', () => {
    expect([3, 6, 12, 18, 24, 36].map(dateRangeBucket)).toEqual(['short', 'short', 'medium', 'medium', 'long', 'long']);
    expect(dateRangeBucket(null)).toBe('any');
  });
});

describe('providerMixHash', () => {
  it('is a short stable hash, the same with no hints, empty hints or only blank ones', () => {
    const none = providerMixHash();
    expect(none).toMatch(/^[0-9a-f]{12}$/);
    expect(providerMixHash({})).toBe(none);
    expect(providerMixHash({ seekerProvider: undefined, analystProvider: '' })).toBe(none);
  });

  it('does not depend on the order of the hints', () => {
    expect(providerMixHash({ seekerProvider: 'perplexity', analystProvider: 'anthropic' })).toBe(
      providerMixHash({ analystProvider: 'anthropic', seekerProvider: 'perplexity' }),
    );
  });

  it('tells roles apart', () => {
    expect(providerMixHash({ analystProvider: 'openai' })).not.toBe(providerMixHash({ seekerProvider: 'openai' }));
    expect(providerMixHash({ analystProvider: 'openai' })).not.toBe(providerMixHash());
  });
});

describe('fingerprintKey', () => {
  it('is stable, compact and distinct per dimension', () => {
    const fp = scanFingerprint({
      jurisdictionCount: 20,
      areaCount: 20,
      horizon: 36,
      engine: 'v4.5-alpha',
      providers: { analystProvider: 'anthropic' },
    });
    expect(fingerprintKey(fp)).toBe(fingerprintKey({ ...fp }));
    expect(fingerprintKey(fp)).toBe(`standard|v4.5-alpha|13-20|13-20|long|${fp.provider_mix_hash}|0`);
    expect(fingerprintKey(fp).length).toBeLessThanOrEqual(200);
    for (const change of [
      { jurisdiction_bucket: '1' },
      { area_bucket: '1' },
      { date_range_bucket: 'any' as const },
      { enabled_exports_count: 1 },
    ]) {
      expect(fingerprintKey({ ...fp, ...change })).not.toBe(fingerprintKey(fp));
    }
  });
});
