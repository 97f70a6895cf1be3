import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Snapshot } from './entities/snapshot.entity';
import { SnapshotTotalsCache } from './snapshot-totals.cache';
import { type SnapshotKind } from '../../domain/snapshot-kinds';

export interface SnapshotListFilter {
  from?: Date;
  to?: Date;
  /** Lower-cased: matched exactly against jurisdiction_keys. */
  jurisdiction?: string;
  /** Lower-cased: matched exactly against area_keys. */
  area?: string;
  limit: number;
  offset: number;
}

/** The columns a list item needs (never the envelope). */
export interface SnapshotListRow {
  id: string;
  title: string;
  scan_id: string;
  engine: string;
  horizon: number;
  jurisdictions: string[];
  areas: string[];
  item_count: number;
  cost_cents: string | null;
  estimate_cents: number | null;
  created_at: Date;
  kind: SnapshotKind;
}

const LIST_COLUMNS = 'id, title, scan_id, engine, horizon, jurisdictions, areas, item_count, cost_cents, estimate_cents, created_at, kind';

/**
 * The WHERE clause of the list, always scoped to the account. The account + created_at btree serves the scope, the
 * range and the order; `@>` on the lower-cased key arrays can use their GIN indexes.
 */
export function listWhere(accountId: string, filter: Omit<SnapshotListFilter, 'limit' | 'offset'>): { sql: string; params: unknown[] } {
  const params: unknown[] = [accountId];
  const clauses = ['account_id = $1'];
  if (filter.from) clauses.push(`created_at >= $${params.push(filter.from)}`);
  if (filter.to) clauses.push(`created_at < $${params.push(filter.to)}`);
  if (filter.jurisdiction !== undefined) clauses.push(`jurisdiction_keys @> ARRAY[$${params.push(filter.jurisdiction)}::text]`);
  if (filter.area !== undefined) clauses.push(`area_keys @> ARRAY[$${params.push(filter.area)}::text]`);
  return { sql: clauses.join(' AND '), params };
}

/** The page query: newest first, id breaking ties so pages never overlap or skip. */
export function listPageQuery(accountId: string, filter: SnapshotListFilter): { sql: string; params: unknown[] } {
  const where = listWhere(accountId, filter);
  const params = [...where.params];
  const limit = `$${params.push(filter.limit)}`;
  const offset = `$${params.push(filter.offset)}`;
  return {
    sql: `SELECT ${LIST_COLUMNS} FROM snapshots WHERE ${where.sql} ORDER BY created_at DESC, id DESC LIMIT ${limit} OFFSET ${offset}`,
    params,
  };
}

export function listCountQuery(accountId: string, filter: SnapshotListFilter): { sql: string; params: unknown[] } {
  const where = listWhere(accountId, filter);
  return { sql: `SELECT count(*)::int AS total FROM snapshots WHERE ${where.sql}`, params: where.params };
}

@Injectable()
export class SnapshotsRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly totals: SnapshotTotalsCache,
  ) {}

  async insert(manager: EntityManager, snapshot: Snapshot): Promise<unknown> {
    // The jsonb envelope defeats TypeORM's deep-partial typing; the row is complete.
    const result = await manager.getRepository(Snapshot).insert(snapshot as never);
    await this.totals.snapshotInserted(manager, snapshot.accountId);
    return result;
  }

  findOwned(accountId: string, id: string): Promise<Snapshot | null> {
    return this.dataSource.getRepository(Snapshot).findOneBy({ id, accountId });
  }

  /** One page of the account's snapshots and the filtered total, fetched side by side. */
  async list(accountId: string, filter: SnapshotListFilter): Promise<{ rows: SnapshotListRow[]; total: number }> {
    const page = listPageQuery(accountId, filter);
    const [rows, total] = await Promise.all([
      this.dataSource.query<SnapshotListRow[]>(page.sql, page.params),
      this.total(accountId, filter),
    ]);
    return { rows, total };
  }

  /** The filtered total: from the totals cache when it holds a valid one, else counted (and cached when large). */
  private async total(accountId: string, filter: SnapshotListFilter): Promise<number> {
    const key = JSON.stringify([
      filter.from?.toISOString() ?? null,
      filter.to?.toISOString() ?? null,
      filter.jurisdiction ?? null,
      filter.area ?? null,
    ]);
    const cached = await this.totals.lookup(accountId, key).catch(() => undefined);
    if (cached?.total !== undefined) return cached.total;
    const count = listCountQuery(accountId, filter);
    const [{ total }] = await this.dataSource.query<Array<{ total: number }>>(count.sql, count.params);
    if (cached) await this.totals.store(accountId, key, cached.generation, total).catch(() => undefined);
    return total;
  }

  /**
   * The drift baseline of `snapshot`: the newest earlier snapshot (by created_at, then id) of the same account
   * with the same horizon that shares at least one jurisdiction and one area (case-insensitive), from another
   * scan. Standard and council composite snapshots compare with each other; a council seat only with an earlier
   * seat of the same lens (`_meta.council_seat`), so a seat's one-lens view never becomes a baseline of a full
   * briefing or the reverse.
   */
  findBaseline(snapshot: Snapshot): Promise<Snapshot | null> {
    const query = this.dataSource
      .getRepository(Snapshot)
      .createQueryBuilder('s')
      .where('s.accountId = :accountId', { accountId: snapshot.accountId })
      .andWhere('(s.createdAt, s.id) < (SELECT c.created_at, c.id FROM snapshots c WHERE c.id = :id)', { id: snapshot.id })
      .andWhere('s.scanId <> :scanId', { scanId: snapshot.scanId })
      .andWhere('s.horizon = :horizon', { horizon: snapshot.horizon })
      .andWhere('s.jurisdictionKeys && CAST(:jurisdictions AS text[])', { jurisdictions: snapshot.jurisdictionKeys })
      .andWhere('s.areaKeys && CAST(:areas AS text[])', { areas: snapshot.areaKeys });
    if (snapshot.kind === 'council_seat') {
      query.andWhere("s.kind = 'council_seat'");
      const lens = seatLens(snapshot);
      if (lens) query.andWhere("s.data -> '_meta' ->> 'council_seat' = :lens", { lens });
    } else {
      query.andWhere("s.kind IN ('standard', 'council_composite')");
    }
    return query.orderBy('s.createdAt', 'DESC').addOrderBy('s.id', 'DESC').limit(1).getOne();
  }
}

function seatLens(snapshot: Snapshot): string | null {
  const meta = snapshot.data._meta;
  const lens = meta && typeof meta === 'object' ? (meta as Record<string, unknown>).council_seat : undefined;
  return typeof lens === 'string' ? lens : null;
}
