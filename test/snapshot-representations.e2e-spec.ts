import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../src/config/app-config';
import { SNAPSHOT_PROJECTION_VERSION } from '../src/modules/snapshots/conditional-response';
import { bootTestApp, newAccount, type TestApp } from './support/test-app';

/**
 * Snapshots are immutable, so each representation a read returns (per language, per sub-resource) is derived once
 * and then served as stored bytes with its stored tag. These tests watch that from outside: the stored bytes are
 * what is sent, a projection-version change re-derives them, and every conditional-read rule still holds.
 */
const EU_UK_AML = { jurisdictions: ['EU', 'UK'], areas: ['AML / KYC'], horizon: 12 };

type Row = { resource: string; variant: string; projection_version: number; etag: string; body: string };

describe('stored snapshot representations', () => {
  let t: TestApp;
  let db: DataSource;
  let config: AppConfig;
  let saved: AppConfig['rateLimits'];
  let owner: Awaited<ReturnType<typeof newAccount>>;
  let stranger: Awaited<ReturnType<typeof newAccount>>;
  let id: string;

  beforeAll(async () => {
    t = await bootTestApp();
    db = t.app.get(DataSource);
    config = t.app.get(APP_CONFIG);
    saved = { ...config.rateLimits };
    Object.assign(config.rateLimits, { reads: 100000, scans: 1000 });
    owner = await newAccount(t);
    stranger = await newAccount(t);
    const response = await t.http().post('/v1/scans').set('Authorization', `Bearer ${owner.apiKey}`).send(EU_UK_AML).expect(200);
    id = response.body.snapshot_id;
  });
  afterAll(async () => {
    Object.assign(config.rateLimits, saved);
    await t.close();
  });

  const get = (path: string, key = owner.apiKey) => t.http().get(path).set('Authorization', `Bearer ${key}`);
  const rows = (snapshotId: string): Promise<Row[]> =>
    db.query(
      'SELECT resource, variant, projection_version, etag, body FROM snapshot_representations WHERE snapshot_id = $1 ORDER BY resource, variant',
      [snapshotId],
    );
  const row = async (resource: string, variant: string): Promise<Row | undefined> =>
    (await rows(id)).find((each) => each.resource === resource && each.variant === variant);

  it('derives a representation on its first read and serves the same bytes and tag from storage afterwards', async () => {
    const first = await get(`/v1/snapshots/${id}`).expect(200);
    const stored = await row('snapshot', 'en');
    expect(stored).toBeDefined();
    expect(stored!.projection_version).toBe(SNAPSHOT_PROJECTION_VERSION);
    expect(stored!.etag).toBe(first.headers.etag);
    expect(stored!.body).toBe(first.text);

    const second = await get(`/v1/snapshots/${id}`).expect(200);
    expect(second.text).toBe(first.text);
    expect(second.headers.etag).toBe(first.headers.etag);
    expect(second.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(second.headers['cache-control']).toBe('private, no-cache');
    expect(Number(second.headers['content-length'])).toBe(Buffer.byteLength(first.text));
  });

  it('sends the stored bytes as they are: nothing is parsed, walked or re-serialised on a stored read', async () => {
    await get(`/v1/snapshots/${id}/items`).expect(200);
    const marked = JSON.stringify({ data: [{ id: 'stored-bytes-marker' }] });
    await db.query(`UPDATE snapshot_representations SET body = $1 WHERE snapshot_id = $2 AND resource = 'items'`, [marked, id]);
    const response = await get(`/v1/snapshots/${id}/items`).expect(200);
    expect(response.text).toBe(marked);
    await db.query(`DELETE FROM snapshot_representations WHERE snapshot_id = $1 AND resource = 'items'`, [id]);
    expect((await get(`/v1/snapshots/${id}/items`).expect(200)).text).not.toBe(marked);
  });

  it('re-derives a representation stored under another projection version', async () => {
    const fresh = await get(`/v1/snapshots/${id}/trends`).expect(200);
    await db.query(
      `UPDATE snapshot_representations SET projection_version = projection_version - 1, body = '{"stale":true}', etag = '"stale"'
       WHERE snapshot_id = $1 AND resource = 'trends'`,
      [id],
    );
    const response = await get(`/v1/snapshots/${id}/trends`).set('If-None-Match', '"stale"').expect(200);
    expect(response.text).toBe(fresh.text);
    expect(response.headers.etag).toBe(fresh.headers.etag);
    expect((await row('trends', ''))!.projection_version).toBe(SNAPSHOT_PROJECTION_VERSION);
  });

  it('answers If-None-Match from the stored tag, with the same rules as before (lists, weak prefixes, *)', async () => {
    const { headers } = await get(`/v1/snapshots/${id}/executive-summary`).expect(200);
    const etag = headers.etag as string;
    for (const header of [etag, `"other", ${etag}`, `W/${etag}`, '*']) {
      const response = await get(`/v1/snapshots/${id}/executive-summary`).set('If-None-Match', header).expect(304);
      expect(response.text).toBe('');
      expect(response.headers.etag).toBe(etag);
      expect(response.headers['cache-control']).toBe('private, no-cache');
    }
    await get(`/v1/snapshots/${id}/executive-summary`).set('If-None-Match', '"other"').expect(200);
    // Longer than the bound (4096): ignored as a whole, as before, even though it names the tag.
    await get(`/v1/snapshots/${id}/executive-summary`).set('If-None-Match', `${'"x", '.repeat(1000)}${etag}`).expect(200);
  });

  it('keeps one representation per language, each with its own tag', async () => {
    const en = await get(`/v1/snapshots/${id}`).expect(200);
    const simple = await get(`/v1/snapshots/${id}?language=simple`).expect(200);
    const fr = await get(`/v1/snapshots/${id}?language=fr`).expect(200);
    expect(simple.headers.etag).not.toBe(en.headers.etag);
    expect(simple.body.data._meta.language).toBe('simple');
    // No French translation: the original, untouched, with the original's tag.
    expect(fr.text).toBe(en.text);
    expect(fr.headers.etag).toBe(en.headers.etag);
    const variants = (await rows(id)).filter((each) => each.resource === 'snapshot').map((each) => each.variant);
    expect(variants).toEqual(expect.arrayContaining(['en', 'fr', 'simple']));
    await get(`/v1/snapshots/${id}?language=simple`).set('If-None-Match', simple.headers.etag as string).expect(304);
    await get(`/v1/snapshots/${id}?language=simple`).set('If-None-Match', en.headers.etag as string).expect(200);
  });

  it('stores the narrative per language it was served in, and never stores a miss', async () => {
    const en = await get(`/v1/snapshots/${id}/executive-narrative?language=EN`).expect(200);
    expect(en.body.language).toBe('en');
    expect((await row('executive-narrative', 'en'))!.body).toBe(en.text);
    await get(`/v1/snapshots/${id}/executive-narrative?language=pt`).expect(404);
    expect(await row('executive-narrative', 'pt')).toBeUndefined();
    // Codes that cannot be a key (a NUL byte, which PostgreSQL text refuses; an over-long one) are simply not found.
    for (const language of ['EU%00', 'x'.repeat(65)]) {
      const response = await get(`/v1/snapshots/${id}/executive-narrative?language=${language}`).expect(404);
      expect(response.body.code).toBe('translation_not_available');
    }
  });

  it("never serves a stored representation to another account, nor for a missing or malformed id", async () => {
    await get(`/v1/snapshots/${id}`).expect(200);
    for (const path of ['', '/items', '/trends', '/executive-summary', '/executive-narrative', '/briefing', '/drift']) {
      const response = await get(`/v1/snapshots/${id}${path}`, stranger.apiKey).expect(404);
      expect(response.body.code).toBe('not_found');
    }
    await get('/v1/snapshots/00000000-0000-4000-8000-000000000000').expect(404);
    await get('/v1/snapshots/not-a-uuid/items').expect(404);
  });

  it('stores drift per calendar, once no earlier snapshot can still be committing', async () => {
    const fresh = await get(`/v1/snapshots/${id}/drift`).expect(200);
    expect(fresh.body).toEqual({ available: false });
    // Written moments ago: a scan that started earlier may still commit an earlier snapshot, the baseline.
    expect((await rows(id)).filter((each) => each.resource === 'drift')).toEqual([]);
    await db.query(`UPDATE snapshots SET created_at = created_at - interval '10 minutes' WHERE id = $1`, [id]);
    const settled = await get(`/v1/snapshots/${id}/drift`).expect(200);
    const [stored] = (await rows(id)).filter((each) => each.resource === 'drift');
    expect(stored.variant).toMatch(/^calendar:[A-Za-z0-9_-]{16,}$/);
    expect(stored.body).toBe(settled.text);
    expect(stored.etag).toBe(settled.headers.etag);
  });

  it('removes the representations with their snapshot', async () => {
    // A copy of the snapshot that nothing else refers to, so it can be deleted on its own.
    const [{ id: copy }] = await db.query(
      `INSERT INTO snapshots (id, account_id, scan_id, kind, parent_snapshot_id, title, config, data, engine, horizon, jurisdictions, areas,
                              jurisdiction_keys, area_keys, item_count, cost_cents, estimate_cents, created_at)
       SELECT gen_random_uuid(), account_id, gen_random_uuid(), 'council_seat', NULL, title, config, data, engine, horizon, jurisdictions, areas,
              jurisdiction_keys, area_keys, item_count, cost_cents, estimate_cents, created_at
       FROM snapshots WHERE id = $1 RETURNING id`,
      [id],
    );
    await get(`/v1/snapshots/${copy}`).expect(200);
    await get(`/v1/snapshots/${copy}/items`).expect(200);
    expect((await rows(copy)).length).toBe(2);
    await db.query('DELETE FROM snapshots WHERE id = $1', [copy]);
    expect(await rows(copy)).toEqual([]);
  });
});
