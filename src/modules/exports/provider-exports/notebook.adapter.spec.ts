import { input, realisticSnapshot } from '../../../../test/fixtures/snapshots';
import { FAKE_NOTEBOOK_API_KEY, FakeNotebookServer, startFakeNotebookServer } from '../../../../test/fakes/fake-media-servers';
import { createNotebookAdapter, NOTEBOOK_DEFAULT_COST_CENTS, notebookArtifactType } from './notebook.adapter';
import { ResultUndeliverableError } from './provider-export.types';
import { providerExportAdapter } from './provider-export.registry';
import { EngineFailure } from '../../../domain/failures';
import { ProviderTransientError } from '../../../infra/providers/provider-errors';

const fast = { pollIntervalMs: 5, deadlineMs: 5_000 };

describe('notebook adapter', () => {
  let fake: FakeNotebookServer;
  const config = (): Record<string, unknown> => ({ apiKey: FAKE_NOTEBOOK_API_KEY, baseUrl: fake.baseUrl });
  beforeEach(async () => {
    fake = await startFakeNotebookServer({ pollsUntilDone: 3 });
  });
  afterEach(async () => {
    await fake.close();
  });

  it('submits a job, polls it to success and downloads the PNG', async () => {
    const options = {
      style: 'PROFESSIONAL',
      detail_level: 'STANDARD',
      orientation: 'LANDSCAPE',
      instructions: 'Focus on AML',
      targetLanguage: 'en',
    };
    const result = await createNotebookAdapter({ ...fast, artifactType: 'infographic' }).run(input(realisticSnapshot(), options), config());
    const [submit, ...rest] = fake.requests;
    expect(submit!.method).toBe('POST');
    expect(submit!.path).toBe('/v1/jobs');
    expect(submit!.headers.authorization).toBe(`Bearer ${FAKE_NOTEBOOK_API_KEY}`);
    const body = submit!.body as { kind: string; source_markdown: string; options: Record<string, string>; language: string };
    expect(body.kind).toBe('infographic');
    expect(body.language).toBe('en');
    expect(body.options).toEqual({
      style: 'PROFESSIONAL',
      detail_level: 'STANDARD',
      orientation: 'LANDSCAPE',
      instructions: 'Focus on AML',
    });
    expect(body.source_markdown).toMatch(/^# EU and UK AML/);
    const polls = rest.filter((r) => r.path === '/v1/jobs/job_1');
    expect(polls).toHaveLength(3);
    polls.forEach((poll) => {
      expect(poll.method).toBe('GET');
      expect(poll.headers.authorization).toBe(`Bearer ${FAKE_NOTEBOOK_API_KEY}`);
    });
    const download = rest.find((r) => r.path === '/v1/results/job_1')!;
    expect(download.headers.authorization).toBe(`Bearer ${FAKE_NOTEBOOK_API_KEY}`);
    expect(result.mime).toBe('image/png');
    expect(result.bytes.subarray(0, 4).toString('latin1')).toBe('\x89PNG');
    expect(result.filename).toBe('regulatory-horizon-eu-uk-2026-11-22-notebook-infographic.png');
    expect(result.costCents).toBe(37);
  });

  it.each([
    ['slide-detailed', 'application/pdf', '%PDF'],
    ['audio', 'audio/mpeg', '\xff\xfb'],
    ['video', 'video/mp4', 'ftyp'],
    ['video-explainer', 'video/mp4', 'ftyp'],
  ])(
    'produces %s as %s',
    async (kind, mime, magic) => {
      const result = await createNotebookAdapter({ ...fast, artifactType: kind }).run(input(realisticSnapshot()), config());
      expect(fake.jobs[0]!.kind).toBe(kind);
      expect(result.mime).toBe(mime);
      const head = result.bytes.subarray(0, 12).toString('latin1');
      expect(head).toContain(magic);
    },
    15_000,
  );

  it('uses the default cost per artifact type when the service reports none', async () => {
    fake.costCents = null;
    const result = await createNotebookAdapter({ ...fast, artifactType: 'video' }).run(input(realisticSnapshot()), config());
    expect(result.costCents).toBe(NOTEBOOK_DEFAULT_COST_CENTS.video);
  });

  it('infers the artifact type from the input or its options', () => {
    const snap = realisticSnapshot();
    expect(notebookArtifactType({ ...input(snap), artifactType: 'audio' })).toBe('audio');
    expect(notebookArtifactType(input(snap, { style: 'CLAY' }))).toBe('infographic');
    expect(notebookArtifactType(input(snap, { slide_length: 'SHORT' }))).toBe('slide-detailed');
    expect(notebookArtifactType(input(snap, { audio_format: 'BRIEF' }))).toBe('audio');
    expect(notebookArtifactType(input(snap, { video_format: 'CINEMATIC' }))).toBe('video');
    expect(notebookArtifactType(input(snap, { instructions: 'x' }))).toBe('video-explainer');
  });

  it('sends the translation language, but English for DEBATE audio', async () => {
    const adapter = createNotebookAdapter({ ...fast, artifactType: 'audio' });
    await adapter.run(input(realisticSnapshot(), { audio_format: 'DEEP_DIVE' }, 'de'), config());
    await adapter.run(input(realisticSnapshot(), { audio_format: 'DEBATE' }, 'de'), config());
    expect(fake.jobs[0]!.request.language).toBe('de');
    expect(fake.jobs[1]!.request.language).toBe('en');
  });

  it('turns a failed job into an EngineFailure with the provider error', async () => {
    fake.failJobs('source too short to summarise');
    const error = await createNotebookAdapter({ ...fast, artifactType: 'infographic' })
      .run(input(realisticSnapshot()), config())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EngineFailure);
    expect(error).not.toBeInstanceOf(ProviderTransientError);
    expect((error as Error).message).toContain('source too short to summarise');
  });

  it('turns a result that cannot be fetched into ResultUndeliverableError carrying the cost', async () => {
    fake.failResult(500, 3);
    const error = await createNotebookAdapter({ ...fast, artifactType: 'infographic' })
      .run(input(realisticSnapshot()), config())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResultUndeliverableError);
    expect((error as ResultUndeliverableError).costCents).toBe(37);
    expect((error as ResultUndeliverableError).jobId).toBe('job_1');
    expect(fake.jobs[0]!.downloads).toBe(3);
  });

  it('retries a transient download failure and a dropped connection, then succeeds', async () => {
    fake.failResult('drop');
    fake.failResult(503);
    const result = await createNotebookAdapter({ ...fast, artifactType: 'slide-detailed' }).run(input(realisticSnapshot()), config());
    expect(result.bytes.subarray(0, 4).toString('latin1')).toBe('%PDF');
    expect(fake.jobs[0]!.downloads).toBe(3);
  });

  it('treats a 404 result, an empty result and a foreign result host as undeliverable', async () => {
    const adapter = createNotebookAdapter({ ...fast, artifactType: 'infographic' });
    fake.failResult(404);
    await expect(adapter.run(input(realisticSnapshot()), config())).rejects.toBeInstanceOf(ResultUndeliverableError);
    fake.failResult('empty', 3);
    await expect(adapter.run(input(realisticSnapshot()), config())).rejects.toBeInstanceOf(ResultUndeliverableError);
    fake.resultUrl = (job) => `http://example.invalid/v1/results/${job.id}`;
    const error = await adapter.run(input(realisticSnapshot()), config()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResultUndeliverableError);
    expect((error as Error).message).toMatch(/another host/);
  });

  describe("media types (a provider's word on a type is checked against what the artifact type allows)", () => {
    const failure = async (artifactType: string) => {
      const error = await createNotebookAdapter({ ...fast, artifactType })
        .run(input(realisticSnapshot()), config())
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(EngineFailure);
      expect(error).not.toBeInstanceOf(ProviderTransientError);
      expect(error).not.toBeInstanceOf(ResultUndeliverableError);
      return (error as Error).message;
    };

    it('refuses a result declared as a type the artifact type does not allow, without fetching it', async () => {
      fake.resultMime = 'text/html';
      const message = await failure('slide-detailed');
      expect(message).toMatch(/text\/html/);
      expect(message).toMatch(/slide-detailed/);
      expect(message).toMatch(/application\/pdf/);
      expect(fake.jobs[0]!.downloads).toBe(0);
    });

    it('refuses a download served as a type the artifact type does not allow, and does not retry it', async () => {
      fake.resultMime = null;
      fake.resultContentType = 'text/html; charset=utf-8';
      expect(await failure('infographic')).toMatch(/text\/html/);
      expect(fake.jobs[0]!.downloads).toBe(1);
    });

    it('refuses a download whose Content-Type contradicts an allowed declared type', async () => {
      fake.resultContentType = 'image/svg+xml';
      expect(await failure('infographic')).toMatch(/image\/svg\+xml/);
    });

    it('accepts another encoding the artifact type allows, named with its own extension', async () => {
      fake.resultMime = 'IMAGE/WEBP; q=1';
      fake.resultContentType = 'image/webp';
      const result = await createNotebookAdapter({ ...fast, artifactType: 'infographic' }).run(input(realisticSnapshot()), config());
      expect(result.mime).toBe('image/webp');
      expect(result.filename).toMatch(/\.webp$/);
    });

    it("falls back to the artifact type's own media type when the service names none, or only a generic one", async () => {
      fake.resultMime = null;
      fake.resultContentType = 'application/octet-stream';
      const result = await createNotebookAdapter({ ...fast, artifactType: 'audio' }).run(input(realisticSnapshot()), config());
      expect(result.mime).toBe('audio/mpeg');
      expect(result.filename).toMatch(/\.mp3$/);
    });
  });

  it('tolerates transient poll errors', async () => {
    fake.failNext(429, 2, 'poll');
    const result = await createNotebookAdapter({ ...fast, artifactType: 'infographic' }).run(input(realisticSnapshot()), config());
    expect(result.mime).toBe('image/png');
  });

  it('maps a 429 on submit to ProviderTransientError', async () => {
    fake.failNext(429, 1, 'submit');
    await expect(
      createNotebookAdapter({ ...fast, artifactType: 'infographic' }).run(input(realisticSnapshot()), config()),
    ).rejects.toBeInstanceOf(ProviderTransientError);
  });

  it('maps a rejected key to an EngineFailure without the key', async () => {
    const wrongKey = 'nb_wrong_key_1234567890';
    const error = await createNotebookAdapter({ ...fast, artifactType: 'infographic' })
      .run(input(realisticSnapshot()), { apiKey: wrongKey, baseUrl: fake.baseUrl })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EngineFailure);
    expect((error as Error).message).toContain('the notebook integration rejected its API key');
    expect((error as Error).message).not.toContain(wrongKey);
  });

  it('gives up at the deadline with a ProviderTransientError and cancels the job', async () => {
    fake.pollsUntilDone = 1_000;
    const error = await createNotebookAdapter({ pollIntervalMs: 5, deadlineMs: 100, artifactType: 'infographic' })
      .run(input(realisticSnapshot()), config())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderTransientError);
    expect(fake.jobs[0]!.cancelled).toBe(true);
  });

  it('stops polling when the caller aborts', async () => {
    fake.pollsUntilDone = 1_000;
    const controller = new AbortController();
    // Abort once the job is submitted (and polling), however slow the machine: a fixed delay could land mid-submit.
    const submitted = setInterval(() => fake.jobs.length > 0 && controller.abort(new Error('export cancelled')), 10);
    await expect(
      createNotebookAdapter({ ...fast, artifactType: 'infographic' }).run(input(realisticSnapshot()), config(), controller.signal),
    ).rejects.toThrow('export cancelled');
    clearInterval(submitted);
    expect(fake.jobs[0]!.cancelled).toBe(true);
  });

  it('is registered for notebook, bound to an artifact type when given', async () => {
    fake.pollsUntilDone = 1;
    expect(providerExportAdapter('internal-pdf')).toBeUndefined();
    expect(providerExportAdapter('voice-briefing')).toBeDefined();
    expect(providerExportAdapter('voice-discussion')).toBeDefined();
    expect(providerExportAdapter('notebook')).toBeDefined();
    const result = await providerExportAdapter('notebook', 'audio')!.run(input(realisticSnapshot(), { instructions: 'x' }), config());
    expect(fake.jobs[0]!.kind).toBe('audio');
    expect(result.mime).toBe('audio/mpeg');
  });

  it('requires apiKey and baseUrl', async () => {
    const adapter = createNotebookAdapter(fast);
    await expect(adapter.run(input(realisticSnapshot()), { baseUrl: fake.baseUrl })).rejects.toThrow(/no apiKey/);
    await expect(adapter.run(input(realisticSnapshot()), { apiKey: 'k' })).rejects.toThrow(/no baseUrl/);
  });
});
