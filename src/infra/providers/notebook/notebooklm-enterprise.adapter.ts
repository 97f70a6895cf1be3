/**
 * Google's NotebookLM Enterprise API (Discovery Engine v1alpha) and its standalone Podcast API (Discovery Engine v1),
 * as documented on cloud.google.com (gemini/enterprise/notebooklm-enterprise/docs: api-notebooks, api-notebooks-sources,
 * api-audio-overview, podcast-api; REST reference projects.locations.notebooks.*, projects.locations.podcasts.*).
 * Every call carries `Authorization: Bearer <OAuth 2.0 access token>` (google-access-token.ts, or one the operator
 * configured).
 *
 * Podcast API (no notebook needed; answers MP3):
 * 1. POST {podcastBase}/v1/projects/{project}/locations/{location}/podcasts
 *      {"podcastConfig": {"focus", "length": "SHORT" | "STANDARD", "languageCode"}, "contexts": [{"text"}], "title", "description"}
 *    -> a long-running Operation {"name": "projects/…/podcasts/{id}/operations/{op}", "done"?: false, "metadata"?}
 * 2. GET {podcastBase}/v1/{operation name}  (every pollIntervalMs, growing to maxPollIntervalMs, until deadlineMs)
 *    -> {"name", "done": true, "response": {…}} or {"name", "done": true, "error": {"code", "message"}} (google.rpc.Status)
 * 3. GET {podcastBase}/v1/{operation name}:download?alt=media -> the MP3 bytes.
 *
 * Notebook audio overview:
 * 1. POST {deBase}/v1alpha/projects/{project}/locations/{location}/notebooks {"title"} -> {"notebookId", "name", …}
 * 2. POST {deBase}/v1alpha/{notebook}/sources:batchCreate {"userContents": [{"textContent": {"sourceName", "content"}}]}
 *    -> {"sources": [{"sourceId": {"id"}, …}]}
 * 3. POST {deBase}/v1alpha/{notebook}/audioOverviews {"generationOptions": {"sourceIds": [{"id"}], "episodeFocus", "languageCode"}}
 *    -> {"audioOverview": {"status": "AUDIO_OVERVIEW_STATUS_…", "audioOverviewId", …}}
 *    The API has create and delete for audio overviews and no method that reads one or its audio: the result is
 *    listened to in the NotebookLM UI. So this route reports the notebook it made and the overview's status.
 *
 * Errors: a 401 on a minted token drops it and the call is made once more with a new one; 401/403 otherwise ->
 * ProviderFailure naming the integration's credentials; 429/5xx/timeouts -> ProviderTransientError (poll errors of
 * that kind are retried up to maxPollErrors in a row); an operation that ends with `error` -> ProviderFailure with
 * Google's message; past the deadline -> ProviderTransientError; a finished podcast whose bytes cannot be fetched
 * (after downloadAttempts tries) -> ResultUnavailableError.
 */
import { abortReason, sleep } from '../http/abortable-sleep';
import { asArray, asRecord, malformed, redact, requestBytes, requestJson } from '../http/provider-http';
import { ProviderFailure, ProviderTransientError, ResultUnavailableError } from '../provider-errors';
import { GoogleAccessTokens, type ServiceAccountKey } from './google-access-token';
import { downloadResult } from './result-download';

export const NOTEBOOKLM_PROVIDER_NAME = 'notebook';
export const NOTEBOOKLM_POLL_INTERVAL_MS = 1_000;
export const NOTEBOOKLM_MAX_POLL_INTERVAL_MS = 15_000;
export const NOTEBOOKLM_DEADLINE_MS = 30 * 60_000;
export const NOTEBOOKLM_REQUEST_TIMEOUT_MS = 60_000;
export const NOTEBOOKLM_DOWNLOAD_TIMEOUT_MS = 10 * 60_000;
export const NOTEBOOKLM_MAX_RESULT_BYTES = 512 * 1024 * 1024;
export const NOTEBOOKLM_MAX_POLL_ERRORS = 5;
export const NOTEBOOKLM_DOWNLOAD_ATTEMPTS = 3;
const AUTH_MESSAGE =
  'the NotebookLM Enterprise integration was refused by Google (check its credentials and the roles of the account behind them)';

/** The process-wide token cache for service-account keys. */
export const notebookLmAccessTokens = new GoogleAccessTokens(NOTEBOOKLM_PROVIDER_NAME);

export type GoogleCredentials = { accessToken: string } | { serviceAccountKey: ServiceAccountKey };

export interface NotebookLmEnterpriseConfig {
  /** Google Cloud project number (or id). */
  project: string;
  /** `global`, `us` or `eu`. */
  location: string;
  credentials: GoogleCredentials;
  /** Default https://{location}-discoveryengine.googleapis.com */
  discoveryEngineBaseUrl: string;
  /** Default https://discoveryengine.googleapis.com */
  podcastBaseUrl: string;
}

