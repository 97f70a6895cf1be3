import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { IdempotencyRecord } from './idempotency-record.entity';

export interface RecordKey {
  apiKeyId: string;
  endpoint: string;
  idempotencyKey: string;
}

@Injectable()
export class IdempotencyRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Claims the key for this request. A record that expired, or an in-progress claim abandoned by a dead process,
   * is taken over; otherwise the existing record is returned for the caller to judge.
   */
  async claim(
    key: RecordKey,
    fingerprint: string,
    ttlSeconds: number,
    staleSeconds: number,
    attempt = 0,
  ): Promise<{ claimed: true } | { claimed: false; existing: IdempotencyRecord }> {
    const rows: Array<{ inserted: boolean }> = await this.dataSource.query(
      `INSERT INTO idempotency_records (api_key_id, endpoint, idempotency_key, fingerprint, state, expires_at)
       VALUES ($1, $2, $3, $4, 'in_progress', now() + make_interval(secs => $5))
       ON CONFLICT (api_key_id, endpoint, idempotency_key) DO UPDATE
         SET fingerprint = EXCLUDED.fingerprint, state = 'in_progress', response_status = NULL,
             response_headers = NULL, response_body = NULL, created_at = now(), expires_at = EXCLUDED.expires_at
         WHERE idempotency_records.expires_at < now()
            OR (idempotency_records.state = 'in_progress' AND idempotency_records.created_at < now() - make_interval(secs => $6))
       RETURNING true AS inserted`,
      [key.apiKeyId, key.endpoint, key.idempotencyKey, fingerprint, ttlSeconds, staleSeconds],
    );
    if (rows.length) return { claimed: true };
    const existing = await this.dataSource.getRepository(IdempotencyRecord).findOneBy({ ...key });
    // Released between our insert attempt and the read: claim again.
    if (!existing && attempt < 3) return this.claim(key, fingerprint, ttlSeconds, staleSeconds, attempt + 1);
    if (!existing) throw new Error('idempotency record vanished repeatedly while claiming');
    return { claimed: false, existing };
  }

  async complete(key: RecordKey, status: number, headers: Record<string, string>, body: unknown): Promise<void> {
    await this.dataSource.query(
      `UPDATE idempotency_records SET state = 'completed', response_status = $4, response_headers = $5, response_body = $6
        WHERE api_key_id = $1 AND endpoint = $2 AND idempotency_key = $3`,
      [key.apiKeyId, key.endpoint, key.idempotencyKey, status, JSON.stringify(headers), JSON.stringify(body ?? null)],
    );
  }

  async release(key: RecordKey): Promise<void> {
    await this.dataSource.query(
      `DELETE FROM idempotency_records WHERE api_key_id = $1 AND endpoint = $2 AND idempotency_key = $3 AND state = 'in_progress'`,
      [key.apiKeyId, key.endpoint, key.idempotencyKey],
    );
  }

  async purgeExpired(limit: number): Promise<number> {
    const result: [unknown[], number] = await this.dataSource.query(
      `DELETE FROM idempotency_records WHERE ctid IN (SELECT ctid FROM idempotency_records WHERE expires_at < now() LIMIT $1)`,
      [limit],
    );
    return result[1] ?? 0;
  }
}
