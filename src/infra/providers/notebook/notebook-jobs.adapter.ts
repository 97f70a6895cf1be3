/**
 * Notebook-style generation over a small asynchronous job protocol (modelled on typical async media APIs), which
 * the account's `notebook` integration points at. Every request carries `Authorization: Bearer <apiKey>`.
 *
 * 1. Submit:  POST {baseUrl}/v1/jobs  {"kind", "source_markdown", "options", "language"}
 *    -> 202 (200/201 accepted too) {"id": "<job id>", "status": "queued" | "running" | ...}
 * 2. Poll:    GET {baseUrl}/v1/jobs/{id}  (every pollIntervalMs, until deadlineMs)
 *    -> 200 {"id", "status": "queued" | "running" | "succeeded" | "failed",
 *            "error"?: "<human-readable reason when failed>",
 *            "result"?: {"url": "<absolute or relative to baseUrl>", "mime": "<media type>", "size": <bytes>,
 *                        "cost_cents"?: <what the run cost>}}
 * 3. Fetch:   GET result.url (must be on the baseUrl's origin; same Bearer auth) -> the artefact bytes.
 * 4. Cancel (optional for the service, best effort for us): DELETE {baseUrl}/v1/jobs/{id} when we give up on a job
 *    (deadline passed or the caller aborted).
 *
 * Errors: 401/403 -> ProviderFailure "the notebook integration rejected its API key"; submit 429/5xx/timeouts ->
 * ProviderTransientError; transient poll errors are retried (up to maxPollErrors in a row); status `failed` ->
 * ProviderFailure carrying the service's `error`; a job past the deadline -> ProviderTransientError. A succeeded
 * job whose bytes cannot be fetched (after downloadAttempts tries) -> ResultUnavailableError.
 */
import { abortReason, sleep } from '../http/abortable-sleep';
import { asRecord, errorDetail, malformed, redact, requestBytes, requestJson } from '../http/provider-http';
import type { IntegrationCredentials, NotebookJobRequest, NotebookJobResult, NotebookPort } from '../ports';
import { downloadResult } from './result-download';
import { ProviderFailure, ProviderTransientError, ResultUnavailableError } from '../provider-errors';

export const NOTEBOOK_PROVIDER_NAME = 'notebook';
export const NOTEBOOK_POLL_INTERVAL_MS = 1_000;
/** How long a job may take in all (video generation is slow). */
export const NOTEBOOK_DEADLINE_MS = 30 * 60_000;
export const NOTEBOOK_REQUEST_TIMEOUT_MS = 60_000;
export const NOTEBOOK_DOWNLOAD_TIMEOUT_MS = 10 * 60_000;
export const NOTEBOOK_MAX_RESULT_BYTES = 1024 * 1024 * 1024;
export const NOTEBOOK_MAX_POLL_ERRORS = 5;
export const NOTEBOOK_DOWNLOAD_ATTEMPTS = 3;
export const NOTEBOOK_AUTH_MESSAGE = 'the notebook integration rejected its API key';

export interface NotebookJobsOptions {
  pollIntervalMs?: number;
  deadlineMs?: number;
  requestTimeoutMs?: number;
  downloadTimeoutMs?: number;
  maxResultBytes?: number;
  maxPollErrors?: number;
  downloadAttempts?: number;
}

type JobState = { status: 'queued' | 'running' } | { status: 'failed'; error: string } | { status: 'succeeded'; result: NotebookJobResult };

function parseJob(body: unknown, secrets: readonly string[]): JobState {
  const record = asRecord(body);
  const status = record?.status;
  if (status === 'queued' || status === 'running') return { status };
  if (status === 'failed') {
    const raw = record?.error;
    const detail = typeof raw === 'string' ? raw : raw !== undefined ? errorDetail(JSON.stringify(raw)) : '';
    return { status, error: redact(detail.slice(0, 500), secrets) || 'no reason given' };
  }
  if (status === 'succeeded') {
    const result = asRecord(record?.result);
    const cost = result?.cost_cents;
    return {
      status,
      result: {
        url: typeof result?.url === 'string' && result.url.length > 0 ? result.url : null,
        mime: typeof result?.mime === 'string' && result.mime.length > 0 ? result.mime.split(';')[0]!.trim().toLowerCase() : null,
        costCents: typeof cost === 'number' && Number.isFinite(cost) && cost >= 0 ? Math.ceil(cost) : null,
      },
    };
  }
  throw malformed(NOTEBOOK_PROVIDER_NAME, `unknown job status ${JSON.stringify(status)}`);
}

function authMapped(error: unknown): unknown {
  if (error instanceof ProviderFailure && (error.status === 401 || error.status === 403)) {
    return new ProviderFailure(`${NOTEBOOK_AUTH_MESSAGE} (HTTP ${error.status})`, NOTEBOOK_PROVIDER_NAME, error.status);
  }
  return error;
}

export class NotebookJobsAdapter implements NotebookPort {
  readonly provider = NOTEBOOK_PROVIDER_NAME;
  private readonly pollIntervalMs: number;
  private readonly deadlineMs: number;
  private readonly maxPollErrors: number;
  private readonly downloadAttempts: number;

