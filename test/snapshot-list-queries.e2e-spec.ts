import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../src/config/app-config';
import { ENTITIES } from '../src/app.entities';
import { dataSourceOptions } from '../src/infra/database/data-source-options';
import { RedisService } from '../src/infra/redis/redis.service';
import { listCountQuery, listPageQuery, type SnapshotListFilter } from '../src/modules/snapshots/snapshots.repository';
import { createFreshDatabase } from './support/fresh-database';
import { bootTestApp, newAccount, type TestApp } from './support/test-app';

type Json = Record<string, any>;

const NOW = '2026-01-01T00:00:00Z';
/** About the size of a real resolved scan config, so table rows are as wide as in production (the planner weighs it). */
const CONFIG = JSON.stringify({ jurisdictions: ['EU'], areas: ['Payments'], horizon: 12, notes: 'x'.repeat(560) });

/**
 * `count` snapshots of `accountId` written straight to the table (as the bench seeds): three per minute going back
 * from NOW, so created_at ties are common; jurisdictions and areas cycle through a few combinations.
 */
async function seedSnapshots(db: Pick<DataSource, 'query'>, accountId: string, count: number, titlePrefix = 'row'): Promise<void> {
  await db.query(
    `INSERT INTO snapshots (id, account_id, scan_id, kind, title, config, data, engine, horizon, jurisdictions, areas,
                            jurisdiction_keys, area_keys, item_count, cost_cents, estimate_cents, created_at)
     SELECT gen_random_uuid(), $1, gen_random_uuid(), 'standard', $4 || ' ' || g, $5::jsonb, '{}', 'v4', 12, j.list, a.list,
            ARRAY(SELECT lower(x) FROM unnest(j.list) AS x), ARRAY(SELECT lower(x) FROM unnest(a.list) AS x),
            3, (g % 90) + 0.5, 40, $3::timestamptz - make_interval(mins => g / 3)
     FROM generate_series(1, $2::int) AS g
     CROSS JOIN LATERAL (SELECT CASE g % 4 WHEN 0 THEN ARRAY['EU', 'UK'] WHEN 1 THEN ARRAY['EU'] WHEN 2 THEN ARRAY['US'] ELSE ARRAY['Japan'] END AS list) AS j
     CROSS JOIN LATERAL (SELECT CASE g % 3 WHEN 0 THEN ARRAY['Payments'] WHEN 1 THEN ARRAY['AML / KYC', 'Payments'] ELSE ARRAY['Sanctions'] END AS list) AS a`,
    [accountId, count, NOW, titlePrefix, CONFIG],
  );
}

/** Every plan node of an EXPLAIN (FORMAT JSON) result, depth first. */
function planNodes(explained: Array<{ 'QUERY PLAN': Json[] }>): Json[] {
  const nodes: Json[] = [];
  const walk = (node: Json) => {
    nodes.push(node);
    for (const child of node.Plans ?? []) walk(child);
  };
  walk(explained[0]['QUERY PLAN'][0].Plan);
  return nodes;
}

