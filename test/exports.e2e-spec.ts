import { getQueueToken } from '@nestjs/bull';
import type { Queue } from 'bull';
import { DataSource } from 'typeorm';
import { EXPORTS_QUEUE } from '../src/infra/queues/queue-names';
import { AccountsService } from '../src/modules/accounts/accounts.service';
import { ExportsProcessor } from '../src/modules/exports/exports.processor';
import { bootTestApp, newAccount, type TestApp, downloadExport, finishedExport } from './support/test-app';

const SCAN = { jurisdictions: ['EU', 'UK'], areas: ['AML / KYC', 'Payments'], horizon: 12 };

describe('exports', () => {
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof newAccount>>;
  let snapshotId: string;
  let itemTitles: string[];
  let auth: string;

  beforeAll(async () => {
    t = await bootTestApp();
    owner = await newAccount(t);
    auth = `Bearer ${owner.apiKey}`;
    const scan = await t.http().post('/v1/scans').set('Authorization', auth).send(SCAN).expect(200);
    snapshotId = scan.body.snapshot_id;
    itemTitles = scan.body.snapshot.data.items.map((item: { title: string }) => item.title);
  });
  afterAll(() => t.close());

  const create = (body: object, key = auth) => t.http().post('/v1/exports').set('Authorization', key).send(body);
  const job = (id: string) => t.http().get(`/v1/exports/${id}`).set('Authorization', auth);
  const finished = (id: string) => finishedExport(t, id, auth);
  const download = (id: string) => downloadExport(t, id, auth);

  it('creates a PDF export: 202, Location, then completed with a download that parses as the report', async () => {
    const created = await create({ snapshot_id: snapshotId, provider: 'internal-pdf', artifact_type: 'pdf' }).expect(202);
    expect(created.body).toEqual({
      export_job_id: expect.any(String),
      status: 'queued',
      status_url: `/v1/exports/${created.body.export_job_id}`,
      download_url: null,
    });
    expect(created.headers.location).toBe(created.body.status_url);
    expect(created.headers['ratelimit-policy']).toBe('30;w=3600');
    const done = await finished(created.body.export_job_id);
    expect(done).toEqual({
      id: created.body.export_job_id,
      status: 'completed',
      artifact_type: 'pdf',
      provider: 'internal-pdf',
      snapshot_id: snapshotId,
      options: {},
      created_at: expect.any(String),
      completed_at: expect.any(String),
      cost_cents: 0,
      error: null,
      result_mime: 'application/pdf',
      result_filename: expect.stringMatching(/\.pdf$/),
      result_size_bytes: expect.any(Number),
      download_url: `/v1/exports/${created.body.export_job_id}/download`,
      effective_locale: 'en',
      locale_provenance: 'default',
      rendered_by: null,
    });
    const file = await download(done.id).expect(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.headers['content-disposition']).toMatch(/^inline; filename="[^"]+\.pdf"/);
    expect(Number(file.headers['content-length'])).toBe(done.result_size_bytes);
    expect((file.body as Buffer).subarray(0, 5).toString()).toBe('%PDF-');
    // Range is for audio and video only: a PDF comes whole.
    const ranged = await download(done.id).set('Range', 'bytes=0-9').expect(200);
    expect((ranged.body as Buffer).length).toBe(done.result_size_bytes);
    expect(ranged.headers['accept-ranges']).toBeUndefined();
  });

  it('renders the CSV as an attachment with a header row and one row per item', async () => {
    const created = await create({ snapshot_id: snapshotId, provider: 'internal-csv', artifact_type: 'csv' }).expect(202);
    const done = await finished(created.body.export_job_id);
    const file = await download(done.id).expect(200);
    expect(file.headers['content-type']).toMatch(/^text\/csv/);
    expect(file.headers['content-disposition']).toMatch(/^attachment; filename=/);
    const text = (file.body as Buffer).toString('utf8');
    for (const title of itemTitles) expect(text).toContain(title.replace(/"/g, '""'));
  });

  it.each([
    [
      'internal-pptx',
      'slide-deck',
      { theme: 'light' },
      'application/vnd.openxmlformats-officedocument.presentationml.presentation',
      (b: Buffer) => b.subarray(0, 2).toString() === 'PK',
    ],
    ['frontend-slides', 'slide-web', { styleSlug: 'light-consulting' }, 'text/html', (b: Buffer) => b.toString().includes('<html')],
    ['internal-tearsheet', 'tearsheet', {}, 'application/pdf', (b: Buffer) => b.subarray(0, 5).toString() === '%PDF-'],
    ['internal-briefing-pdf', 'briefing-pdf', {}, 'application/pdf', (b: Buffer) => b.subarray(0, 5).toString() === '%PDF-'],
    [
      'imagegen-a-infographic',
      'infographic-custom',
      {},
      'image/png',
      (b: Buffer) => b.readUInt32BE(16) === 1080 && b.readUInt32BE(20) === 1350,
    ],
    [
      'imagegen-b-infographic',
      'tearsheet-detailed',
      {},
      'image/png',
      (b: Buffer) => b.readUInt32BE(16) === 1240 && b.readUInt32BE(20) === 1754,
    ],
  ])('renders %s %s', async (provider, artifactType, options, mime, check) => {
    const created = await create({ snapshot_id: snapshotId, provider, artifact_type: artifactType, options }).expect(202);
    const done = await finished(created.body.export_job_id);
    expect(done.status).toBe('completed');
    const file = await download(done.id).expect(200);
    expect(file.headers['content-type']).toContain(mime);
    expect(check(file.body as Buffer)).toBe(true);
  });

  it('records what language was produced (../shared/spec/decisions.md C3)', async () => {
    const fr = await finished(
      (await create({ snapshot_id: snapshotId, provider: 'internal-pdf', artifact_type: 'pdf', options: {} }).expect(202)).body
        .export_job_id,
    );
    expect(fr.locale_provenance).toBe('default');
    const missing = await finished(
      (
        await create({
          snapshot_id: snapshotId,
          provider: 'internal-tearsheet',
          artifact_type: 'tearsheet',
          options: { targetLanguage: 'fr' },
        }).expect(202)
      ).body.export_job_id,
    );
    expect(missing).toMatchObject({
      effective_locale: 'en',
      locale_provenance: 'fallback_missing_translation',
      options: { targetLanguage: 'fr' },
    });
    const simple = await finished(
      (
        await create({
          snapshot_id: snapshotId,
          provider: 'internal-tearsheet',
          artifact_type: 'tearsheet',
          options: { targetLanguage: 'simple', editorialModel: 'large' },
        }).expect(202)
      ).body.export_job_id,
    );
    expect(simple).toMatchObject({ effective_locale: 'simple', locale_provenance: 'requested' });
    expect(simple.options).not.toHaveProperty('editorialModel');
  });

  describe('validation', () => {
    const base = () => ({ snapshot_id: snapshotId, provider: 'internal-pptx', artifact_type: 'slide-deck' });
    let validationKey: string;
    // A second key of the same account: every POST counts against its key's exports bucket (30 an hour).
    beforeAll(async () => {
      validationKey = `Bearer ${(await t.http().post('/v1/keys').set('Cookie', owner.cookie).send({ name: 'validation' }).expect(201)).body.key}`;
    });
    const create = (body: object, key?: string) =>
      t
        .http()
        .post('/v1/exports')
        .set('Authorization', key ?? validationKey)
        .send(body);

    it.each([
      [{ provider: 'internal-pdf', artifact_type: 'slide-deck' }, 'artifact_type', 'unknown'],
      [{ options: { theem: 'dark' } }, 'options.theem', 'unknown_option'],
      [{ options: { theme: 'sepia' } }, 'options.theme', 'invalid_value'],
      [{ options: { theme: 1 } }, 'options.theme', 'invalid_type'],
      [{ provider: 'notebook', artifact_type: 'audio', options: { instructions: 'x'.repeat(2001) } }, 'options.instructions', 'too_long'],
      [{ provider: 'notebook', artifact_type: 'audio' }, 'provider', 'incompatible'],
      [{ snapshot_id: 'nope' }, 'snapshot_id', 'invalid'],
      [{ snapshot_id: undefined }, 'snapshot_id', 'required'],
    ])('%j -> 422 %s %s', async (override, path, code) => {
      const response = await create({ ...base(), ...override }).expect(422);
      expect(response.body.code).toBe('validation_error');
      expect(response.body.errors).toContainEqual({ path, code, message: expect.any(String) });
    });

    it('hints the nearest option name and lists the valid ones', async () => {
      const response = await create({ ...base(), options: { theem: 'dark' } }).expect(422);
      expect(response.body.errors[0].message).toMatch(/theme/);
    });

    it('answers a targetLanguage outside the closed enum with unsupported_locale', async () => {
      const response = await create({ ...base(), options: { targetLanguage: 'pt' } }).expect(422);
      expect(response.body.code).toBe('unsupported_locale');
    });

    it('accepts model_id as an alias of modelId once the integration is configured', async () => {
      const accountId = await t.app.get(AccountsService).ensureAccount(owner.accountId);
      // A closed loopback port: the job may run, but never reaches beyond this machine.
      await t.app.get(AccountsService).setIntegration(accountId, 'voicePodcast', { apiKey: 'x', baseUrl: 'http://127.0.0.1:9' });
      const created = await create({
        snapshot_id: snapshotId,
        provider: 'voice-discussion',
        artifact_type: 'podcast-discussion',
        options: { model_id: 'eleven_v3' },
      }).expect(202);
      expect((await job(created.body.export_job_id).expect(200)).body.options).toMatchObject({ modelId: 'eleven_v3' });
      await t.app.get(AccountsService).clearIntegration(accountId, 'voicePodcast');
    });

    it('answers a missing or foreign snapshot with 404', async () => {
      const stranger = await newAccount(t);
      expect((await create(base(), `Bearer ${stranger.apiKey}`).expect(404)).body.code).toBe('not_found');
      expect((await create({ ...base(), snapshot_id: '00000000-0000-4000-8000-000000000000' }).expect(404)).body.code).toBe('not_found');
    });
  });

  it('answers 409 not_ready before completion, 410 gone after retention, 404 for others', async () => {
    const queue = t.app.get<Queue>(getQueueToken(EXPORTS_QUEUE));
    await queue.pause(true);
    try {
      const created = await create({ snapshot_id: snapshotId, provider: 'internal-csv', artifact_type: 'csv' }).expect(202);
      const early = await t.http().get(`/v1/exports/${created.body.export_job_id}/download`).set('Authorization', auth).expect(409);
      expect(early.body.code).toBe('not_ready');
    } finally {
      await queue.resume(true);
    }
    const done = await finished(
      (await create({ snapshot_id: snapshotId, provider: 'internal-csv', artifact_type: 'csv' }).expect(202)).body.export_job_id,
    );
    await t.app.get(DataSource).query("UPDATE export_jobs SET completed_at = now() - interval '30 days' WHERE id = $1", [done.id]);
    expect(await t.app.get(ExportsProcessor).purgeExpired()).toBeGreaterThanOrEqual(1);
    const gone = await t.http().get(`/v1/exports/${done.id}/download`).set('Authorization', auth).expect(410);
    expect(gone.body.code).toBe('gone');
    const stranger = await newAccount(t);
    await t.http().get(`/v1/exports/${done.id}`).set('Authorization', `Bearer ${stranger.apiKey}`).expect(404);
    await t.http().get(`/v1/exports/${done.id}/download`).set('Authorization', `Bearer ${stranger.apiKey}`).expect(404);
  });

  it('lists jobs newest first with snapshot, status and limit filters', async () => {
    const listed = await t
      .http()
      .get(`/v1/exports?snapshot_id=${snapshotId}&status=completed,failed&limit=3`)
      .set('Authorization', auth)
      .expect(200);
    expect(listed.body.data.length).toBeLessThanOrEqual(3);
    const times = listed.body.data.map((j: { created_at: string }) => Date.parse(j.created_at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    for (const item of listed.body.data) expect(['completed', 'failed']).toContain(item.status);
    expect((await t.http().get('/v1/exports?status=completed,bogus').set('Authorization', auth).expect(422)).body.errors[0]).toMatchObject({
      path: 'status',
      code: 'unknown',
    });
    expect((await t.http().get('/v1/exports?limit=101').set('Authorization', auth).expect(422)).body.errors[0]).toMatchObject({
      path: 'limit',
    });
  });

  it('deletes a job and its bytes (204), leaving the snapshot', async () => {
    const done = await finished(
      (await create({ snapshot_id: snapshotId, provider: 'internal-csv', artifact_type: 'csv' }).expect(202)).body.export_job_id,
    );
    await t.http().delete(`/v1/exports/${done.id}`).set('Authorization', auth).expect(204);
    await job(done.id).expect(404);
    await t.http().delete(`/v1/exports/${done.id}`).set('Authorization', auth).expect(404);
    await t.http().get(`/v1/snapshots/${snapshotId}`).set('Authorization', auth).expect(200);
  });

  it('replays an idempotent create', async () => {
    const body = { snapshot_id: snapshotId, provider: 'internal-pdf', artifact_type: 'pdf' };
    const first = await t
      .http()
      .post('/v1/exports')
      .set('Authorization', auth)
      .set('Idempotency-Key', 'export-once')
      .send(body)
      .expect(202);
    const again = await t
      .http()
      .post('/v1/exports')
      .set('Authorization', auth)
      .set('Idempotency-Key', 'export-once')
      .send(body)
      .expect(202);
    expect(again.body).toEqual(first.body);
    expect(again.headers['idempotency-replayed']).toBe('true');
    expect(again.headers.location).toBe(first.headers.location);
  });
});