  constructor(private readonly options: NotebookJobsOptions = {}) {
    this.pollIntervalMs = options.pollIntervalMs ?? NOTEBOOK_POLL_INTERVAL_MS;
    this.deadlineMs = options.deadlineMs ?? NOTEBOOK_DEADLINE_MS;
    this.maxPollErrors = options.maxPollErrors ?? NOTEBOOK_MAX_POLL_ERRORS;
    this.downloadAttempts = Math.max(1, options.downloadAttempts ?? NOTEBOOK_DOWNLOAD_ATTEMPTS);
  }

  async generate(
    job: NotebookJobRequest,
    credentials: IntegrationCredentials,
    signal?: AbortSignal,
  ): Promise<{ jobId: string; result: NotebookJobResult }> {
    const secrets = [credentials.apiKey];
    const started = Date.now();
    const submitted = asRecord(await this.call(credentials, 'POST', '/v1/jobs', signal, job));
    const id = submitted?.id;
    if (typeof id !== 'string' || id.length === 0) throw malformed(NOTEBOOK_PROVIDER_NAME, 'job id missing from the submit response');

    let state: JobState = parseJob({ status: submitted?.status === 'running' ? 'running' : 'queued' }, secrets);
    if (submitted?.status === 'succeeded' || submitted?.status === 'failed') state = parseJob(submitted, secrets);
    let pollErrors = 0;
    while (state.status === 'queued' || state.status === 'running') {
      if (Date.now() - started >= this.deadlineMs) {
        await this.cancel(credentials, id);
        throw new ProviderTransientError(
          `notebook job ${id} did not finish within ${Math.round(this.deadlineMs / 1000)} s`,
          NOTEBOOK_PROVIDER_NAME,
          null,
        );
      }
      try {
        await sleep(Math.min(this.pollIntervalMs, Math.max(0, this.deadlineMs - (Date.now() - started))), signal);
      } catch (error) {
        await this.cancel(credentials, id);
        throw error;
      }
      try {
        state = parseJob(await this.call(credentials, 'GET', `/v1/jobs/${encodeURIComponent(id)}`, signal), secrets);
        pollErrors = 0;
      } catch (error) {
        if (signal?.aborted) {
          await this.cancel(credentials, id);
          throw abortReason(signal);
        }
        if (!(error instanceof ProviderTransientError) || ++pollErrors > this.maxPollErrors) throw error;
      }
    }
    if (state.status === 'failed') throw new ProviderFailure(`notebook job failed: ${state.error}`, NOTEBOOK_PROVIDER_NAME, null);
    if (state.status !== 'succeeded') throw malformed(NOTEBOOK_PROVIDER_NAME, 'job left polling unfinished');
    return { jobId: id, result: state.result };
  }

  async fetchResult(
    jobId: string,
    result: NotebookJobResult,
    credentials: IntegrationCredentials,
    signal?: AbortSignal,
  ): Promise<{ bytes: Buffer; contentType: string }> {
    const unavailable = (why: string) => new ResultUnavailableError(why, NOTEBOOK_PROVIDER_NAME, jobId);
    if (!result.url) throw unavailable('the job reported no result URL');
    let resultUrl: URL;
    try {
      resultUrl = new URL(result.url, `${credentials.baseUrl}/`);
    } catch {
      throw unavailable('the result URL is not valid');
    }
    if (resultUrl.origin !== new URL(credentials.baseUrl).origin) {
      throw unavailable(`the result URL is on another host (${resultUrl.host}); the integration key is not sent there`);
    }
    const downloaded = await downloadResult({
      request: () =>
        requestBytes({
          provider: NOTEBOOK_PROVIDER_NAME,
          url: resultUrl.toString(),
          method: 'GET',
          headers: { authorization: `Bearer ${credentials.apiKey}` },
          timeoutMs: this.options.downloadTimeoutMs ?? NOTEBOOK_DOWNLOAD_TIMEOUT_MS,
          signal,
          secrets: [credentials.apiKey],
          authMessage: NOTEBOOK_AUTH_MESSAGE,
          maxBytes: this.options.maxResultBytes ?? NOTEBOOK_MAX_RESULT_BYTES,
        }),
      attempts: this.downloadAttempts,
      pollIntervalMs: this.pollIntervalMs,
      emptyReason: 'the result is empty',
      signal,
    });
    if ('failure' in downloaded) throw unavailable(downloaded.failure);
    return downloaded;
  }

  private async call(
    credentials: IntegrationCredentials,
    method: 'GET' | 'POST',
    path: string,
    signal?: AbortSignal,
    body?: unknown,
  ): Promise<unknown> {
    try {
      return await requestJson({
        provider: NOTEBOOK_PROVIDER_NAME,
        url: `${credentials.baseUrl}${path}`,
        method,
        headers: { authorization: `Bearer ${credentials.apiKey}` },
        body,
        timeoutMs: this.options.requestTimeoutMs ?? NOTEBOOK_REQUEST_TIMEOUT_MS,
        signal,
        secrets: [credentials.apiKey],
      });
    } catch (error) {
      throw authMapped(error);
    }
  }

  /** Best effort: a service may not support cancelling, and we have given up on the job either way. */
  private async cancel(credentials: IntegrationCredentials, id: string): Promise<void> {
    try {
      await fetch(`${credentials.baseUrl}/v1/jobs/${encodeURIComponent(id)}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${credentials.apiKey}` },
        signal: AbortSignal.timeout(5_000),
      });
    } catch {
      // Best effort.
    }
  }
}
