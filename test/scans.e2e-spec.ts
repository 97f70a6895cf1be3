import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../src/config/app-config';
import { AREAS } from '../src/domain/vocabulary/areas';
import { JURISDICTIONS } from '../src/domain/vocabulary/jurisdictions';
import { MAX_SELECTED_ITEMS } from '../src/engine/analysis/selection';
import { AccountsService } from '../src/modules/accounts/accounts.service';
import { BudgetService } from '../src/modules/budget/budget.service';
import { createFreshDatabase } from './support/fresh-database';
import { pollUntil } from './support/poll';
import { openSse } from './support/sse';
import { bootTestApp, newAccount, type TestApp } from './support/test-app';

const REALISTIC = { jurisdictions: ['EU', 'UK'], areas: ['AML / KYC', 'Payments'], horizon: 12 };
const MARKER = /\[\[cite:\d+\]\]/;

describe('scans', () => {
  let t: TestApp;
  let config: AppConfig;
  let baseUrl: string;
  const defaults = { offlineStepMs: 0, scanSyncWaitMs: 0, enabledEngines: [] as string[] };

  beforeAll(async () => {
    t = await bootTestApp();
    await t.app.listen(0, '127.0.0.1');
    baseUrl = `http://127.0.0.1:${(t.app.getHttpServer().address() as { port: number }).port}`;
    config = t.app.get(APP_CONFIG);
    Object.assign(defaults, {
      offlineStepMs: config.offlineStepMs,
      scanSyncWaitMs: config.scanSyncWaitMs,
      enabledEngines: [...config.enabledEngines],
    });
  });
  afterEach(() => Object.assign(config, { ...defaults, enabledEngines: [...defaults.enabledEngines] }));
  afterAll(() => t.close());

  const account = () => newAccount(t);
  const post = (key: string, body: object, mode?: string) =>
    t
      .http()
      .post(`/v1/scans${mode ? `?mode=${mode}` : ''}`)
      .set('Authorization', `Bearer ${key}`)
      .send(body);
  const status = (key: string, id: string) => t.http().get(`/v1/scans/${id}`).set('Authorization', `Bearer ${key}`);
  const waitForStatus = (key: string, id: string, wanted: string[]) =>
    pollUntil(async () => {
      const response = await status(key, id).expect(200);
      return wanted.includes(response.body.status) ? response.body : undefined;
    });

  it('runs a sync scan to completion: 200 with the snapshot, citation markers kept', async () => {
    const { apiKey } = await account();
    const response = await post(apiKey, REALISTIC).expect(200);
    expect(response.body).toEqual({
      scan_id: expect.any(String),
      status: 'completed',
      snapshot_id: expect.any(String),
      snapshot: expect.any(Object),
    });
    const { snapshot } = response.body;
    expect(snapshot).toEqual({
      id: response.body.snapshot_id,
      title: expect.any(String),
      config: expect.any(Object),
      data: expect.any(Object),
      cost_cents: expect.any(Number),
      created_at: expect.any(String),
    });
    expect(snapshot.config).toMatchObject({
      ...REALISTIC,
      engine: 'v4',
      auditorModel: 'medium',
      verifyProvider: 'fetch-b',
      fetchProvider: null,
      searchProvider: null,
    });
    expect(snapshot.data.items.length).toBeGreaterThan(0);
    for (const item of snapshot.data.items) {
      expect(['EU', 'UK']).toContain(item.jurisdiction);
      expect(item.key_date >= new Date().toISOString().slice(0, 10)).toBe(true);
      expect(item.citations.length).toBeGreaterThan(0);
    }
    expect(snapshot.data.executive_narrative).toMatch(MARKER);
    expect(snapshot.data._meta).toMatchObject({ engine_mode: 'offline', scan_date: new Date().toISOString().slice(0, 10) });
    expect(snapshot.data).not.toHaveProperty('_auditor_private');
    expect(snapshot.data).not.toHaveProperty('_plain');

    const view = await status(apiKey, response.body.scan_id).expect(200);
    expect(view.body).toEqual({
      id: response.body.scan_id,
      status: 'completed',
      progress: { phase: 'complete', percent: 100, message: expect.any(String) },
      snapshot_id: response.body.snapshot_id,
      created_at: expect.any(String),
      completed_at: expect.any(String),
      error: null,
      cost_cents: snapshot.cost_cents,
    });
    expect(view.headers['ratelimit-policy']).toBe('60;w=60');
  });

  it('answers async with 202, Location and the polling and stream paths, then completes', async () => {
    const { apiKey } = await account();
    const response = await post(apiKey, REALISTIC, 'async').expect(202);
    const id = response.body.scan_id;
    expect(response.body).toEqual({ scan_id: id, status: 'running', status_url: `/v1/scans/${id}`, stream_url: `/v1/scans/${id}/stream` });
    expect(response.headers.location).toBe(`/v1/scans/${id}`);
    expect(response.headers['ratelimit-policy']).toBe('6;w=3600');
    const finished = await waitForStatus(apiKey, id, ['completed']);
    expect(finished.snapshot_id).toEqual(expect.any(String));
  });

  it('answers a sync scan that outlives the sync window with 202 and a message', async () => {
    config.scanSyncWaitMs = 50;
    config.offlineStepMs = 100;
    const { apiKey } = await account();
    const response = await post(apiKey, REALISTIC, 'sync').expect(202);
    expect(response.body.message).toMatch(/still running/);
    expect(response.headers.location).toBe(response.body.status_url);
  });

  it('keeps another account out (404) and rejects malformed ids (404)', async () => {
    const owner = await account();
    const stranger = await account();
    const { body } = await post(owner.apiKey, REALISTIC, 'async').expect(202);
    expect((await status(stranger.apiKey, body.scan_id).expect(404)).body.code).toBe('not_found');
    expect((await status(owner.apiKey, 'not-a-uuid').expect(404)).body.code).toBe('not_found');
    await t.http().post(`/v1/scans/${body.scan_id}/cancel`).set('Authorization', `Bearer ${stranger.apiKey}`).expect(404);
  });

  it.each([
    [{}, ['jurisdictions', 'areas', 'horizon']],
    [{ ...REALISTIC, horizon: 7 }, ['horizon']],
    [{ ...REALISTIC, jurisdictions: ['EU', 'x'.repeat(101)] }, ['jurisdictions[1]']],
    [{ ...REALISTIC, engine: 'v2' }, ['engine']],
    [{ ...REALISTIC, realist: true }, ['realist']],
  ])('rejects %j with 422 validation_error listing every bad field', async (body, paths) => {
    const { apiKey } = await account();
    const response = await post(apiKey, body).expect(422);
    expect(response.body.code).toBe('validation_error');
    expect(response.body.errors.map((e: { path: string }) => e.path).sort()).toEqual([...paths].sort());
  });

  it('reports engine_deprecated as the field code of a retired engine, and council_model_fixed at the top level', async () => {
    const { apiKey } = await account();
    expect((await post(apiKey, { ...REALISTIC, engine: 'admiral' }).expect(422)).body.errors[0]).toMatchObject({
      path: 'engine',
      code: 'engine_deprecated',
    });
    expect((await post(apiKey, { ...REALISTIC, engine: 'council', model: 'medium' }).expect(422)).body.code).toBe('council_model_fixed');
    expect((await post(apiKey, REALISTIC, 'later').expect(422)).body.errors).toEqual([
      { path: 'mode', code: 'invalid', message: expect.any(String) },
    ]);
  });

  it('answers 503 engine_unavailable for an engine outside ENABLED_ENGINES', async () => {
    config.enabledEngines = ['v4'];
    const { apiKey } = await account();
    const response = await post(apiKey, { ...REALISTIC, engine: 'v4.5-alpha' }).expect(503);
    expect(response.body.code).toBe('engine_unavailable');
  });

  it('answers 402 budget_exhausted when the pool cannot cover the reservation, and charges nothing', async () => {
    const owner = await account();
    const accountId = await t.app.get(AccountsService).ensureAccount(owner.accountId);
    await t.app.get(BudgetService).setPool(accountId, 10, 'test');
    const response = await post(owner.apiKey, REALISTIC).expect(402);
    expect(response.body.code).toBe('budget_exhausted');
    expect(await t.app.get(BudgetService).view(accountId)).toMatchObject({ reserved_cents: 0, spent_cents: 0 });
  });

  it('settles the reservation at the actual cost on completion', async () => {
    const owner = await account();
    const accountId = await t.app.get(AccountsService).ensureAccount(owner.accountId);
    const { body } = await post(owner.apiKey, REALISTIC).expect(200);
    const budget = await t.app.get(BudgetService).view(accountId);
    expect(budget).toMatchObject({ reserved_cents: 0, spent_cents: body.snapshot.cost_cents });
    expect(body.snapshot.cost_cents).toBeGreaterThan(0);
  });

  it('runs a council scan: a composite snapshot plus two seat snapshots', async () => {
    const { apiKey } = await account();
    const response = await post(apiKey, { ...REALISTIC, engine: 'council' }).expect(200);
    const rows = await t.app
      .get(DataSource)
      .query('SELECT id, kind, parent_snapshot_id FROM snapshots WHERE scan_id = $1 ORDER BY kind', [response.body.scan_id]);
    expect(rows.map((r: { kind: string }) => r.kind)).toEqual(['council_composite', 'council_seat', 'council_seat']);
    expect(rows[0].id).toBe(response.body.snapshot_id);
    expect(rows[1].parent_snapshot_id).toBe(response.body.snapshot_id);
    expect(response.body.snapshot.data._meta.council.seats).toHaveLength(2);
  });

  it('says when the item cap kept fewer instruments than matched: _meta, the rule, and the prose', async () => {
    const { apiKey } = await account();
    const wide = { jurisdictions: JURISDICTIONS.map((j) => j.id), areas: AREAS.map((a) => a.id), horizon: 36 };
    for (const engine of ['v4', 'council']) {
      const { body } = await post(apiKey, { ...wide, engine }).expect(200);
      const { _meta: meta, items, executive_summary: summary, executive_narrative: narrative } = body.snapshot.data;
      expect(items).toHaveLength(MAX_SELECTED_ITEMS);
      expect(meta.selected_count).toBe(MAX_SELECTED_ITEMS);
      expect(meta.matched_count).toBeGreaterThan(MAX_SELECTED_ITEMS);
      expect(meta.capped).toBe(true);
      expect(meta.selection).toEqual({ max_items: MAX_SELECTED_ITEMS, order: expect.stringMatching(/impact.*key date.*confidence/) });
      expect(summary.bottom_line).toContain(`the ${MAX_SELECTED_ITEMS} highest-ranked of ${meta.matched_count} shown`);
      expect(narrative).toContain(`holds ${meta.matched_count} instruments`);
    }
    const narrow = await post(apiKey, REALISTIC).expect(200);
    expect(narrow.body.snapshot.data._meta).toMatchObject({ capped: false, matched_count: narrow.body.snapshot.data.items.length });
  });

  describe('cancel', () => {
    it('cancels a running scan, keeps it cancelled when the engine would have finished, and refuses a second cancel', async () => {
      config.offlineStepMs = 60;
      const owner = await account();
      const accountId = await t.app.get(AccountsService).ensureAccount(owner.accountId);
      const { body } = await post(owner.apiKey, REALISTIC, 'async').expect(202);
      await pollUntil(async () => (await status(owner.apiKey, body.scan_id)).body.progress.percent > 0);
      const cancelled = await t.http().post(`/v1/scans/${body.scan_id}/cancel`).set('Authorization', `Bearer ${owner.apiKey}`).expect(200);
      expect(cancelled.body).toEqual({ id: body.scan_id, status: 'cancelled' });
      expect(cancelled.headers['ratelimit-policy']).toBe('30;w=60');

      // Long enough for every remaining phase to have run: the late result is discarded.
      await new Promise((r) => setTimeout(r, 60 * 10));
      const view = await status(owner.apiKey, body.scan_id).expect(200);
      expect(view.body).toMatchObject({ status: 'cancelled', snapshot_id: null, completed_at: expect.any(String) });
      const snapshots = await t.app.get(DataSource).query('SELECT count(*)::int AS n FROM snapshots WHERE scan_id = $1', [body.scan_id]);
      expect(snapshots[0].n).toBe(0);

      const again = await t.http().post(`/v1/scans/${body.scan_id}/cancel`).set('Authorization', `Bearer ${owner.apiKey}`).expect(409);
      expect(again.body.code).toBe('invalid_state');
      const budget = await t.app.get(BudgetService).view(accountId);
      expect(budget.reserved_cents).toBe(0);
      expect(budget.spent_cents).toBe(view.body.cost_cents);
    });

    it('refuses to cancel a completed scan with 409 invalid_state', async () => {
      const { apiKey } = await account();
      const { body } = await post(apiKey, REALISTIC).expect(200);
      expect((await t.http().post(`/v1/scans/${body.scan_id}/cancel`).set('Authorization', `Bearer ${apiKey}`).expect(409)).body.code).toBe(
        'invalid_state',
      );
    });
  });

  describe('stream', () => {
    it('sends the current state at once, progress as phases advance, then complete with markers, and closes', async () => {
      config.offlineStepMs = 40;
      const { apiKey } = await account();
      const { body } = await post(apiKey, REALISTIC, 'async').expect(202);
      const stream = await openSse(baseUrl, body.stream_url, { Authorization: `Bearer ${apiKey}` });
      expect(stream.status).toBe(200);
      expect(stream.contentType).toMatch(/^text\/event-stream/);
      await stream.ended;
      expect(stream.raw).not.toMatch(/^event:/m);
      const types = stream.events.map((e) => e.type);
      expect(types[types.length - 1]).toBe('complete');
      expect(types.filter((type) => type === 'complete')).toHaveLength(1);
      expect(types.filter((type) => type === 'progress').length).toBeGreaterThanOrEqual(3);
      const complete = stream.events[stream.events.length - 1] as { data: { executive_narrative: string }; snapshotId: string };
      expect(complete.snapshotId).toEqual(expect.any(String));
      expect(complete.data.executive_narrative).toMatch(MARKER);
      expect(JSON.stringify(stream.events)).not.toContain('_auditor_private');
    });

    it('replays a finished scan as exactly one terminal event from storage (markers stripped), then closes', async () => {
      const { apiKey } = await account();
      const { body } = await post(apiKey, REALISTIC).expect(200);
      const stream = await openSse(baseUrl, `/v1/scans/${body.scan_id}/stream`, { Authorization: `Bearer ${apiKey}` });
      await stream.ended;
      expect(stream.events).toHaveLength(1);
      expect(stream.events[0]).toMatchObject({ type: 'complete', snapshotId: body.snapshot_id });
      expect((stream.events[0].data as { executive_narrative: string }).executive_narrative).not.toMatch(MARKER);
    });

    it('sends heartbeats and a cancelled event', async () => {
      config.offlineStepMs = 300;
      const { apiKey } = await account();
      const { body } = await post(apiKey, REALISTIC, 'async').expect(202);
      const stream = await openSse(baseUrl, body.stream_url, { Authorization: `Bearer ${apiKey}` });
      await pollUntil(async () => stream.comments.includes(': heartbeat'));
      await t.http().post(`/v1/scans/${body.scan_id}/cancel`).set('Authorization', `Bearer ${apiKey}`).expect(200);
      await stream.ended;
      expect(stream.events[stream.events.length - 1]).toEqual({ type: 'cancelled' });
      const replay = await openSse(baseUrl, body.stream_url, { Authorization: `Bearer ${apiKey}` });
      await replay.ended;
      expect(replay.events).toEqual([{ type: 'cancelled' }]);
    });

    it('is not rate-limited, and needs the owner', async () => {
      const owner = await account();
      const stranger = await account();
      const { body } = await post(owner.apiKey, REALISTIC).expect(200);
      for (let i = 0; i < 65; i++) {
        const response = await t.http().get(`/v1/scans/${body.scan_id}/stream`).set('Authorization', `Bearer ${owner.apiKey}`).expect(200);
        expect(response.headers.ratelimit).toBeUndefined();
      }
      expect(
        (await t.http().get(`/v1/scans/${body.scan_id}/stream`).set('Authorization', `Bearer ${stranger.apiKey}`).expect(404)).body.code,
      ).toBe('not_found');
    });
  });
});

