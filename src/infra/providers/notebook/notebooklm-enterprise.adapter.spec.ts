import { fakeMp3 } from '../../../../test/fakes/fake-media-servers';
import {
  FAKE_NOTEBOOKLM_LOCATION,
  FAKE_NOTEBOOKLM_PROJECT,
  startFakeNotebookLm,
  type FakeNotebookLm,
} from '../../../../test/fakes/fake-notebooklm';
import { ProviderFailure, ProviderTransientError, ResultUnavailableError } from '../provider-errors';
import { GoogleAccessTokens, parseServiceAccountKey } from './google-access-token';
import { NotebookLmEnterpriseClient, type NotebookLmEnterpriseConfig, type PodcastRequest } from './notebooklm-enterprise.adapter';

const request: PodcastRequest = {
  podcastConfig: { focus: 'Format: a brief.', length: 'SHORT', languageCode: 'en' },
  contexts: [{ text: '# A scan' }],
  title: 'A scan',
};

describe('NotebookLM Enterprise client (Podcast API)', () => {
  let google: FakeNotebookLm;
  let config: NotebookLmEnterpriseConfig;
  const client = () =>
    new NotebookLmEnterpriseClient({
      pollIntervalMs: 5,
      maxPollIntervalMs: 10,
      deadlineMs: 5_000,
      tokens: new GoogleAccessTokens('notebook'),
    });
  beforeEach(async () => {
    google = await startFakeNotebookLm({ pollsUntilDone: 3 });
    config = {
      project: FAKE_NOTEBOOKLM_PROJECT,
      location: FAKE_NOTEBOOKLM_LOCATION,
      credentials: { serviceAccountKey: parseServiceAccountKey('notebook', google.serviceAccountKey) },
      discoveryEngineBaseUrl: google.baseUrl,
      podcastBaseUrl: google.baseUrl,
    };
  });
  afterEach(async () => {
    await google.close();
  });

  it('polls the operation until done and downloads the MP3', async () => {
    const made = await client().podcast(config, request);
    expect(made.bytes.equals(fakeMp3(24))).toBe(true);
    expect(made.contentType).toBe('audio/mpeg');
    const polls = google.requests.filter((r) => r.method === 'GET' && r.path === `/v1/${made.operationName}`);
    expect(polls).toHaveLength(3);
  });

  it('rides out transient poll errors', async () => {
    google.failNext('operation', 503, 2);
    const made = await client().podcast(config, request);
    expect(made.bytes.length).toBeGreaterThan(0);
  });

  it('reports a finished podcast it cannot download as unavailable, naming the operation', async () => {
    google.failNext('download', 503, 3);
    const failure = await client()
      .podcast(config, request)
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ResultUnavailableError);
    expect((failure as ResultUnavailableError).jobId).toBe(google.podcasts[0]!.operationName);
  });

  it('treats a rate-limited create as transient and a refused one as permanent', async () => {
    google.failNext('podcast', 429);
    await expect(client().podcast(config, request)).rejects.toBeInstanceOf(ProviderTransientError);
    google.failNext('podcast', 403);
    await expect(client().podcast(config, request)).rejects.toThrow(/NotebookLM Enterprise integration was refused by Google.*HTTP 403/);
    google.failNext('podcast', 400);
    await expect(client().podcast(config, request)).rejects.toBeInstanceOf(ProviderFailure);
  });

  it('does not retry a 401 for a configured access token, and never shows it', async () => {
    const failure = await client()
      .podcast({ ...config, credentials: { accessToken: 'ya29.not-issued-by-google' } }, request)
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ProviderFailure);
    expect((failure as Error).message).toMatch(/HTTP 401/);
    expect((failure as Error).message).not.toContain('ya29.not-issued-by-google');
    expect(google.requests.filter((r) => r.path.endsWith('/podcasts'))).toHaveLength(1);
  });
});
