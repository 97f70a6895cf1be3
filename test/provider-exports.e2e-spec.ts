import { AccountsService } from '../src/modules/accounts/accounts.service';
import { BudgetService } from '../src/modules/budget/budget.service';
import { startFakeNotebookServer, startFakeVoiceServer } from './fakes/fake-media-servers';
import { bootTestApp, newAccount, type TestApp, downloadExport, finishedExport } from './support/test-app';

describe('provider-backed exports (loopback fakes of the voice and notebook services)', () => {
  let t: TestApp;
  let voice: Awaited<ReturnType<typeof startFakeVoiceServer>>;
  let notebook: Awaited<ReturnType<typeof startFakeNotebookServer>>;
  let owner: Awaited<ReturnType<typeof newAccount>>;
  let accountId: string;
  let snapshotId: string;
  let auth: string;

  beforeAll(async () => {
    t = await bootTestApp();
    voice = await startFakeVoiceServer();
    notebook = await startFakeNotebookServer({ pollsUntilDone: 1 });
    owner = await newAccount(t);
    auth = `Bearer ${owner.apiKey}`;
    accountId = await t.app.get(AccountsService).ensureAccount(owner.accountId);
    await t.app.get(AccountsService).setIntegration(accountId, 'voicePodcast', { apiKey: voice.apiKey, baseUrl: voice.baseUrl });
    await t.app.get(AccountsService).setIntegration(accountId, 'notebook', { apiKey: notebook.apiKey, baseUrl: notebook.baseUrl });
    snapshotId = (
      await t
        .http()
        .post('/v1/scans')
        .set('Authorization', auth)
        .send({ jurisdictions: ['EU'], areas: ['Payments'], horizon: 24 })
        .expect(200)
    ).body.snapshot_id;
  });
  afterAll(async () => {
    await t.close();
    await voice.close();
    await notebook.close();
  });

  const create = (body: object) =>
    t
      .http()
      .post('/v1/exports')
      .set('Authorization', auth)
      .send({ snapshot_id: snapshotId, ...body });
  const finished = (id: string) => finishedExport(t, id, auth);
  const download = (id: string) => downloadExport(t, id, auth);

  it('produces a voice briefing, charges its cost to the pool, and serves ranges of the audio', async () => {
    const before = await t.app.get(BudgetService).view(accountId);
    const created = await create({
      provider: 'voice-briefing',
      artifact_type: 'podcast-briefing',
      options: { voiceId: 'voice-123' },
    }).expect(202);
    const done = await finished(created.body.export_job_id);
    expect(done).toMatchObject({ status: 'completed', result_mime: 'audio/mpeg', result_filename: expect.stringMatching(/\.mp3$/) });
    expect(done.cost_cents).toBeGreaterThan(0);
    expect((await t.app.get(BudgetService).view(accountId)).spent_cents).toBeCloseTo(before.spent_cents + done.cost_cents);
    expect(voice.requests.some((r) => r.path.startsWith('/v1/text-to-speech/voice-123'))).toBe(true);

    const whole = await download(done.id).expect(200);
    expect(whole.headers['accept-ranges']).toBe('bytes');
    expect(whole.headers['content-disposition']).toMatch(/^inline/);
    const size = (whole.body as Buffer).length;
    const part = await download(done.id).set('Range', 'bytes=10-19').expect(206);
    expect(part.headers['content-range']).toBe(`bytes 10-19/${size}`);
    expect(part.body).toEqual((whole.body as Buffer).subarray(10, 20));
    const tail = await download(done.id).set('Range', 'bytes=-5').expect(206);
    expect((tail.body as Buffer).length).toBe(5);
    const outside = await t
      .http()
      .get(`/v1/exports/${done.id}/download`)
      .set('Authorization', auth)
      .set('Range', `bytes=${size}-`)
      .expect(416);
    expect(outside.body.code).toBe('range_not_satisfiable');
    expect(outside.headers['content-range']).toBe(`bytes */${size}`);
  });

  it('runs a notebook audio DEBATE in English whatever language was asked (fallback_english_only)', async () => {
    const created = await create({
      provider: 'notebook',
      artifact_type: 'audio',
      options: { audio_format: 'DEBATE', targetLanguage: 'fr' },
    }).expect(202);
    const done = await finished(created.body.export_job_id);
    expect(done).toMatchObject({
      status: 'completed',
      effective_locale: 'en',
      locale_provenance: 'fallback_english_only',
      result_mime: 'audio/mpeg',
    });
  });

  it('marks a notebook export whose bytes cannot be fetched as undelivered', async () => {
    notebook.failResult('drop', 10);
    const created = await create({ provider: 'notebook', artifact_type: 'infographic' }).expect(202);
    const done = await finished(created.body.export_job_id);
    expect(done).toMatchObject({ status: 'undelivered', download_url: null, error: expect.any(String) });
    expect(
      (await t.http().get('/v1/exports?status=undelivered').set('Authorization', auth).expect(200)).body.data.map(
        (j: { id: string }) => j.id,
      ),
    ).toContain(done.id);
  });

  it('fails a provider export the pool cannot cover, naming the budget, and never answers 402 on create', async () => {
    await t.app.get(BudgetService).setPool(accountId, (await t.app.get(BudgetService).view(accountId)).spent_cents + 1, 'test');
    const created = await create({ provider: 'notebook', artifact_type: 'video' }).expect(202);
    const done = await finished(created.body.export_job_id);
    expect(done).toMatchObject({ status: 'failed', error: expect.stringMatching(/budget/) });
  });
});