export interface PodcastRequest {
  podcastConfig: { focus?: string; length: 'SHORT' | 'STANDARD'; languageCode: string };
  contexts: Array<{ text: string }>;
  title: string;
  description?: string;
}

export interface AudioOverviewRequest {
  notebookTitle: string;
  sourceName: string;
  sourceText: string;
  episodeFocus?: string;
  languageCode: string;
}

export interface NotebookLmEnterpriseOptions {
  pollIntervalMs?: number;
  maxPollIntervalMs?: number;
  deadlineMs?: number;
  requestTimeoutMs?: number;
  downloadTimeoutMs?: number;
  maxResultBytes?: number;
  maxPollErrors?: number;
  downloadAttempts?: number;
  tokens?: GoogleAccessTokens;
}

export function defaultDiscoveryEngineBaseUrl(location: string): string {
  return `https://${location}-discoveryengine.googleapis.com`;
}
export const DEFAULT_PODCAST_BASE_URL = 'https://discoveryengine.googleapis.com';

/** A resource name from Google, safe to put in a URL path: segments of letters, digits and `-_.` only. */
function resourceName(value: unknown, what: string): string {
  if (typeof value !== 'string' || !/^[A-Za-z0-9_.-]+(\/[A-Za-z0-9_.-]+)*$/.test(value))
    throw malformed(NOTEBOOKLM_PROVIDER_NAME, `${what} missing or not a resource name`);
  return value;
}

export class NotebookLmEnterpriseClient {
  private readonly tokens: GoogleAccessTokens;

  constructor(private readonly options: NotebookLmEnterpriseOptions = {}) {
    this.tokens = options.tokens ?? notebookLmAccessTokens;
  }

  /** Creates a podcast, waits for its operation, and downloads the MP3. */
  async podcast(
    config: NotebookLmEnterpriseConfig,
    request: PodcastRequest,
    signal?: AbortSignal,
  ): Promise<{ operationName: string; bytes: Buffer; contentType: string }> {
    const started = Date.now();
    const parent = `projects/${encodeURIComponent(config.project)}/locations/${encodeURIComponent(config.location)}`;
    let operation = asRecord(await this.call(config, 'POST', `${config.podcastBaseUrl}/v1/${parent}/podcasts`, signal, request));
    const name = resourceName(operation?.name, 'the podcast operation name');
    const deadlineMs = this.options.deadlineMs ?? NOTEBOOKLM_DEADLINE_MS;
    let interval = this.options.pollIntervalMs ?? NOTEBOOKLM_POLL_INTERVAL_MS;
    let pollErrors = 0;
    while (operation?.done !== true) {
      if (Date.now() - started >= deadlineMs) {
        throw new ProviderTransientError(
          `NotebookLM podcast ${name} did not finish within ${Math.round(deadlineMs / 1000)} s`,
          NOTEBOOKLM_PROVIDER_NAME,
          null,
        );
      }
      await sleep(Math.min(interval, Math.max(0, deadlineMs - (Date.now() - started))), signal);
      interval = Math.min(Math.ceil(interval * 1.5), this.options.maxPollIntervalMs ?? NOTEBOOKLM_MAX_POLL_INTERVAL_MS);
      try {
        operation = asRecord(await this.call(config, 'GET', `${config.podcastBaseUrl}/v1/${name}`, signal));
        pollErrors = 0;
      } catch (error) {
        if (signal?.aborted) throw abortReason(signal);
        if (!(error instanceof ProviderTransientError) || ++pollErrors > (this.options.maxPollErrors ?? NOTEBOOKLM_MAX_POLL_ERRORS))
          throw error;
      }
    }
    const failure = asRecord(operation.error);
    if (failure) {
      const message = typeof failure.message === 'string' && failure.message.length > 0 ? failure.message.slice(0, 500) : 'no reason given';
      const code = typeof failure.code === 'number' ? ` (code ${failure.code})` : '';
      throw new ProviderFailure(
        `NotebookLM podcast generation failed${code}: ${this.redacted(config, message)}`,
        NOTEBOOKLM_PROVIDER_NAME,
        null,
      );
    }
    const downloaded = await this.download(config, `${config.podcastBaseUrl}/v1/${name}:download?alt=media`, name, signal);
    return { operationName: name, ...downloaded };
  }

