import { PRIVATE_ENVELOPE_KEYS } from '../src/modules/snapshots/snapshot-projection';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../src/config/app-config';
import { AREAS } from '../src/domain/vocabulary/areas';
import { JURISDICTIONS } from '../src/domain/vocabulary/jurisdictions';
import { bootTestApp, newAccount, type TestApp } from './support/test-app';
import { RedisService } from '../src/infra/redis/redis.service';

const EU_UK_AML = { jurisdictions: ['EU', 'UK'], areas: ['AML / KYC'], horizon: 12 };
const EU_AML_PAYMENTS = { jurisdictions: ['EU'], areas: ['AML / KYC', 'Payments'], horizon: 12 };
const MARKER = /\[\[cite:\d+\]\]/;
const SUB_RESOURCES = ['items', 'trends', 'executive-summary', 'executive-narrative', 'drift', 'briefing'];

type Json = Record<string, any>;

/** Every read from persistence: no citation markers, no private keys. */
function expectClean(body: unknown): void {
  const text = JSON.stringify(body);
  expect(text).not.toMatch(MARKER);
  expect(text).not.toContain('_auditor_private');
  expect(text).not.toContain('"_plain"');
}

describe('snapshots', () => {
  let t: TestApp;
  let db: DataSource;
  let config: AppConfig;
  let saved: AppConfig['rateLimits'];

  beforeAll(async () => {
    t = await bootTestApp();
    db = t.app.get(DataSource);
    config = t.app.get(APP_CONFIG);
    saved = { ...config.rateLimits };
    // The tests read far more than a real client would in a minute; the guard stays on with room to spare.
    Object.assign(config.rateLimits, { reads: 100000, scans: 1000 });
  });
  afterAll(async () => {
    Object.assign(config.rateLimits, saved);
    await t.close();
  });

  const get = (key: string, path: string) => t.http().get(path).set('Authorization', `Bearer ${key}`);
  const scan = async (key: string, body: object): Promise<string> => {
    const response = await t.http().post('/v1/scans').set('Authorization', `Bearer ${key}`).send(body).expect(200);
    expect(response.body.status).toBe('completed');
    return response.body.snapshot_id;
  };
  const stored = async (id: string): Promise<Json> => (await db.query('SELECT * FROM snapshots WHERE id = $1', [id]))[0];
  // Snapshots are immutable; a test that rewrites one also drops what reads derived from it (snapshot_representations).
  const setData = async (id: string, data: Json) => {
    await db.query('UPDATE snapshots SET data = $1::jsonb WHERE id = $2', [JSON.stringify(data), id]);
    await db.query('DELETE FROM snapshot_representations WHERE snapshot_id = $1', [id]);
  };
  const accountUuid = async (externalId: string): Promise<string> =>
    (await db.query('SELECT id FROM accounts WHERE external_id = $1', [externalId]))[0].id;

  /** A copy of a stored snapshot with other metadata, written straight to the table (as the bench seeds). */
  async function seed(
    template: string,
    accountId: string,
    row: {
      createdAt: string;
      jurisdictions: string[];
      areas: string[];
      horizon?: number;
      kind?: string;
      title?: string;
      costCents?: string | null;
      estimateCents?: number | null;
    },
  ): Promise<string> {
    const id = randomUUID();
    await db.query(
      `INSERT INTO snapshots (id, account_id, scan_id, kind, parent_snapshot_id, title, config, data, engine, horizon, jurisdictions, areas,
                              jurisdiction_keys, area_keys, item_count, cost_cents, estimate_cents, created_at)
       SELECT $1, $2, $3, $4, NULL, $5, config, data, engine, $6, $7::text[], $8::text[], $9::text[], $10::text[], item_count, $11, $12, $13
       FROM snapshots WHERE id = $14`,
      [
        id,
        accountId,
        randomUUID(),
        row.kind ?? 'standard',
        row.title ?? `seeded ${row.createdAt}`,
        row.horizon ?? 12,
        row.jurisdictions,
        row.areas,
        row.jurisdictions.map((j) => j.toLowerCase()),
        row.areas.map((a) => a.toLowerCase()),
        row.costCents === undefined ? '12.5' : row.costCents,
        row.estimateCents === undefined ? 20 : row.estimateCents,
        row.createdAt,
        template,
      ],
    );
    return id;
  }

  describe('reads of one snapshot', () => {
    let owner: Awaited<ReturnType<typeof newAccount>>;
    let stranger: Awaited<ReturnType<typeof newAccount>>;
    let id: string;

    beforeAll(async () => {
      owner = await newAccount(t);
      stranger = await newAccount(t);
      id = await scan(owner.apiKey, EU_UK_AML);
    });

    it('returns every field of the spec, with markers stripped and private keys left out', async () => {
      const row = await stored(id);
      // The stored envelope really has markers and private keys, so the assertions below mean something.
      expect(row.data.executive_narrative).toMatch(MARKER);
      expect(row.data).toHaveProperty('_auditor_private');
      expect(row.data).toHaveProperty('_plain');

      const response = await get(owner.apiKey, `/v1/snapshots/${id}`).expect(200);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.body).toEqual({
        id,
        title: row.title,
        config: row.config,
        data: expect.any(Object),
        cost_cents: Number(row.cost_cents),
        created_at: row.created_at.toISOString(),
      });
      expectClean(response.body);
      const { data } = response.body;
      expect(Object.keys(data).sort()).toEqual(
        Object.keys(row.data)
          .filter((k) => !PRIVATE_ENVELOPE_KEYS.includes(k))
          .sort(),
      );
      expect(data).not.toHaveProperty('_beyond_cap');
      expect(data.items.length).toBe(row.data.items.length);
      expect(data.executive_narrative).toBe(row.data.executive_narrative.replace(/\s?\[\[cite:\d+\]\]/g, ''));
      expect(data.items[0].citations).toEqual(row.data.items[0].citations);
      // Each item's timeline and source kinds reach the client: every milestone cites one of the item's citations.
      for (const item of data.items) {
        expect(item.timeline.length).toBeGreaterThan(0);
        expect(item.timeline).toContainEqual(expect.objectContaining({ date: item.key_date, status: 'upcoming' }));
        const ids = new Set(item.citations.map((c: { id: number }) => c.id));
        for (const milestone of item.timeline) expect(ids.has(milestone.citation_id)).toBe(true);
        for (const citation of item.citations) expect(['official', 'secondary']).toContain(citation.kind);
        // Every area of the instrument, the one it is filed under among them.
        expect(item.areas).toContain(item.area);
      }
      // Counts over every match reach the client too, every requested jurisdiction listed.
      const summary = data._meta.matched_summary;
      expect(summary.count).toBe(data._meta.matched_count);
      expect(summary.shown).toBe(data.items.length);
      expect(summary.by_impact.high + summary.by_impact.medium + summary.by_impact.low).toBe(summary.count);
      expect(summary.by_jurisdiction.map((row: { id: string }) => row.id)).toEqual(expect.arrayContaining(data._meta.matched_jurisdictions));
      expect(data.auditor).toEqual(row.data.auditor);
      expect(data).not.toHaveProperty('_meta.language');
      expect(response.headers['x-request-id']).toMatch(/^req_/);
    });

    it('lets unknown envelope keys pass through unchanged', async () => {
      const row = await stored(id);
      await setData(id, { ...row.data, x_future: { nested: [1, 'two', { three: true }] }, zz_flag: 7 });
      const { body } = await get(owner.apiKey, `/v1/snapshots/${id}`).expect(200);
      expect(body.data.x_future).toEqual({ nested: [1, 'two', { three: true }] });
      expect(body.data.zz_flag).toBe(7);
      await setData(id, row.data);
    });

    it('reports the reconciled actual cost, else the whole-cent estimate', async () => {
      const account = await accountUuid(owner.accountId);
      const actual = await seed(id, account, {
        createdAt: '2024-01-01T00:00:00Z',
        jurisdictions: ['EU'],
        areas: ['AML / KYC'],
        horizon: 3,
        costCents: '12.3456',
        estimateCents: 20,
      });
      const estimate = await seed(id, account, {
        createdAt: '2024-01-02T00:00:00Z',
        jurisdictions: ['EU'],
        areas: ['AML / KYC'],
        horizon: 3,
        costCents: null,
        estimateCents: 42,
      });
      const neither = await seed(id, account, {
        createdAt: '2024-01-03T00:00:00Z',
        jurisdictions: ['EU'],
        areas: ['AML / KYC'],
        horizon: 3,
        costCents: null,
        estimateCents: null,
      });
      expect((await get(owner.apiKey, `/v1/snapshots/${actual}`).expect(200)).body.cost_cents).toBe(12.3456);
      expect((await get(owner.apiKey, `/v1/snapshots/${estimate}`).expect(200)).body.cost_cents).toBe(42);
      expect((await get(owner.apiKey, `/v1/snapshots/${neither}`).expect(200)).body.cost_cents).toBeNull();
      const listed = (await get(owner.apiKey, '/v1/snapshots?to=2024-12-31T00:00:00Z').expect(200)).body.data;
      expect(listed.map((s: Json) => [s.id, s.cost_cents])).toEqual([
        [neither, null],
        [estimate, 42],
        [actual, 12.3456],
      ]);
    });

    it('serves the envelope sections as sub-resources, matching the full read', async () => {
      const { body: full } = await get(owner.apiKey, `/v1/snapshots/${id}`).expect(200);
      const items = await get(owner.apiKey, `/v1/snapshots/${id}/items`).expect(200);
      expect(items.body).toEqual({ data: full.data.items });
      const trends = await get(owner.apiKey, `/v1/snapshots/${id}/trends`).expect(200);
      expect(trends.body).toEqual({ data: full.data.trends });
      const summary = await get(owner.apiKey, `/v1/snapshots/${id}/executive-summary`).expect(200);
      expect(summary.body).toEqual({ data: full.data.executive_summary });
      expect(summary.body.data).toEqual({ bottom_line: expect.any(String), priorities: expect.any(Array) });
      const narrative = await get(owner.apiKey, `/v1/snapshots/${id}/executive-narrative`).expect(200);
      expect(narrative.body).toEqual({ executive_narrative: full.data.executive_narrative, language: 'en' });
      expect((await get(owner.apiKey, `/v1/snapshots/${id}/executive-narrative?language=en`).expect(200)).body).toEqual(narrative.body);
      const briefing = await get(owner.apiKey, `/v1/snapshots/${id}/briefing`).expect(200);
      expect(briefing.body).toEqual({ available: true, ...full.data._briefing });
      expect(Object.keys(briefing.body).sort()).toEqual(
        [
          'available',
          'briefing_headline',
          'briefing_standfirst',
          'priorities',
          'bottom_line_tight',
          'pull_quote',
          'sentiment_label',
          'sentiment_rationale',
        ].sort(),
      );
      for (const response of [items, trends, summary, narrative, briefing]) expectClean(response.body);
    });

    it('answers null or available:false when a section is absent, and 404 not_found without a narrative', async () => {
      const row = await stored(id);
      const { items: _i, trends: _t, executive_summary: _s, executive_narrative: _n, _briefing: _b, ...rest } = row.data;
      await setData(id, rest);
      try {
        expect((await get(owner.apiKey, `/v1/snapshots/${id}/items`).expect(200)).body).toEqual({ data: null });
        expect((await get(owner.apiKey, `/v1/snapshots/${id}/trends`).expect(200)).body).toEqual({ data: null });
        expect((await get(owner.apiKey, `/v1/snapshots/${id}/executive-summary`).expect(200)).body).toEqual({ data: null });
        expect((await get(owner.apiKey, `/v1/snapshots/${id}/briefing`).expect(200)).body).toEqual({ available: false });
        const narrative = await get(owner.apiKey, `/v1/snapshots/${id}/executive-narrative`).expect(404);
        expect(narrative.body).toMatchObject({ code: 'not_found', status: 404 });
        expect(narrative.headers['content-type']).toMatch(/^application\/problem\+json/);
        expect((await get(owner.apiKey, `/v1/snapshots/${id}/executive-narrative?language=fr`).expect(404)).body.code).toBe('not_found');
        // Empty arrays are data, not absence.
        await setData(id, { ...rest, items: [], trends: [] });
        expect((await get(owner.apiKey, `/v1/snapshots/${id}/items`).expect(200)).body).toEqual({ data: [] });
        expect((await get(owner.apiKey, `/v1/snapshots/${id}/trends`).expect(200)).body).toEqual({ data: [] });
      } finally {
        await setData(id, row.data);
      }
    });

    it('answers 404 not_found for unknown, malformed and foreign ids on every read', async () => {
      const paths = (snapshotId: string) => [
        `/v1/snapshots/${snapshotId}`,
        ...SUB_RESOURCES.map((s) => `/v1/snapshots/${snapshotId}/${s}`),
      ];
      for (const path of [...paths(randomUUID()), ...paths('not-a-uuid'), ...paths('1'), ...paths(id)]) {
        const key = path.includes(id) ? stranger.apiKey : owner.apiKey;
        const response = await get(key, path).expect(404);
        expect(response.body).toMatchObject({ code: 'not_found', status: 404, instance: path, errors: [] });
        expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
      }
      // Another account's snapshot does not leak through the list either.
      const theirs = await get(stranger.apiKey, '/v1/snapshots').expect(200);
      expect(theirs.body).toEqual({ data: [], pagination: { limit: 50, offset: 0, total: 0 } });
    });

    it('requires a bearer key', async () => {
      for (const path of ['/v1/snapshots', `/v1/snapshots/${id}`, `/v1/snapshots/${id}/drift`]) {
        expect((await t.http().get(path).expect(401)).body.code).toBe('authentication_required');
      }
    });

    it('sends a strong ETag and answers If-None-Match with 304 on every read by id', async () => {
      for (const path of [
        `/v1/snapshots/${id}`,
        `/v1/snapshots/${id}?language=simple`,
        ...SUB_RESOURCES.map((s) => `/v1/snapshots/${id}/${s}`),
      ]) {
        const first = await get(owner.apiKey, path).expect(200);
        const etag = first.headers.etag;
        expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
        const again = await get(owner.apiKey, path).expect(200);
        expect(again.headers.etag).toBe(etag);
        const notModified = await get(owner.apiKey, path).set('If-None-Match', etag).expect(304);
        expect(notModified.headers.etag).toBe(etag);
        expect(notModified.text ?? '').toBe('');
        await get(owner.apiKey, path).set('If-None-Match', `"stale", W/${etag}`).expect(304);
        await get(owner.apiKey, path).set('If-None-Match', '"stale"').expect(200);
      }
      const en = (await get(owner.apiKey, `/v1/snapshots/${id}`).expect(200)).headers.etag;
      expect((await get(owner.apiKey, `/v1/snapshots/${id}?language=en`).expect(200)).headers.etag).toBe(en);
      expect((await get(owner.apiKey, `/v1/snapshots/${id}?language=simple`).expect(200)).headers.etag).not.toBe(en);
      // A 304 is only for the owner: another account still gets 404.
      await get(stranger.apiKey, `/v1/snapshots/${id}`).set('If-None-Match', en).expect(404);
    });

    it('rejects a language outside the vocabulary with 422 naming `language`', async () => {
      for (const language of ['pt', 'EN', 'xx', '']) {
        const response = await get(owner.apiKey, `/v1/snapshots/${id}?language=${language}`).expect(422);
        expect(response.body).toMatchObject({
          code: 'validation_error',
          errors: [{ path: 'language', code: 'invalid', message: expect.any(String) }],
        });
      }
      await get(owner.apiKey, `/v1/snapshots/${id}?language=fr&language=de`).expect(422);
    });
  });

  describe('language projection', () => {
    let owner: Awaited<ReturnType<typeof newAccount>>;
    let id: string;
    let original: Json;

    beforeAll(async () => {
      owner = await newAccount(t);
      id = await scan(owner.apiKey, EU_UK_AML);
      original = (await get(owner.apiKey, `/v1/snapshots/${id}`).expect(200)).body;
    });

    /** A translation as the translation port would store it (its prose keeps markers, like the original). */
    function frenchOf(data: Json): Json {
      return {
        language: 'fr',
        complete: true,
        provider: 'deepl',
        items: data.items.map((item: Json) => ({
          id: item.id,
          title: `FR ${item.title}`,
          summary: `Résumé de ${item.id} [[cite:1]].`,
          implications: `Conséquences de ${item.id}.`,
        })),
        trends: data.trends.map((trend: Json) => ({
          id: trend.id,
          title: `FR ${trend.title}`,
          description: `Description ${trend.id} [[cite:2]].`,
        })),
        executive_summary: { bottom_line: 'En bref [[cite:1]].', priorities: ['Priorité un'] },
        executive_narrative: 'Récit en français [[cite:1]] avec des sources.',
        _briefing: { ...data._briefing, briefing_headline: 'Titre en français' },
      };
    }

    it('returns the original, untouched, for en, for no parameter and for a language without a translation', async () => {
      for (const language of ['en', 'fr', 'de', 'ja', 'zh', 'es', 'it']) {
        const { body } = await get(owner.apiKey, `/v1/snapshots/${id}?language=${language}`).expect(200);
        expect(body).toEqual(original);
      }
      const narrative = await get(owner.apiKey, `/v1/snapshots/${id}/executive-narrative?language=fr`).expect(404);
      expect(narrative.body).toMatchObject({ code: 'translation_not_available', status: 404 });
      expect((await get(owner.apiKey, `/v1/snapshots/${id}/executive-narrative?language=pt`).expect(404)).body.code).toBe(
        'translation_not_available',
      );
      expect((await get(owner.apiKey, `/v1/snapshots/${id}/executive-narrative?language=klingon`).expect(404)).body.code).toBe(
        'translation_not_available',
      );
    });

    it('projects a complete translation over the envelope, with markers stripped', async () => {
      const row = await stored(id);
      const fr = frenchOf(row.data);
      const incompleteDe = { ...frenchOf(row.data), language: 'de', complete: false, executive_narrative: 'Unvollständig.' };
      const before = (await get(owner.apiKey, `/v1/snapshots/${id}?language=fr`).expect(200)).headers.etag;
      await db.query(
        `UPDATE snapshots SET data = jsonb_set(jsonb_set(data, '{translations,fr}', $1::jsonb), '{translations,de}', $2::jsonb) WHERE id = $3`,
        [JSON.stringify(fr), JSON.stringify(incompleteDe), id],
      );
      // The row is immutable in the service; rewriting it here drops what reads derived from it.
      await db.query('DELETE FROM snapshot_representations WHERE snapshot_id = $1', [id]);

      const response = await get(owner.apiKey, `/v1/snapshots/${id}?language=fr`).expect(200);
      expect(response.headers.etag).not.toBe(before);
      const { body } = response;
      expectClean(body);
      expect(body).toMatchObject({
        id,
        title: original.title,
        config: original.config,
        cost_cents: original.cost_cents,
        created_at: original.created_at,
      });
      const { data } = body;
      expect(data._meta).toEqual({ ...original.data._meta, language: 'fr' });
      data.items.forEach((item: Json, i: number) => {
        const source = original.data.items[i];
        expect(item).toEqual({
          ...source,
          title: `FR ${source.title}`,
          summary: `Résumé de ${source.id}.`,
          implications: `Conséquences de ${source.id}.`,
        });
      });
      data.trends.forEach((trend: Json, i: number) => {
        const source = original.data.trends[i];
        expect(trend).toEqual({ ...source, title: `FR ${source.title}`, description: `Description ${source.id}.` });
      });
      expect(data.executive_summary).toEqual({ bottom_line: 'En bref.', priorities: ['Priorité un'] });
      expect(data.executive_narrative).toBe('Récit en français avec des sources.');
      expect(data._briefing.briefing_headline).toBe('Titre en français');
      expect(data.auditor).toEqual(original.data.auditor);

      // The narrative endpoint serves the translation; an incomplete one is not available.
      const narrative = await get(owner.apiKey, `/v1/snapshots/${id}/executive-narrative?language=fr`).expect(200);
      expect(narrative.body).toEqual({ executive_narrative: 'Récit en français avec des sources.', language: 'fr' });
      expect((await get(owner.apiKey, `/v1/snapshots/${id}/executive-narrative?language=FR`).expect(200)).body.language).toBe('fr');
      expect((await get(owner.apiKey, `/v1/snapshots/${id}/executive-narrative?language=de`).expect(404)).body.code).toBe(
        'translation_not_available',
      );

      // Other languages and the default stay the original (the envelope now also lists the translations).
      const de = (await get(owner.apiKey, `/v1/snapshots/${id}?language=de`).expect(200)).body;
      const en = (await get(owner.apiKey, `/v1/snapshots/${id}`).expect(200)).body;
      expect(de).toEqual(en);
      expect(en.data.items).toEqual(original.data.items);
      expect(en.data.executive_narrative).toBe(original.data.executive_narrative);
      expect(en.data).not.toHaveProperty('_meta.language');
      expect(en.data.translations.fr.executive_narrative).toBe('Récit en français avec des sources.');
      expectClean(en);
    });

    it('projects the Simplified English register for `simple`', async () => {
      const row = await stored(id);
      const { body } = await get(owner.apiKey, `/v1/snapshots/${id}?language=simple`).expect(200);
      expectClean(body);
      expect(body.data._meta.language).toBe('simple');
      expect(body.data.items.map((i: Json) => i.id)).toEqual(original.data.items.map((i: Json) => i.id));
      body.data.items.forEach((item: Json) => {
        const plain = row.data._plain[item.id];
        expect(item.summary).toMatch(/Date to watch: /);
        if (plain) expect(item.summary.startsWith(plain.replace(/\.?$/, ''))).toBe(true);
      });
      expect(body.data.executive_summary.bottom_line).toMatch(/rule change/);
      expect(body.data.executive_narrative).not.toBe(original.data.executive_narrative);
      const narrative = await get(owner.apiKey, `/v1/snapshots/${id}/executive-narrative?language=simple`).expect(200);
      expect(narrative.body).toEqual({ executive_narrative: body.data.executive_narrative, language: 'simple' });
    });
  });

  describe('list', () => {
    let owner: Awaited<ReturnType<typeof newAccount>>;
    let real: string;
    const seeded: Record<string, string> = {};

    beforeAll(async () => {
      owner = await newAccount(t);
      real = await scan(owner.apiKey, EU_UK_AML);
      const account = await accountUuid(owner.accountId);
      const rows: Array<[string, Parameters<typeof seed>[2]]> = [
        ['s1', { createdAt: '2025-01-01T00:00:00Z', jurisdictions: ['EU', 'UK'], areas: ['AML / KYC'] }],
        ['s2', { createdAt: '2025-01-02T00:00:00Z', jurisdictions: ['eu'], areas: ['Payments'] }],
        ['s3', { createdAt: '2025-01-03T00:00:00Z', jurisdictions: ['US'], areas: ['Payments', 'AML / KYC'] }],
        ['s4', { createdAt: '2025-01-04T00:00:00Z', jurisdictions: ['Europe'], areas: ['payments'] }],
        ['s5', { createdAt: '2025-01-05T00:00:00Z', jurisdictions: ['UK'], areas: ['Sanctions'], kind: 'council_seat' }],
      ];
      for (const [name, row] of rows) seeded[name] = await seed(real, account, { ...row, title: name });
    });

    const list = (query = '') => get(owner.apiKey, `/v1/snapshots${query}`);
    const titles = (body: Json) => body.data.map((s: Json) => s.title);
    const old = '&to=2025-12-31T00:00:00Z';

    it('lists list items per ../shared/spec/decisions.md, newest first', async () => {
      const { body } = await list().expect(200);
      expect(body.pagination).toEqual({ limit: 50, offset: 0, total: 6 });
      expect(titles(body).slice(1)).toEqual(['s5', 's4', 's3', 's2', 's1']);
      const row = await stored(real);
      expect(body.data[0]).toEqual({
        id: real,
        title: row.title,
        scan_id: row.scan_id,
        engine: 'v4',
        horizon: 12,
        jurisdictions: ['EU', 'UK'],
        areas: ['AML / KYC'],
        item_count: row.data.items.length,
        cost_cents: Number(row.cost_cents),
        created_at: row.created_at.toISOString(),
        kind: 'standard',
      });
      const full = (await get(owner.apiKey, `/v1/snapshots/${real}`).expect(200)).body;
      expect(body.data[0].cost_cents).toBe(full.cost_cents);
      expect(body.data[1]).toMatchObject({ id: seeded.s5, kind: 'council_seat', jurisdictions: ['UK'], areas: ['Sanctions'] });
      expectClean(body);
    });

    it.each([
      ['?jurisdiction=EU', ['s2', 's1']],
      ['?jurisdiction=eu', ['s2', 's1']],
      ['?jurisdiction=E', []],
      ['?jurisdiction=europe', ['s4']],
      ['?area=PAYMENTS', ['s4', 's3', 's2']],
      ['?area=aml%20%2F%20kyc', ['s3', 's1']],
      ['?jurisdiction=EU&area=payments', ['s2']],
      ['?jurisdiction=UK&area=AML%20%2F%20KYC', ['s1']],
      ['?from=2025-01-02T00:00:00Z&to=2025-01-04T00:00:00Z', ['s3', 's2']],
      ['?from=2025-01-04T00:00:00.000%2B00:00', ['s5', 's4']],
      ['?to=2025-01-02T00:00:00Z', ['s1']],
      ['?from=2025-01-03T00:00:00Z&to=2025-01-03T00:00:00Z', []],
      ['?from=2025-01-02T01:00:00%2B01:00&to=2025-01-03', ['s2']],
      ['?area=Sanctions&from=2025-01-01T00:00:00Z', ['s5']],
    ])('filters %s', async (query, expected) => {
      const { body } = await list(`${query}${query.includes('to=') ? '' : old}`).expect(200);
      expect(titles(body)).toEqual(expected);
      expect(body.pagination.total).toBe(expected.length);
    });

    it('pages with limit and offset, reporting the filtered total', async () => {
      const page = async (query: string) => (await list(`${query}${old}`).expect(200)).body;
      expect(await page('?limit=2')).toMatchObject({ pagination: { limit: 2, offset: 0, total: 5 } });
      expect(titles(await page('?limit=2'))).toEqual(['s5', 's4']);
      expect(titles(await page('?limit=2&offset=2'))).toEqual(['s3', 's2']);
      expect(titles(await page('?limit=2&offset=4'))).toEqual(['s1']);
      expect(await page('?limit=2&offset=5')).toEqual({ data: [], pagination: { limit: 2, offset: 5, total: 5 } });
      expect(await page('?offset=1000')).toEqual({ data: [], pagination: { limit: 50, offset: 1000, total: 5 } });
      expect(titles(await page('?limit=1'))).toEqual(['s5']);
      expect(titles(await page('?limit=100'))).toHaveLength(5);
      expect(titles(await page('?limit=1&offset=4&area=payments'))).toEqual([]);
      expect((await page('?limit=1&offset=2&area=payments')).pagination).toEqual({ limit: 1, offset: 2, total: 3 });
    });

    it('breaks ties on created_at by id, so pages never overlap', async () => {
      const tie = await newAccount(t);
      const account = await accountUuid(tie.accountId);
      const ids: string[] = [];
      for (let i = 0; i < 4; i++)
        ids.push(await seed(real, account, { createdAt: '2025-06-01T00:00:00Z', jurisdictions: ['EU'], areas: ['Payments'] }));
      const seen: string[] = [];
      for (let offset = 0; offset < 4; offset++)
        seen.push(...(await get(tie.apiKey, `/v1/snapshots?limit=1&offset=${offset}`).expect(200)).body.data.map((s: Json) => s.id));
      expect(seen).toEqual([...ids].sort().reverse());
    });

    it.each([
      ['limit=0', ['limit']],
      ['limit=101', ['limit']],
      ['limit=-1', ['limit']],
      ['limit=abc', ['limit']],
      ['limit=1.5', ['limit']],
      ['limit=', ['limit']],
      ['limit=1&limit=2', ['limit']],
      ['offset=-1', ['offset']],
      ['offset=x', ['offset']],
      ['offset=99999999999999999999', ['offset']],
      ['limit=0&offset=-1', ['limit', 'offset']],
      ['from=yesterday', ['from']],
      ['from=2025-02-30T00:00:00Z', ['from']],
      ['to=2025-13-01', ['to']],
      ['jurisdiction=EU&jurisdiction=UK', ['jurisdiction']],
    ])('rejects %s with 422 validation_error naming the parameter', async (query, paths) => {
      const response = await list(`?${query}`).expect(422);
      expect(response.body).toMatchObject({ code: 'validation_error', status: 422 });
      expect(response.body.errors.map((e: Json) => e.path).sort()).toEqual(paths);
      for (const error of response.body.errors) expect(error).toEqual({ path: error.path, code: 'invalid', message: expect.any(String) });
    });

    it('rejects `from` after `to` with invalid_range on `from`', async () => {
      const response = await list('?from=2025-01-05T00:00:00Z&to=2025-01-01T00:00:00Z').expect(422);
      expect(response.body).toMatchObject({
        code: 'validation_error',
        errors: [{ path: 'from', code: 'invalid_range', message: expect.any(String) }],
      });
    });

    it.each(['starred=true', 'starred=false', 'starred=', 'starred', 'starred[]=1', 'starred=1&limit=0', 'limit=5&starred=yes'])(
      'rejects %s with 422 unknown_parameter',
      async (query) => {
        const response = await list(`?${query}`).expect(422);
        expect(response.body).toMatchObject({
          code: 'unknown_parameter',
          status: 422,
          errors: [{ path: 'starred', code: 'unknown', message: expect.any(String) }],
        });
        expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
      },
    );

    it('keeps a large total exact when a scan adds a snapshot (the totals cache is invalidated on insert)', async () => {
      const big = await newAccount(t);
      const first = await scan(big.apiKey, EU_UK_AML);
      const account = await accountUuid(big.accountId);
      await db.query(
        `INSERT INTO snapshots (id, account_id, scan_id, kind, parent_snapshot_id, title, config, data, engine, horizon, jurisdictions, areas,
                                jurisdiction_keys, area_keys, item_count, cost_cents, estimate_cents, created_at)
         SELECT gen_random_uuid(), $1, gen_random_uuid(), 'standard', NULL, 'bulk ' || g, config, data, engine, horizon, jurisdictions, areas,
                jurisdiction_keys, area_keys, item_count, cost_cents, estimate_cents, created_at - make_interval(mins => g)
         FROM snapshots CROSS JOIN generate_series(1, 1200) AS g WHERE id = $2`,
        [account, first],
      );
      const total = async (query: string) => (await get(big.apiKey, `/v1/snapshots${query}`).expect(200)).body.pagination.total;
      expect(await total('?jurisdiction=eu')).toBe(1201);
      const redis = t.app.get(RedisService);
      const cached = await redis.client.hgetall(redis.key('snapshot-totals', account));
      // The scan's insert started generation 1; the count is stored under it.
      expect(cached).toEqual({ _gen: '1', [JSON.stringify([null, null, 'eu', null])]: expect.stringMatching(/^1:1201:\d+$/) });
      // Later pages reuse the total; the rows stay exact.
      expect((await get(big.apiKey, '/v1/snapshots?jurisdiction=eu&limit=100&offset=1200').expect(200)).body).toMatchObject({
        data: [expect.objectContaining({ title: 'bulk 1200' })],
        pagination: { limit: 100, offset: 1200, total: 1201 },
      });
      await scan(big.apiKey, EU_UK_AML);
      expect(await redis.client.hget(redis.key('snapshot-totals', account), '_gen')).toBe('2');
      expect(await total('?jurisdiction=eu')).toBe(1202);
      expect(await total('?jurisdiction=eu&area=payments')).toBe(0);
      expect(await total('')).toBe(1202);
    });

    it('ignores other unknown query parameters', async () => {
      const { body } = await list(`?utm_source=newsletter&sort=asc&kind=standard&Starred=1${old}`).expect(200);
      expect(titles(body)).toEqual(['s5', 's4', 's3', 's2', 's1']);
    });
  });

  describe('drift', () => {
    let owner: Awaited<ReturnType<typeof newAccount>>;

    beforeAll(async () => {
      owner = await newAccount(t);
    });

    const drift = async (id: string) => {
      const { body } = await get(owner.apiKey, `/v1/snapshots/${id}/drift`).expect(200);
      expectClean(body);
      return body;
    };
    const ids = (items: Json[]) => items.map((i) => i.id);

    it('is unavailable on a first run, then matches added, removed and changed items field by field', async () => {
      const first = await scan(owner.apiKey, EU_UK_AML);
      expect(await drift(first)).toEqual({ available: false });

      const second = await scan(owner.apiKey, EU_AML_PAYMENTS);
      const currentItems = (await get(owner.apiKey, `/v1/snapshots/${second}/items`).expect(200)).body.data as Json[];
      const currentIds = new Set(ids(currentItems));

      // Make the stored baseline differ from today's calendar on one item both snapshots report.
      const baselineRow = await stored(first);
      const target = currentItems.find((item) => baselineRow.data.items.some((b: Json) => b.id === item.id));
      expect(target).toBeDefined();
      const previous = {
        stage: target!.stage === 'proposed' ? 'adopted' : 'proposed',
        key_date: '2020-01-31',
        summary: 'An older summary [[cite:1]].',
        impact: target!.impact === 'high' ? 'low' : 'high',
      };
      await setData(first, {
        ...baselineRow.data,
        items: baselineRow.data.items.map((item: Json) => (item.id === target!.id ? { ...item, ...previous } : item)),
      });

      const baseItems = (await get(owner.apiKey, `/v1/snapshots/${first}/items`).expect(200)).body.data as Json[];
      const baseIds = new Set(ids(baseItems));
      const expectedAdded = currentItems.filter((i) => !baseIds.has(i.id));
      const expectedRemoved = baseItems.filter((i) => !currentIds.has(i.id));
      // The scopes differ on both sides, so the scan pair exercises every kind of change.
      expect(expectedAdded.length).toBeGreaterThan(0);
      expect(expectedRemoved.length).toBeGreaterThan(0);

      const overlay = await drift(second);
      const common = currentItems.filter((i) => baseIds.has(i.id)).length;
      expect(overlay).toEqual({
        available: true,
        baseline_snapshot_id: first,
        baseline_created_at: (await stored(first)).created_at.toISOString(),
        summary: { added: expectedAdded.length, removed: expectedRemoved.length, changed: 1, unchanged: common - 1 },
        added: expectedAdded,
        removed: expectedRemoved,
        // The baseline's UK items are still in the calendar, outside the new scope (EU only).
        removed_reasons: Object.fromEntries(expectedRemoved.map((item) => [item.id, 'outside_scope'])),
        changed: [
          {
            item_id: target!.id,
            title: target!.title,
            fields: [
              { field: 'stage', before: previous.stage, after: target!.stage },
              { field: 'key_date', before: '2020-01-31', after: target!.key_date },
              { field: 'impact', before: previous.impact, after: target!.impact },
              { field: 'summary', before: 'An older summary.', after: target!.summary },
            ],
          },
        ],
      });
      // Items keep their ids across snapshots of the same instruments.
      expect(common).toBeGreaterThan(0);
      // The first snapshot still has no baseline: drift only looks back.
      expect(await drift(first)).toEqual({ available: false });

      // ETag and 304 work on the overlay too.
      const tagged = await get(owner.apiKey, `/v1/snapshots/${second}/drift`).expect(200);
      await get(owner.apiKey, `/v1/snapshots/${second}/drift`).set('If-None-Match', tagged.headers.etag).expect(304);
    });

    it('tells items the item cap dropped from items the scope left out', async () => {
      const account = await newAccount(t);
      const narrow = await scan(account.apiKey, { jurisdictions: ['EU'], areas: ['Payments'], horizon: 36 });
      const wide = await scan(account.apiKey, { jurisdictions: JURISDICTIONS.map((j) => j.id), areas: AREAS.map((a) => a.id), horizon: 36 });
      const overlay = (await get(account.apiKey, `/v1/snapshots/${wide}/drift`).expect(200)).body;
      expect(overlay).toMatchObject({ available: true, baseline_snapshot_id: narrow });
      // Every EU payments instrument still matches the wide scope: those missing were left out by the 40-item cap.
      expect(overlay.removed.length).toBeGreaterThan(0);
      expect(overlay.removed_reasons).toEqual(Object.fromEntries(overlay.removed.map((item: Json) => [item.id, 'dropped_by_cap'])));
      const wideMeta = (await stored(wide)).data._meta;
      expect(wideMeta.capped).toBe(true);
    });

    it('needs the same horizon and an overlapping jurisdiction and area; other accounts never count', async () => {
      const account = await newAccount(t);
      const base = await scan(account.apiKey, { jurisdictions: ['UK'], areas: ['Payments'], horizon: 24 });
      const otherHorizon = await scan(account.apiKey, { jurisdictions: ['UK'], areas: ['Payments'], horizon: 36 });
      const otherArea = await scan(account.apiKey, { jurisdictions: ['UK'], areas: ['AML / KYC'], horizon: 24 });
      const otherJurisdiction = await scan(account.apiKey, { jurisdictions: ['EU'], areas: ['Payments'], horizon: 24 });
      const caseInsensitive = await scan(account.apiKey, { jurisdictions: ['uk', 'Singapore'], areas: ['payments'], horizon: 24 });
      const check = async (id: string) => (await get(account.apiKey, `/v1/snapshots/${id}/drift`).expect(200)).body;
      expect(await check(base)).toEqual({ available: false });
      expect(await check(otherHorizon)).toEqual({ available: false });
      expect(await check(otherArea)).toEqual({ available: false });
      expect(await check(otherJurisdiction)).toEqual({ available: false });
      expect(await check(caseInsensitive)).toMatchObject({ available: true, baseline_snapshot_id: base });

      // The same scope in another account has no baseline there.
      const stranger = await newAccount(t);
      const theirs = await scan(stranger.apiKey, { jurisdictions: ['UK'], areas: ['Payments'], horizon: 24 });
      expect((await get(stranger.apiKey, `/v1/snapshots/${theirs}/drift`).expect(200)).body).toEqual({ available: false });
    });

    it('compares council composites with standard snapshots, and seats only with seats of the same lens', async () => {
      const account = await newAccount(t);
      const scope = { jurisdictions: ['EU'], areas: ['Payments'], horizon: 18 };
      const standard = await scan(account.apiKey, scope);
      const composite = await scan(account.apiKey, { ...scope, engine: 'council' });
      const seats: Json[] = await db.query('SELECT id, data FROM snapshots WHERE parent_snapshot_id = $1 ORDER BY id', [composite]);
      expect(seats).toHaveLength(2);
      const check = async (id: string) => (await get(account.apiKey, `/v1/snapshots/${id}/drift`).expect(200)).body;
      expect(await check(composite)).toMatchObject({ available: true, baseline_snapshot_id: standard });
      for (const seat of seats) expect(await check(seat.id)).toEqual({ available: false });

      const later = await scan(account.apiKey, scope);
      expect(await check(later)).toMatchObject({
        available: true,
        baseline_snapshot_id: composite,
        summary: { added: 0, removed: 0, changed: 0 },
      });

      const secondCouncil = await scan(account.apiKey, { ...scope, engine: 'council' });
      const nextSeats: Json[] = await db.query('SELECT id, data FROM snapshots WHERE parent_snapshot_id = $1', [secondCouncil]);
      for (const seat of nextSeats) {
        const previous = seats.find((s) => s.data._meta.council_seat === seat.data._meta.council_seat)!;
        expect(await check(seat.id)).toMatchObject({ available: true, baseline_snapshot_id: previous.id });
      }
      const listed = (await get(account.apiKey, '/v1/snapshots').expect(200)).body.data as Json[];
      expect(listed.map((s) => s.kind).sort()).toEqual([
        'council_composite',
        'council_composite',
        'council_seat',
        'council_seat',
        'council_seat',
        'council_seat',
        'standard',
        'standard',
      ]);
    });
  });
});
