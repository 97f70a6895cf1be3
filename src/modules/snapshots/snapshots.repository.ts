import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Snapshot } from './entities/snapshot.entity';
import { CACHED_TOTAL_MIN, SnapshotTotalsCache } from './snapshot-totals.cache';
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

const LIST_COLUMNS = [
  'id',
  'title',
  'scan_id',
  'engine',
  'horizon',
  'jurisdictions',
  'areas',
  'item_count',
  'cost_cents',
  'estimate_cents',
  'created_at',
  'kind',
];
const PAGE_COLUMNS = LIST_COLUMNS.map((column) => `page.${column}`).join(', ');
const ROW_COLUMNS = LIST_COLUMNS.map((column) => `s.${column}`).join(', ');

/** A row of the page query: a list item (all null past the end, where the one row carries only the totals). */
type ListPageRow = { [K in keyof SnapshotListRow]: SnapshotListRow[K] | null } & {
  /** Every snapshot of the account (snapshot_counts). */
  account_total: number;
  /** The filtered total, when the account is small enough to count it in the same statement. */
  filtered_total: number | null;
};

/**
 * The WHERE clause of the list, always scoped to the account. ix_snapshots_account_list serves the scope, the range
 * and the order, and holds the lower-cased key arrays, so `@>` is checked on index entries; the btree_gin index
 * ix_snapshots_account_keys finds the rows of a narrow filter.
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

const isFiltered = (filter: SnapshotListFilter) =>
  filter.from !== undefined || filter.to !== undefined || filter.jurisdiction !== undefined || filter.area !== undefined;

/**
 * The page query, newest first with id breaking ties so pages never overlap or skip, in one statement with the
 * account's snapshot count (and, for a small account, the filtered count). A page that skips rows has its ids
 * picked by an index-only scan of ix_snapshots_account_list, so skipped rows never leave the index; only the page's
 * own rows are read from the table. At least one row comes back: past the end, one with null item columns.
 */
export function listPageQuery(accountId: string, filter: SnapshotListFilter): { sql: string; params: unknown[] } {
  const where = listWhere(accountId, filter);
  const params = [...where.params];
  const limit = `$${params.push(filter.limit)}`;
  const offset = `$${params.push(filter.offset)}`;
  const filteredTotal = isFiltered(filter)
    ? `CASE WHEN coalesce(counted.total, 0) < ${CACHED_TOTAL_MIN} THEN (SELECT count(*)::int FROM snapshots WHERE ${where.sql}) END`
    : 'NULL::int';
  const order = `ORDER BY created_at DESC, id DESC LIMIT ${limit} OFFSET ${offset}`;
  // Skipping rows (an offset, or a filter's misses) costs only index entries when the ids are picked first; a first
  // unfiltered page is cheaper read straight, without the primary-key lookups.
  const rows =
    isFiltered(filter) || filter.offset > 0
      ? `SELECT ${ROW_COLUMNS} FROM (SELECT id FROM snapshots WHERE ${where.sql} ${order}) AS picked JOIN snapshots s ON s.id = picked.id`
      : `SELECT ${ROW_COLUMNS} FROM snapshots s WHERE ${where.sql} ${order}`;
  return {
    sql: `SELECT coalesce(counted.total, 0) AS account_total, ${filteredTotal} AS filtered_total, ${PAGE_COLUMNS}
      FROM (VALUES (1)) AS one
      LEFT JOIN snapshot_counts counted ON counted.account_id = $1
      LEFT JOIN LATERAL (
        ${rows}
      ) AS page ON true
      ORDER BY page.created_at DESC, page.id DESC`,
    params,
  };
}

/** The filtered total, counted (for accounts with at least CACHED_TOTAL_MIN snapshots, whose totals are cached). */
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

  /**
   * One page of the account's snapshots and its exact total. The unfiltered total is the account's snapshot count;
   * a filtered one is counted in the same statement for a small account, follows from a page that is not full, or
   * else comes from the totals cache (counted when it has none).
   */
  async list(accountId: string, filter: SnapshotListFilter): Promise<{ rows: SnapshotListRow[]; total: number }> {
    const page = listPageQuery(accountId, filter);
    const result = await this.dataSource.query<ListPageRow[]>(page.sql, page.params);
    const { account_total: accountTotal, filtered_total: filteredTotal } = result[0];
    const rows = (result[0].id === null ? [] : result) as unknown as SnapshotListRow[];
    if (!isFiltered(filter)) return { rows, total: accountTotal };
    if (filteredTotal !== null) return { rows, total: filteredTotal };
    if (rows.length < filter.limit && (rows.length > 0 || filter.offset === 0)) return { rows, total: filter.offset + rows.length };
    return { rows, total: await this.countFiltered(accountId, filter) };
  }

  /** A large account's filtered total: from the totals cache when it holds a valid one, else counted and cached. */
  private async countFiltered(accountId: string, filter: SnapshotListFilter): Promise<number> {
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
