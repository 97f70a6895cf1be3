import { Injectable } from '@nestjs/common';
import { addSample, estimate, type EstimateResponse, type FingerprintStats } from './estimator';
import { EstimatorRepository } from './estimator.repository';
import { fingerprintKey, scanFingerprint, type EstimateFingerprint } from './estimator.fingerprint';
import type { ResolvedScanConfig } from '../../../domain/scan-config.types';
import type { ValidatedEstimateRequest } from '../validation/scan-config.validator';

/** How long this process reuses the history it loaded; estimates tolerate samples that are seconds old. */
const STATS_TTL_MS = 30_000;

/** The estimator's database side: per-fingerprint samples of actual costs, a bounded table read whole. */
@Injectable()
export class EstimatorService {
  private cached?: { stats: Promise<FingerprintStats[]>; loadedAt: number; estimates: Map<string, EstimateResponse> };

  constructor(private readonly repository: EstimatorRepository) {}

  fingerprintOfConfig(config: ResolvedScanConfig): EstimateFingerprint {
    return scanFingerprint({
      jurisdictionCount: config.jurisdictions.length,
      areaCount: config.areas.length,
      horizon: config.horizon,
      engine: config.engine,
    });
  }

  async estimateConfig(config: ResolvedScanConfig): Promise<EstimateResponse> {
    return this.estimateFor(this.fingerprintOfConfig(config), config.engine);
  }

  async estimateRequest(request: ValidatedEstimateRequest): Promise<EstimateResponse> {
    const fingerprint = scanFingerprint({
      jurisdictionCount: request.jurisdictions.length,
      areaCount: request.areas.length,
      horizon: request.horizon,
      engine: request.engine,
      providers: { ...request.providers },
    });
    return this.estimateFor(fingerprint, request.engine);
  }

  /** Estimates are a pure function of the loaded history, so each fingerprint is computed once per load. */
  private async estimateFor(fingerprint: EstimateFingerprint, engine: string): Promise<EstimateResponse> {
    const stats = await this.loadStats();
    const memo = this.cached!.estimates;
    const key = `${fingerprintKey(fingerprint)}|${engine}`;
    let result = memo.get(key);
    if (!result) {
      result = estimate(fingerprint, engine, stats);
      memo.set(key, result);
    }
    return structuredClone(result);
  }

  /** Feeds a finished scan's actual cost back into its fingerprint's samples. */
  async recordActual(fingerprint: EstimateFingerprint, costCents: number, now: Date): Promise<void> {
    await this.repository.updateSamples(fingerprint, now, (current) =>
      addSample(current, fingerprint, costCents, now.toISOString()),
    );
    this.cached = undefined;
  }

  /** One load at a time per process, shared by concurrent estimates (the table parses in tens of ms at 100k samples). */
  private loadStats(): Promise<FingerprintStats[]> {
    const now = Date.now();
    if (!this.cached || now - this.cached.loadedAt > STATS_TTL_MS) {
      const stats = this.repository.all();
      this.cached = { stats, loadedAt: now, estimates: new Map() };
      stats.catch(() => (this.cached = undefined));
    }
    return this.cached.stats;
  }
}