  /** Creates a notebook holding `sourceText` as its one source, and asks for its audio overview. */
  async audioOverview(
    config: NotebookLmEnterpriseConfig,
    request: AudioOverviewRequest,
    signal?: AbortSignal,
  ): Promise<{ notebookId: string; notebookName: string; status: string }> {
    const base = `${config.discoveryEngineBaseUrl}/v1alpha/projects/${encodeURIComponent(config.project)}/locations/${encodeURIComponent(config.location)}`;
    const notebook = asRecord(await this.call(config, 'POST', `${base}/notebooks`, signal, { title: request.notebookTitle }));
    const notebookId = resourceName(notebook?.notebookId, 'the notebookId');
    const notebookName = typeof notebook?.name === 'string' ? notebook.name : `notebooks/${notebookId}`;
    const created = asRecord(
      await this.call(config, 'POST', `${base}/notebooks/${notebookId}/sources:batchCreate`, signal, {
        userContents: [{ textContent: { sourceName: request.sourceName, content: request.sourceText } }],
      }),
    );
    const sourceIds = (asArray(created?.sources) ?? [])
      .map((source) => asRecord(asRecord(source)?.sourceId)?.id)
      .filter((id): id is string => typeof id === 'string' && id.length > 0)
      .map((id) => ({ id }));
    if (sourceIds.length === 0) throw malformed(NOTEBOOKLM_PROVIDER_NAME, 'sources:batchCreate answered no source id');
    const generationOptions = {
      sourceIds,
      ...(request.episodeFocus ? { episodeFocus: request.episodeFocus } : {}),
      languageCode: request.languageCode,
    };
    const answer = asRecord(
      await this.call(config, 'POST', `${base}/notebooks/${notebookId}/audioOverviews`, signal, { generationOptions }),
    );
    const status = asRecord(answer?.audioOverview)?.status;
    return { notebookId, notebookName, status: typeof status === 'string' ? status : 'AUDIO_OVERVIEW_STATUS_UNSPECIFIED' };
  }

  private async download(
    config: NotebookLmEnterpriseConfig,
    url: string,
    name: string,
    signal?: AbortSignal,
  ): Promise<{ bytes: Buffer; contentType: string }> {
    const result = await downloadResult({
      request: () =>
        this.withToken(config, signal, (token) =>
          requestBytes({
            provider: NOTEBOOKLM_PROVIDER_NAME,
            url,
            method: 'GET',
            headers: { authorization: `Bearer ${token}` },
            timeoutMs: this.options.downloadTimeoutMs ?? NOTEBOOKLM_DOWNLOAD_TIMEOUT_MS,
            signal,
            secrets: [token],
            authMessage: AUTH_MESSAGE,
            maxBytes: this.options.maxResultBytes ?? NOTEBOOKLM_MAX_RESULT_BYTES,
          }),
        ),
      attempts: this.options.downloadAttempts ?? NOTEBOOKLM_DOWNLOAD_ATTEMPTS,
      pollIntervalMs: this.options.pollIntervalMs ?? NOTEBOOKLM_POLL_INTERVAL_MS,
      emptyReason: 'the podcast is empty',
      signal,
    });
    if ('failure' in result) throw new ResultUnavailableError(result.failure, NOTEBOOKLM_PROVIDER_NAME, name);
    return result;
  }

  private call(
    config: NotebookLmEnterpriseConfig,
    method: 'GET' | 'POST',
    url: string,
    signal?: AbortSignal,
    body?: unknown,
  ): Promise<unknown> {
    return this.withToken(config, signal, async (token) => {
      try {
        return await requestJson({
          provider: NOTEBOOKLM_PROVIDER_NAME,
          url,
          method,
          headers: { authorization: `Bearer ${token}` },
          body,
          timeoutMs: this.options.requestTimeoutMs ?? NOTEBOOKLM_REQUEST_TIMEOUT_MS,
          signal,
          secrets: [token],
        });
      } catch (error) {
        if (error instanceof ProviderFailure && (error.status === 401 || error.status === 403)) {
          throw new ProviderFailure(`${AUTH_MESSAGE} (HTTP ${error.status})`, NOTEBOOKLM_PROVIDER_NAME, error.status);
        }
        throw error;
      }
    });
  }

  /** Runs `send` with a bearer token; a minted token Google refuses with 401 is replaced once. */
  private async withToken<T>(
    config: NotebookLmEnterpriseConfig,
    signal: AbortSignal | undefined,
    send: (token: string) => Promise<T>,
  ): Promise<T> {
    const credentials = config.credentials;
    if ('accessToken' in credentials) return send(credentials.accessToken);
    const key = credentials.serviceAccountKey;
    const token = await this.tokens.token(key, signal);
    try {
      return await send(token);
    } catch (error) {
      if (!(error instanceof ProviderFailure) || error.status !== 401) throw error;
      this.tokens.invalidate(key, token);
      return send(await this.tokens.token(key, signal));
    }
  }

  private redacted(config: NotebookLmEnterpriseConfig, text: string): string {
    return 'accessToken' in config.credentials ? redact(text, [config.credentials.accessToken]) : text;
  }
}
