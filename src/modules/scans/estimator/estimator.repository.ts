import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { EstimatorStats } from '../entities/estimator-stats.entity';
import type { FingerprintStats } from './estimator';
import { fingerprintKey, type EstimateFingerprint } from './estimator.fingerprint';

/** The estimator's history: per-fingerprint samples of actual costs, a bounded table read whole. */
@Injectable()
export class EstimatorRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async all(): Promise<FingerprintStats[]> {
    return (await this.dataSource.getRepository(EstimatorStats).find()).map(toStats);
  }

  /** Replaces a fingerprint's samples with `update(current)` under a row lock (created on first use). */
  async updateSamples(
    fingerprint: EstimateFingerprint,
    now: Date,
    update: (current: FingerprintStats | undefined) => FingerprintStats,
  ): Promise<void> {
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
      const updated = update(row.samples.length ? toStats(row) : undefined);
      await manager.query('UPDATE estimator_stats SET samples = $2, last_seen_at = $3 WHERE fingerprint_key = $1', [
        key,
        JSON.stringify(updated.samples),
        updated.lastSeenAt,
      ]);
    });
  }
}

function toStats(row: EstimatorStats): FingerprintStats {
  return { fingerprint: row.fingerprint as unknown as EstimateFingerprint, samples: row.samples, lastSeenAt: row.lastSeenAt.toISOString() };
}
