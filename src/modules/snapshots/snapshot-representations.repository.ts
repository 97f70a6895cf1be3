import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { SNAPSHOT_PROJECTION_VERSION, type IfNoneMatch } from './conditional-response';

/** A representation's key: the snapshot (with its account), the resource and its variant. */
export interface RepresentationKey {
  accountId: string;
  snapshotId: string;
  resource: string;
  variant: string;
}

/** A stored representation as a read gets it: `body` is null when If-None-Match named its tag (a 304 needs none). */
export interface StoredRepresentation {
  etag: string;
  body: string | null;
}

/**
 * snapshot_representations: reads by primary key (snapshot, resource, variant), checked against the account and
 * the projection version on the same row, so a read is one index lookup and no join.
 */
@Injectable()
export class SnapshotRepresentationsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The stored representation of the current projection version, or undefined when none is stored yet. */
  async find(key: RepresentationKey, ifNoneMatch: IfNoneMatch): Promise<StoredRepresentation | undefined> {
    // The tag comparison runs in the query, so a 304 never carries the body over the wire.
    const rows = await this.dataSource.query<StoredRepresentation[]>(
      `SELECT etag, CASE WHEN $5::boolean OR etag = ANY($6::text[]) THEN NULL ELSE body END AS body
       FROM snapshot_representations
       WHERE snapshot_id = $1 AND resource = $2 AND variant = $3 AND account_id = $4 AND projection_version = $7`,
      [key.snapshotId, key.resource, key.variant, key.accountId, ifNoneMatch === '*', ifNoneMatch === '*' ? [] : ifNoneMatch, SNAPSHOT_PROJECTION_VERSION],
    );
    return rows[0];
  }

  /**
   * Keeps a derived representation. Concurrent first reads derive the same bytes, so the first insert wins; a row
   * of an older projection version is replaced, one of a newer version (a process not yet upgraded) is left alone.
   */
  async store(key: RepresentationKey, etag: string, body: string): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO snapshot_representations (snapshot_id, resource, variant, account_id, projection_version, etag, body)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (snapshot_id, resource, variant) DO UPDATE
         SET projection_version = EXCLUDED.projection_version, etag = EXCLUDED.etag, body = EXCLUDED.body, created_at = now()
         WHERE snapshot_representations.projection_version < EXCLUDED.projection_version`,
      [key.snapshotId, key.resource, key.variant, key.accountId, SNAPSHOT_PROJECTION_VERSION, etag, body],
    );
  }
}