// Estimator history is global, so these run on a database of their own.
describe('scan estimates', () => {
  let t: TestApp;
  let fresh: Awaited<ReturnType<typeof createFreshDatabase>>;
  const sharedUrl = process.env.DATABASE_URL;

  beforeAll(async () => {
    fresh = await createFreshDatabase();
    process.env.DATABASE_URL = fresh.url;
    t = await bootTestApp();
  });
  afterAll(async () => {
    await t.close();
    process.env.DATABASE_URL = sharedUrl;
    await fresh.drop();
  });

  const estimate = (key: string, body: object) => t.http().post('/v1/scans/estimate').set('Authorization', `Bearer ${key}`).send(body);

  it('answers a cold start with nulls, then estimates from history without touching the budget or the scans bucket', async () => {
    const { apiKey } = await newAccount(t);
    const request = {
      jurisdictions: ['Brazil', 'India', 'China', 'Japan', 'Canada', 'US', 'EU'],
      areas: ['Sanctions'],
      horizon: 36,
      engine: 'v4.5-alpha',
    };
    const cold = await estimate(apiKey, request).expect(200);
    expect(cold.body).toEqual({
      low_cents: null,
      expected_cents: null,
      high_cents: null,
      confidence: 'cold_start',
      tier: null,
      sample_size: 0,
      estimator_version: expect.any(String),
      engine: 'v4.5-alpha',
    });
    expect(cold.headers['ratelimit-policy']).toBe('60;w=60');
    // More estimates than the scans bucket holds: they count as reads.
    for (let i = 0; i < 7; i++) await estimate(apiKey, request).expect(200);

    for (let i = 0; i < 3; i++) await t.http().post('/v1/scans').set('Authorization', `Bearer ${apiKey}`).send(request).expect(200);
    const warm = await estimate(apiKey, { ...request, jurisdictions: [...request.jurisdictions].reverse() }).expect(200);
    expect(warm.body).toMatchObject({
      tier: 1,
      sample_size: 3,
      confidence: 'medium',
      fingerprint: { engine_version: 'v4.5-alpha', scan_mode: 'standard' },
    });
    expect(warm.body.low_cents).toBeLessThanOrEqual(warm.body.expected_cents);
    expect(warm.body.expected_cents).toBeLessThanOrEqual(warm.body.high_cents);
    const other = await estimate(apiKey, { ...request, horizon: 3 }).expect(200);
    expect(other.body).toMatchObject({ tier: 2, sample_size: 3 });
    const noHorizon = await estimate(apiKey, { jurisdictions: ['EU'], areas: ['Payments'], engine: 'council' }).expect(200);
    expect(noHorizon.body).toMatchObject({ tier: 3, confidence: 'low', engine: 'council' });
  });

  it('validates the estimate request', async () => {
    const { apiKey } = await newAccount(t);
    const response = await estimate(apiKey, { jurisdictions: [], horizon: 5, engine: 'v1' }).expect(422);
    expect(response.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['areas', 'engine', 'horizon', 'jurisdictions']);
  });
});

