import { AccountsService } from '../src/modules/accounts/accounts.service';
import { fakeMp3 } from './fakes/fake-media-servers';
import { FAKE_NOTEBOOKLM_LOCATION, FAKE_NOTEBOOKLM_PROJECT, startFakeNotebookLm, type FakeNotebookLm } from './fakes/fake-notebooklm';
import { bootTestApp, downloadExport, finishedExport, newAccount, type TestApp } from './support/test-app';

const PARENT = `projects/${FAKE_NOTEBOOKLM_PROJECT}/locations/${FAKE_NOTEBOOKLM_LOCATION}`;

describe('notebook exports over Google NotebookLM Enterprise and the Podcast API (loopback fake)', () => {
  let t: TestApp;
  let google: FakeNotebookLm;
  let auth: string;
  let snapshotId: string;
  let snapshotTitle: string;

  const integration = (extra: Record<string, unknown> = {}) => ({
    kind: 'notebooklm-enterprise',
    project: FAKE_NOTEBOOKLM_PROJECT,
    location: FAKE_NOTEBOOKLM_LOCATION,
    discoveryEngineBaseUrl: google.baseUrl,
    podcastBaseUrl: google.baseUrl,
    ...extra,
  });

  async function accountWith(config: Record<string, unknown>) {
    const owner = await newAccount(t);
    const accounts = t.app.get(AccountsService);
    await accounts.setIntegration(await accounts.ensureAccount(owner.accountId), 'notebook', config);
    const authorization = `Bearer ${owner.apiKey}`;
    const scan = await t
      .http()
      .post('/v1/scans')
      .set('Authorization', authorization)
      .send({ jurisdictions: ['EU'], areas: ['Payments'], horizon: 24 })
      .expect(200);
    return { authorization, snapshotId: scan.body.snapshot_id as string, title: scan.body.snapshot.title as string };
  }

  beforeAll(async () => {
    t = await bootTestApp();
    google = await startFakeNotebookLm({ pollsUntilDone: 1 });
    const account = await accountWith(integration({ serviceAccountKey: google.serviceAccountKey }));
    auth = account.authorization;
    snapshotId = account.snapshotId;
    snapshotTitle = account.title;
  });
  afterAll(async () => {
    await t.close();
    await google.close();
  });

  const create = (body: object, authorization = auth, snapshot = snapshotId) =>
    t
      .http()
      .post('/v1/exports')
      .set('Authorization', authorization)
      .send({ snapshot_id: snapshot, provider: 'notebook', ...body });

  it('makes the audio through the Podcast API with a token minted from the service-account key, and stores the MP3', async () => {
    const created = await create({
      artifact_type: 'audio',
      options: { audio_format: 'BRIEF', audio_length: 'SHORT', instructions: 'Stress the payment deadlines', targetLanguage: 'fr' },
    }).expect(202);
    const done = await finishedExport(t, created.body.export_job_id, auth);
    expect(done).toMatchObject({ status: 'completed', result_mime: 'audio/mpeg', effective_locale: 'en' });
    expect(done.cost_cents).toBeGreaterThan(0);

    // The JWT bearer grant: signed by the key, for the key's token URI, asking for the cloud-platform scope.
    const grant = google.requests.find((r) => r.path === '/token')!;
    expect(grant.method).toBe('POST');
    expect(grant.headers['content-type']).toMatch(/^application\/x-www-form-urlencoded/);
    expect(google.grants[0]!.claims).toMatchObject({
      iss: google.serviceAccountKey.client_email,
      aud: google.tokenUri,
      scope: 'https://www.googleapis.com/auth/cloud-platform',
    });

    const submit = google.requests.find((r) => r.method === 'POST' && r.path === `/v1/${PARENT}/podcasts`)!;
    expect(submit.headers.authorization).toBe(`Bearer ${google.grants[0]!.accessToken}`);
    const body = submit.body as {
      podcastConfig: { focus: string; length: string; languageCode: string };
      contexts: Array<{ text: string }>;
      title: string;
    };
    expect(body.podcastConfig.length).toBe('SHORT');
    // targetLanguage fr on a snapshot without a French translation: the export is English, and so is the podcast.
    expect(body.podcastConfig.languageCode).toBe('en');
    expect(body.podcastConfig.focus).toMatch(/brief/i);
    expect(body.podcastConfig.focus).toContain('Stress the payment deadlines');
    expect(body.contexts[0]!.text).toContain(snapshotTitle);
    expect(body.title).toContain(snapshotTitle);

    const operation = google.podcasts[0]!.operationName;
    const poll = google.requests.find((r) => r.method === 'GET' && r.path === `/v1/${operation}`)!;
    expect(poll.headers.authorization).toBe(`Bearer ${google.grants[0]!.accessToken}`);
    expect(google.requests.some((r) => r.method === 'GET' && r.path === `/v1/${operation}:download?alt=media`)).toBe(true);

    const bytes = (await downloadExport(t, done.id, auth).expect(200)).body as Buffer;
    expect(bytes.equals(fakeMp3(24))).toBe(true);
  });

  it('maps DEEP_DIVE at the DEFAULT length to a STANDARD podcast and reuses the cached token', async () => {
    const grantsBefore = google.grants.length;
    const created = await create({ artifact_type: 'audio', options: { audio_format: 'DEEP_DIVE', audio_length: 'DEFAULT' } }).expect(202);
    expect(await finishedExport(t, created.body.export_job_id, auth)).toMatchObject({ status: 'completed' });
    const body = google.podcasts.at(-1)!.request as { podcastConfig: { length: string; focus: string } };
    expect(body.podcastConfig.length).toBe('STANDARD');
    expect(body.podcastConfig.focus).toMatch(/deep/i);
    expect(google.grants.length).toBe(grantsBefore);
  });

  it('mints a new token when Google refuses the cached one as expired', async () => {
    const grantsBefore = google.grants.length;
    google.expireIssuedTokens();
    const created = await create({ artifact_type: 'audio', options: { audio_format: 'CRITIQUE', audio_length: 'LONG' } }).expect(202);
    expect(await finishedExport(t, created.body.export_job_id, auth)).toMatchObject({ status: 'completed' });
    expect(google.grants.length).toBe(grantsBefore + 1);
    const submits = google.requests.filter((r) => r.method === 'POST' && r.path === `/v1/${PARENT}/podcasts`);
    expect(submits.at(-1)!.headers.authorization).toBe(`Bearer ${google.grants.at(-1)!.accessToken}`);
    // LONG is longer than anything the Podcast API makes: the longest it offers.
    expect((google.podcasts.at(-1)!.request as { podcastConfig: { length: string } }).podcastConfig.length).toBe('STANDARD');
  });

  it('fails the export with Google’s reason when the podcast operation fails', async () => {
    google.failNextOperation('The content violates the generation policy');
    const created = await create({ artifact_type: 'audio', options: { audio_format: 'DEBATE' } }).expect(202);
    const done = await finishedExport(t, created.body.export_job_id, auth);
    expect(done).toMatchObject({ status: 'failed', download_url: null });
    expect(done.error).toMatch(/podcast.*failed.*The content violates the generation policy/i);
    expect(done.cost_cents).toBe(0);
  });

  it('marks a finished podcast whose MP3 cannot be downloaded as undelivered, charged', async () => {
    google.failNext('download', 503, 3);
    const created = await create({ artifact_type: 'audio', options: { audio_format: 'BRIEF' } }).expect(202);
    const done = await finishedExport(t, created.body.export_job_id, auth);
    expect(done).toMatchObject({ status: 'undelivered', download_url: null });
    expect(done.error).toContain(google.podcasts.at(-1)!.operationName);
    expect(done.cost_cents).toBeGreaterThan(0);
  });

  it.each(['infographic', 'slide-detailed', 'video-explainer', 'video'])(
    'answers 422 for %s, which the NotebookLM Enterprise API cannot make',
    async (artifactType) => {
      const refused = await create({ artifact_type: artifactType }).expect(422);
      expect(refused.body.code).toBe('validation_error');
      expect(refused.body.errors).toEqual([
        { path: 'provider', code: 'incompatible', message: expect.stringMatching(/NotebookLM Enterprise.*audio/) },
      ]);
    },
  );

  it('with audioVia notebook and a plain access token: notebook, text source and audio overview, then undelivered', async () => {
    google.acceptToken('ya29.static-operator-token');
    const account = await accountWith(integration({ accessToken: 'ya29.static-operator-token', audioVia: 'notebook' }));
    const grantsBefore = google.grants.length;
    const created = await create(
      { artifact_type: 'audio', options: { audio_format: 'DEEP_DIVE', instructions: 'Cover AML first' } },
      account.authorization,
      account.snapshotId,
    ).expect(202);
    const done = await finishedExport(t, created.body.export_job_id, account.authorization);
    expect(google.grants.length).toBe(grantsBefore);

    const notebook = google.requests.find((r) => r.method === 'POST' && r.path === `/v1alpha/${PARENT}/notebooks`)!;
    expect(notebook.headers.authorization).toBe('Bearer ya29.static-operator-token');
    expect((notebook.body as { title: string }).title).toContain(account.title);
    const source = google.requests.find((r) => r.path === `/v1alpha/${PARENT}/notebooks/nb-1/sources:batchCreate`)!;
    const content = (source.body as { userContents: Array<{ textContent: { sourceName: string; content: string } }> }).userContents[0]!
      .textContent;
    expect(content.content).toContain(account.title);
    const overview = google.requests.find((r) => r.path === `/v1alpha/${PARENT}/notebooks/nb-1/audioOverviews`)!;
    expect(overview.body).toEqual({
      generationOptions: { sourceIds: [{ id: 'src-1' }], episodeFocus: expect.stringContaining('Cover AML first'), languageCode: 'en' },
    });
    // The v1alpha API has no method that returns an audio overview's bytes: produced, but not retrievable.
    expect(done).toMatchObject({ status: 'undelivered', download_url: null });
    expect(done.error).toMatch(/nb-1.*no.*download/i);
  });
});
