import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { EstimatorStats } from './entities/estimator-stats.entity';
import { addSample, estimate, type EstimateResponse, type FingerprintStats } from './estimator/estimator';
import { fingerprintKey, scanFingerprint, type EstimateFingerprint } from './estimator/estimator.fingerprint';
import type { ResolvedScanConfig } from '../../domain/scan-config.types';
import type { ValidatedEstimateRequest } from './validation/scan-config.validator';

/** How long this process reuses the history it loaded; estimates tolerate samples that are seconds old. */
const STATS_TTL_MS = 30_000;

/** The estimator's database side: per-fingerprint samples of actual costs, a bounded table read whole. */
@Injectable()
export class EstimatorService {
  private cached?: { stats: Promise<FingerprintStats[]>; loadedAt: number; estimates: Map<string, EstimateResponse> };

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

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
    const key = fingerprintKey(fingerprint);
    await this.dataSource.transaction(async (manager) => {
      // Create-then-lock, so two first samples of a fingerprint cannot race each other.
      await manager.query(
        `INSERT INTO estimator_stats (fingerprint_key, engine_version, fingerprint, samples, last_seen_at)
         VALUES ($1, $2, $3, '[]', $4) ON CONFLICT (fingerprint_key) DO NOTHING`,
        [key, fingerprint.engine_version, JSON.stringify(fingerprint), now],
      );
      const row = await manager
        .getRepository(EstimatorStats)
        .createQueryBuilder('s')
        .setLock('pessimistic_write')
        .where('s.fingerprint_key = :key', { key })
        .getOneOrFail();
      const updated = addSample(row.samples.length ? toStats(row) : undefined, fingerprint, costCents, now.toISOString());
      await manager.query('UPDATE estimator_stats SET samples = $2, last_seen_at = $3 WHERE fingerprint_key = $1', [
        key,
        JSON.stringify(updated.samples),
        updated.lastSeenAt,
      ]);
    });
    this.cached = undefined;
  }

  /** One load at a time per process, shared by concurrent estimates (the table parses in tens of ms at 100k samples). */
  private loadStats(): Promise<FingerprintStats[]> {
    const now = Date.now();
    if (!this.cached || now - this.cached.loadedAt > STATS_TTL_MS) {
      const stats = this.dataSource
        .getRepository(EstimatorStats)
        .find()
        .then((rows) => rows.map(toStats));
      this.cached = { stats, loadedAt: now, estimates: new Map() };
      stats.catch(() => (this.cached = undefined));
    }
    return this.cached.stats;
  }
}

function toStats(row: EstimatorStats): FingerprintStats {
  return { fingerprint: row.fingerprint as unknown as EstimateFingerprint, samples: row.samples, lastSeenAt: row.lastSeenAt.toISOString() };
}