// Issue 6: every engine returns items for a realistic configuration from the calendar.
describe('offline scans per engine', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await bootTestApp();
  });
  afterAll(() => t.close());

  it.each([
    [{ engine: 'v4' }],
    [{ engine: 'v4.5-alpha' }],
    [{ engine: 'v4.5-beta', auditor: true, fetchProvider: 'fetch-b' }],
    [{ engine: 'council' }],
  ])('%j returns items for EU + UK, AML / KYC + Payments, 12 months', async (engine) => {
    const { apiKey } = await newAccount(t);
    const response = await t
      .http()
      .post('/v1/scans')
      .set('Authorization', `Bearer ${apiKey}`)
      .send({ ...REALISTIC, ...engine })
      .expect(200);
    const { data, config } = response.body.snapshot;
    expect(config.engine).toBe(engine.engine);
    expect(data.items.length).toBeGreaterThan(3);
    const today = new Date().toISOString().slice(0, 10);
    for (const item of data.items) expect(item.key_date >= today).toBe(true);
    if ('realist' in engine)
      expect(
        data.items.every((i: { verification: { passes: Array<{ pass: string }> } }) =>
          i.verification.passes.some((p) => p.pass === 'realist'),
        ),
      ).toBe(true);
    if ('auditor' in engine) expect(data.auditor).toMatchObject({ ran: true, passes: expect.arrayContaining(['auditor']) });
  });
});