describe('snapshot and export list queries', () => {
  let t: TestApp;
  let db: DataSource;
  let config: AppConfig;
  let saved: AppConfig['rateLimits'];

  beforeAll(async () => {
    t = await bootTestApp();
    db = t.app.get(DataSource);
    config = t.app.get(APP_CONFIG);
    saved = { ...config.rateLimits };
    Object.assign(config.rateLimits, { reads: 100000, scans: 1000 });
  });
  afterAll(async () => {
    Object.assign(config.rateLimits, saved);
    await t.close();
  });

  const get = (key: string, path: string) => t.http().get(path).set('Authorization', `Bearer ${key}`);
  const accountUuid = async (externalId: string): Promise<string> =>
    (await db.query('SELECT id FROM accounts WHERE external_id = $1', [externalId]))[0].id;

  /** The SQL the app sends to PostgreSQL and the totals-cache commands it sends to Redis while `work` runs. */
  async function traffic(work: () => Promise<unknown>): Promise<{ sql: string[]; totalsCache: string[] }> {
    const sql: string[] = [];
    const totalsCache: string[] = [];
    const redis = t.app.get(RedisService);
    const logQuery = jest.spyOn(db.logger, 'logQuery').mockImplementation((query) => void sql.push(query));
    const original = redis.client.sendCommand.bind(redis.client);
    const sendCommand = jest.spyOn(redis.client, 'sendCommand').mockImplementation((command, ...rest) => {
      if (command.args.some((arg) => String(arg).includes('snapshot-totals'))) totalsCache.push(command.name);
      return original(command, ...rest);
    });
    try {
      await work();
    } finally {
      logQuery.mockRestore();
      sendCommand.mockRestore();
    }
    return { sql, totalsCache };
  }
  const snapshotReads = (sql: string[]) => sql.filter((query) => /\bfrom\s+"?snapshots"?/i.test(query));

  describe('GET /v1/snapshots totals', () => {
    it('answers the unfiltered total of a large account from its snapshot count, without counting rows', async () => {
      const owner = await newAccount(t);
      const account = await accountUuid(owner.accountId);
      await seedSnapshots(db, account, 1500);
      const { sql } = await traffic(async () => {
        const { body } = await get(owner.apiKey, '/v1/snapshots?limit=50').expect(200);
        expect(body.pagination).toEqual({ limit: 50, offset: 0, total: 1500 });
        expect(body.data).toHaveLength(50);
      });
      expect(snapshotReads(sql)).toHaveLength(1);
      expect(sql.join('\n')).not.toMatch(/count\(/i);
    });

    it('lists a small account in one statement, without the totals cache', async () => {
      const owner = await newAccount(t);
      await seedSnapshots(db, await accountUuid(owner.accountId), 3);
      for (const [query, total] of [
        ['?limit=50', 3],
        ['?jurisdiction=eu', 1],
        ['?area=payments&limit=1', 2],
        ['?area=payments&limit=1&offset=5', 2],
      ] as const) {
        const { sql, totalsCache } = await traffic(async () => {
          const { body } = await get(owner.apiKey, `/v1/snapshots${query}`).expect(200);
          expect(body.pagination.total).toBe(total);
        });
        expect({ query, reads: snapshotReads(sql).length, totalsCache }).toEqual({ query, reads: 1, totalsCache: [] });
      }
    });

    it('keeps the unfiltered total exact across inserts, moves and deletes from any path', async () => {
      const owner = await newAccount(t);
      const other = await newAccount(t);
      const account = await accountUuid(owner.accountId);
      const otherAccount = await accountUuid(other.accountId);
      const total = async (key: string) => (await get(key, '/v1/snapshots?limit=1').expect(200)).body.pagination.total;
      const counted = async (id: string) => (await db.query('SELECT count(*)::int AS n FROM snapshots WHERE account_id = $1', [id]))[0].n;

      expect(await total(owner.apiKey)).toBe(0);
      // A scan inserts inside its own transaction (several rows for a council).
      await t
        .http()
        .post('/v1/scans')
        .set('Authorization', `Bearer ${owner.apiKey}`)
        .send({ jurisdictions: ['EU'], areas: ['Payments'], horizon: 12 })
        .expect(200);
      // Concurrent multi-row inserts from separate connections.
      await Promise.all([seedSnapshots(db, account, 700, 'a'), seedSnapshots(db, account, 600, 'b'), seedSnapshots(db, otherAccount, 40)]);
      expect(await total(owner.apiKey)).toBe(await counted(account));
      await db.query(
        `DELETE FROM snapshots WHERE account_id = $1 AND title LIKE 'a %' AND created_at > $2::timestamptz - interval '20 minutes'`,
        [account, NOW],
      );
      await db.query(`UPDATE snapshots SET account_id = $2 WHERE account_id = $1 AND title IN ('b 1', 'b 2', 'b 3')`, [
        account,
        otherAccount,
      ]);
      await db.query(`UPDATE snapshots SET title = title || '.' WHERE account_id = $1 AND title LIKE 'b 1%'`, [account]);
      // A rolled-back insert counts nothing.
      await db
        .transaction(async (manager) => {
          await seedSnapshots(manager, account, 10, 'rolled back');
          throw new Error('roll back');
        })
        .catch(() => undefined);
      expect(await total(owner.apiKey)).toBe(await counted(account));
      expect(await total(other.apiKey)).toBe(await counted(otherAccount));
      expect(await counted(account)).toBeGreaterThan(1200);

      // Deleting an account (one without ledger entries, which are append-only) cascades to its snapshots and count.
      const [closed] = await db.query(`INSERT INTO accounts (external_id) VALUES ($1) RETURNING id`, [`closed-${randomUUID()}`]);
      await seedSnapshots(db, closed.id, 40);
      expect(await db.query('SELECT total FROM snapshot_counts WHERE account_id = $1', [closed.id])).toEqual([{ total: 40 }]);
      await db.query('DELETE FROM accounts WHERE id = $1', [closed.id]);
      expect(await db.query('SELECT total FROM snapshot_counts WHERE account_id = $1', [closed.id])).toEqual([]);
    });
  });

  describe('GET /v1/snapshots deep pages', () => {
    let owner: Awaited<ReturnType<typeof newAccount>>;
    let account: string;

    beforeAll(async () => {
      owner = await newAccount(t);
      account = await accountUuid(owner.accountId);
      await seedSnapshots(db, account, 3000);
      const neighbour = await newAccount(t);
      await seedSnapshots(db, await accountUuid(neighbour.accountId), 500);
      await db.query('ANALYZE snapshots');
    });

    it.each([
      ['', 100, 0],
      ['', 100, 2950],
      ['&jurisdiction=eu', 100, 1400],
      ['&jurisdiction=EU', 37, 1499],
      ['&jurisdiction=eu&area=payments', 50, 600],
      ['&area=sanctions&from=2025-12-31T20:00:00Z', 20, 180],
      ['&jurisdiction=japan&to=2025-12-31T12:00:00Z', 100, 300],
      ['&jurisdiction=uk', 10, 5000],
    ])('%s limit=%i offset=%i: the rows and total of the reference query', async (query, limit, offset) => {
      const filter: SnapshotListFilter = {
        jurisdiction: /jurisdiction=(\w+)/.exec(query)?.[1].toLowerCase(),
        area: /area=(\w+)/.exec(query)?.[1].toLowerCase(),
        from: /from=([^&]+)/.exec(query) ? new Date(/from=([^&]+)/.exec(query)![1]) : undefined,
        to: /to=([^&]+)/.exec(query) ? new Date(/to=([^&]+)/.exec(query)![1]) : undefined,
        limit,
        offset,
      };
      const where = ['account_id = $1'];
      const params: unknown[] = [account];
      if (filter.jurisdiction) where.push(`$${params.push(filter.jurisdiction)} = ANY(jurisdiction_keys)`);
      if (filter.area) where.push(`$${params.push(filter.area)} = ANY(area_keys)`);
      if (filter.from) where.push(`created_at >= $${params.push(filter.from)}`);
      if (filter.to) where.push(`created_at < $${params.push(filter.to)}`);
      const all: Array<{ id: string }> = await db.query(
        `SELECT id FROM snapshots WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id DESC`,
        params,
      );

      const { body } = await get(owner.apiKey, `/v1/snapshots?limit=${limit}&offset=${offset}${query}`).expect(200);
      expect(body.pagination).toEqual({ limit, offset, total: all.length });
      expect(body.data.map((row: Json) => row.id)).toEqual(all.slice(offset, offset + limit).map((row) => row.id));
    });
  });

  describe('query plans on a seeded database', () => {
    let fresh: { url: string; drop(): Promise<void> };
    let planDb: DataSource;
    let account: string;

    beforeAll(async () => {
      fresh = await createFreshDatabase();
      planDb = await new DataSource(dataSourceOptions(fresh.url, ENTITIES)).initialize();
      const accounts: Array<{ id: string }> = await planDb.query(
        `INSERT INTO accounts (external_id) SELECT 'plan-' || n || '-' || $1 FROM generate_series(1, 21) AS n RETURNING id`,
        [randomUUID()],
      );
      account = accounts[0].id;
      await seedSnapshots(planDb, account, 40000);
      for (const other of accounts.slice(1)) await seedSnapshots(planDb, other.id, 1000);
      await planDb.query('VACUUM ANALYZE snapshots');
    }, 120_000);
    afterAll(async () => {
      await planDb?.destroy();
      await fresh?.drop();
    });

    const explain = async (query: { sql: string; params: unknown[] }) =>
      planNodes(await planDb.query(`EXPLAIN (FORMAT JSON) ${query.sql}`, query.params));
    const snapshotScans = (nodes: Json[]) => nodes.filter((node) => node['Relation Name'] === 'snapshots');

    it('unfiltered, first page: the rows come straight from the list index', async () => {
      const nodes = await explain(listPageQuery(account, { limit: 50, offset: 0 }));
      expect(snapshotScans(nodes).map((node) => `${node['Node Type']} ${node['Index Name']}`)).toEqual([
        'Index Scan ix_snapshots_account_list',
      ]);
    });

    it.each([
      ['unfiltered, deep page', { limit: 100, offset: 30000 }],
      ['jurisdiction, deep page', { jurisdiction: 'eu', limit: 100, offset: 15000 }],
      ['jurisdiction and area, deep page', { jurisdiction: 'eu', area: 'payments', limit: 100, offset: 8000 }],
      ['date range, deep page', { from: new Date('2025-12-01T00:00:00Z'), limit: 100, offset: 5000 }],
    ])('%s: the skipped rows come from an index-only scan of the list index', async (_name, filter: SnapshotListFilter) => {
      const nodes = await explain(listPageQuery(account, filter));
      expect(nodes.filter((node) => node['Node Type'] === 'Seq Scan')).toEqual([]);
      const scans = snapshotScans(nodes);
      expect(scans.find((node) => node['Node Type'] === 'Index Only Scan')).toMatchObject({ 'Index Name': 'ix_snapshots_account_list' });
      // Whole rows are read only for the page itself, by primary key.
      expect(scans.filter((node) => node['Node Type'] !== 'Index Only Scan')).toEqual(
        scans.filter((node) => node['Node Type'] === 'Index Scan' && node['Index Name'] === 'PK_f5661b5fd4224d23e26a631986b'),
      );
    });

    it.each([
      ['jurisdiction', { jurisdiction: 'eu', limit: 50, offset: 0 }],
      ['jurisdiction and area', { jurisdiction: 'eu', area: 'payments', limit: 50, offset: 0 }],
      ['area and date range', { area: 'sanctions', from: new Date('2025-12-20T00:00:00Z'), limit: 50, offset: 0 }],
    ])('%s: the total is counted from an account-scoped index', async (_name, filter: SnapshotListFilter) => {
      const nodes = await explain(listCountQuery(account, filter));
      expect(nodes.filter((node) => node['Node Type'] === 'Seq Scan')).toEqual([]);
      const indexes = nodes.filter((node) => /Index/.test(node['Node Type'])).map((node) => `${node['Node Type']} ${node['Index Name']}`);
      expect(indexes).toHaveLength(1);
      expect(['Index Only Scan ix_snapshots_account_list', 'Bitmap Index Scan ix_snapshots_account_keys']).toContain(indexes[0]);
    });
  });

  describe('GET /v1/exports', () => {
    it('reads only the columns the list returns', async () => {
      const owner = await newAccount(t);
      const account = await accountUuid(owner.accountId);
      const [job] = await db.query(
        `INSERT INTO export_jobs (id, account_id, api_key_id, snapshot_id, provider, artifact_type, options, status, cost_cents,
                                  result_mime, result_filename, result_size_bytes, storage_key, completed_at, effective_locale, locale_provenance)
         VALUES ($1, $2, NULL, $3, 'builtin', 'csv', '{"delimiter":","}', 'completed', 1.5, 'text/csv', 'a.csv', 12, $4, now(), 'en', 'default')
         RETURNING id, snapshot_id, created_at, completed_at`,
        [randomUUID(), account, randomUUID(), `exports/${randomUUID()}.csv`],
      );
      const { sql } = await traffic(async () => {
        const { body } = await get(owner.apiKey, '/v1/exports').expect(200);
        expect(body.data).toEqual([
          {
            id: job.id,
            status: 'completed',
            artifact_type: 'csv',
            provider: 'builtin',
            snapshot_id: job.snapshot_id,
            options: { delimiter: ',' },
            created_at: job.created_at.toISOString(),
            completed_at: job.completed_at.toISOString(),
            cost_cents: 1.5,
            error: null,
            result_mime: 'text/csv',
            result_filename: 'a.csv',
            result_size_bytes: 12,
            download_url: `/v1/exports/${job.id}/download`,
            effective_locale: 'en',
            locale_provenance: 'default',
            rendered_by: null,
          },
        ]);
      });
      const [list] = sql.filter((query) => /from\s+"?export_jobs"?/i.test(query));
      const selected = list.slice(0, list.search(/\sfrom\s/i));
      for (const unused of ['account_id', 'api_key_id', 'updated_at']) expect(selected).not.toContain(unused);
    });
  });
});
