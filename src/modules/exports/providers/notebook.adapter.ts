/**
 * Notebook exports (provider `notebook`: infographic, slide-detailed, audio, video-explainer, video).
 *
 * There is no simple public API for notebook-style generation, so the account's `notebook` integration points at a
 * service that speaks this small asynchronous job protocol (modelled on typical async media APIs):
 *
 * Integration config: { apiKey: string (required), baseUrl: string (required) }.
 * Every request carries `Authorization: Bearer <apiKey>`.
 *
 * 1. Submit:  POST {baseUrl}/v1/jobs
 *      {"kind": "<artifact_type>", "source_markdown": "<the snapshot as markdown>",
 *       "options": {<the export's options except targetLanguage, e.g. style, detail_level, instructions>},
 *       "language": "en" | "fr" | "de" | "es" | "it" | "zh" | "ja"}
 *    -> 202 (200/201 accepted too) {"id": "<job id>", "status": "queued" | "running" | ...}
 * 2. Poll:    GET {baseUrl}/v1/jobs/{id}  (every NOTEBOOK_POLL_INTERVAL_MS, until NOTEBOOK_DEADLINE_MS)
 *    -> 200 {"id", "status": "queued" | "running" | "succeeded" | "failed",
 *            "error"?: "<human-readable reason when failed>",
 *            "result"?: {"url": "<absolute or relative to baseUrl>", "mime": "<media type>", "size": <bytes>,
 *                        "cost_cents"?: <what the run cost>}}
 * 3. Fetch:   GET result.url (must be on the baseUrl's origin; same Bearer auth) -> the artefact bytes.
 * 4. Cancel (optional for the service, best effort for us): DELETE {baseUrl}/v1/jobs/{id} when we give up on a job
 *    (deadline passed or the export cancelled).
 *
 * Errors: 401/403 -> EngineFailure "the notebook integration rejected its API key"; submit 429/5xx/timeouts ->
 * ProviderTransientError; transient poll errors are retried (up to NOTEBOOK_MAX_POLL_ERRORS in a row); status
 * `failed` -> EngineFailure carrying the service's `error`; a job past the deadline -> ProviderTransientError.
 * A succeeded job whose bytes cannot be fetched (after NOTEBOOK_DOWNLOAD_ATTEMPTS tries) -> ResultUndeliverableError
 * (export state `undelivered`, ../shared/spec/decisions.md C6), carrying the run's cost. A result whose `mime` or download
 * Content-Type is not one the artifact type allows (result-media-types.ts) -> EngineFailure, not retried, not charged.
 *
 * Cost: result.cost_cents when given, else NOTEBOOK_DEFAULT_COST_CENTS[artifact_type].
 */
import { asRecord, errorDetail, malformed, redact, requestJson, BodyTooLargeError, requestBytes, type BytesResponse } from '../../../infra/providers/http/provider-http';
import { artefactFilename } from '../renderers/artefact-filename';
import { abortReason, configBaseUrl, configString, resultMediaType, sleep } from './media-http';
import { ResultUndeliverableError, type ProviderExportAdapter, type ProviderExportInput, type ProviderExportResult } from './provider-export.types';
import { notebookSourceMarkdown, scriptLanguage } from './script';
import { ProviderFailure, ProviderTransientError } from '../../../infra/providers/provider-errors';

export const NOTEBOOK_PROVIDER_NAME = 'notebook';
export const NOTEBOOK_ARTIFACT_TYPES = ['infographic', 'slide-detailed', 'audio', 'video-explainer', 'video'] as const;
export type NotebookArtifactType = (typeof NOTEBOOK_ARTIFACT_TYPES)[number];

/**
 * Charged when the service reports no cost_cents: a rough price of one run per artifact type (cents), set above
 * typical generation prices so the budget is not undercounted.
 */
export const NOTEBOOK_DEFAULT_COST_CENTS: Readonly<Record<NotebookArtifactType, number>> = {
  infographic: 20,
  'slide-detailed': 40,
  audio: 60,
  'video-explainer': 150,
  video: 300,
};

export const NOTEBOOK_POLL_INTERVAL_MS = 1_000;
/** How long a job may take in all (video generation is slow). */
export const NOTEBOOK_DEADLINE_MS = 30 * 60_000;
export const NOTEBOOK_REQUEST_TIMEOUT_MS = 60_000;
export const NOTEBOOK_DOWNLOAD_TIMEOUT_MS = 10 * 60_000;
export const NOTEBOOK_MAX_RESULT_BYTES = 1024 * 1024 * 1024;
export const NOTEBOOK_MAX_POLL_ERRORS = 5;
export const NOTEBOOK_DOWNLOAD_ATTEMPTS = 3;
export const NOTEBOOK_AUTH_MESSAGE = 'the notebook integration rejected its API key';
/** Options that are ours, not the notebook's. */
const LOCAL_OPTIONS = new Set(['targetLanguage', 'editorialModel', 'artifact_type']);

export interface NotebookAdapterOptions {
  /** The export's artifact type; otherwise taken from the input (see ProviderExportInput). */
  artifactType?: string;
  pollIntervalMs?: number;
  deadlineMs?: number;
  requestTimeoutMs?: number;
  downloadTimeoutMs?: number;
  maxResultBytes?: number;
  maxPollErrors?: number;
  downloadAttempts?: number;
}

export function isNotebookArtifactType(value: string | undefined): value is NotebookArtifactType {
  return (NOTEBOOK_ARTIFACT_TYPES as readonly string[]).includes(value ?? '');
}

/** The artifact type of a notebook export: explicit, else `options.artifact_type`, else inferred from its options. */
export function notebookArtifactType(input: ProviderExportInput, explicit?: string): NotebookArtifactType {
  const named = explicit ?? input.artifactType ?? input.options?.artifact_type;
  if (named !== undefined) {
    if (isNotebookArtifactType(named)) return named;
    throw new ProviderFailure(`notebook: unknown artifact type ${JSON.stringify(named)}`, NOTEBOOK_PROVIDER_NAME, null);
  }
  const options = input.options ?? {};
  if ('style' in options || 'detail_level' in options || 'orientation' in options) return 'infographic';
  if ('slide_length' in options) return 'slide-detailed';
  if ('audio_format' in options || 'audio_length' in options) return 'audio';
  if ('video_format' in options) return 'video';
  return 'video-explainer';
}

export interface NotebookJobRequest {
  kind: NotebookArtifactType;
  source_markdown: string;
  options: Record<string, string>;
  language: string;
}

export function notebookJobRequest(input: ProviderExportInput, kind: NotebookArtifactType): NotebookJobRequest {
  const options: Record<string, string> = {};
  for (const [name, value] of Object.entries(input.options ?? {})) if (!LOCAL_OPTIONS.has(name)) options[name] = value;
  // ../shared/spec/decisions.md C3: the DEBATE audio format is produced in English only.
  const language = kind === 'audio' && options.audio_format === 'DEBATE' ? 'en' : scriptLanguage(input.locale);
  return { kind, source_markdown: notebookSourceMarkdown(input.snapshot, input.locale), options, language };
}

interface NotebookConfig {
  apiKey: string;
  baseUrl: string;
}

function parseNotebookConfig(config: Record<string, unknown>): NotebookConfig {
  const apiKey = configString(config ?? {}, 'apiKey');
  if (!apiKey) throw new ProviderFailure('the notebook integration has no apiKey configured', NOTEBOOK_PROVIDER_NAME, null);
  const baseUrl = configString(config, 'baseUrl');
  if (!baseUrl) throw new ProviderFailure('the notebook integration has no baseUrl configured', NOTEBOOK_PROVIDER_NAME, null);
  return { apiKey, baseUrl: configBaseUrl(NOTEBOOK_PROVIDER_NAME, baseUrl) };
}

interface JobResult {
  url: string | null;
  mime: string | null;
  costCents: number | null;
}

type JobState = { status: 'queued' | 'running' } | { status: 'failed'; error: string } | { status: 'succeeded'; result: JobResult };

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

export function createNotebookAdapter(adapterOptions: NotebookAdapterOptions = {}): ProviderExportAdapter {
  const pollIntervalMs = adapterOptions.pollIntervalMs ?? NOTEBOOK_POLL_INTERVAL_MS;
  const deadlineMs = adapterOptions.deadlineMs ?? NOTEBOOK_DEADLINE_MS;
  const requestTimeoutMs = adapterOptions.requestTimeoutMs ?? NOTEBOOK_REQUEST_TIMEOUT_MS;
  const maxPollErrors = adapterOptions.maxPollErrors ?? NOTEBOOK_MAX_POLL_ERRORS;
  const downloadAttempts = Math.max(1, adapterOptions.downloadAttempts ?? NOTEBOOK_DOWNLOAD_ATTEMPTS);

  return {
    async run(input: ProviderExportInput, integrationConfig: Record<string, unknown>, signal?: AbortSignal): Promise<ProviderExportResult> {
      const config = parseNotebookConfig(integrationConfig);
      const kind = notebookArtifactType(input, adapterOptions.artifactType);
      const secrets = [config.apiKey];
      const headers = { authorization: `Bearer ${config.apiKey}` };
      const call = async (method: 'GET' | 'POST', path: string, body?: unknown): Promise<unknown> => {
        try {
          return await requestJson({
            provider: NOTEBOOK_PROVIDER_NAME,
            url: `${config.baseUrl}${path}`,
            method,
            headers,
            body,
            timeoutMs: requestTimeoutMs,
            signal,
            secrets,
          });
        } catch (error) {
          throw authMapped(error);
        }
      };
      const cancelJob = async (id: string): Promise<void> => {
        try {
          await fetch(`${config.baseUrl}/v1/jobs/${encodeURIComponent(id)}`, {
            method: 'DELETE',
            headers,
            signal: AbortSignal.timeout(5_000),
          });
        } catch {
          // Best effort.
        }
      };

      // 1. Submit.
      const started = Date.now();
      const submitted = asRecord(await call('POST', '/v1/jobs', notebookJobRequest(input, kind)));
      const id = submitted?.id;
      if (typeof id !== 'string' || id.length === 0) throw malformed(NOTEBOOK_PROVIDER_NAME, 'job id missing from the submit response');

      // 2. Poll.
      let state: JobState = parseJob({ status: submitted?.status === 'running' ? 'running' : 'queued' }, secrets);
      if (submitted?.status === 'succeeded' || submitted?.status === 'failed') state = parseJob(submitted, secrets);
      let pollErrors = 0;
      while (state.status === 'queued' || state.status === 'running') {
        if (Date.now() - started >= deadlineMs) {
          await cancelJob(id);
          throw new ProviderTransientError(
            `notebook job ${id} did not finish within ${Math.round(deadlineMs / 1000)} s`,
            NOTEBOOK_PROVIDER_NAME,
            null,
          );
        }
        try {
          await sleep(Math.min(pollIntervalMs, Math.max(0, deadlineMs - (Date.now() - started))), signal);
        } catch (error) {
          await cancelJob(id);
          throw error;
        }
        try {
          state = parseJob(await call('GET', `/v1/jobs/${encodeURIComponent(id)}`), secrets);
          pollErrors = 0;
        } catch (error) {
          if (signal?.aborted) {
            await cancelJob(id);
            throw abortReason(signal);
          }
          if (!(error instanceof ProviderTransientError) || ++pollErrors > maxPollErrors) throw error;
        }
      }
      if (state.status === 'failed') {
        throw new ProviderFailure(`notebook job failed: ${state.error}`, NOTEBOOK_PROVIDER_NAME, null);
      }

      if (state.status !== 'succeeded') throw malformed(NOTEBOOK_PROVIDER_NAME, 'job left polling unfinished');

      // 3. Fetch the bytes, unless the job already names a type this export may not carry.
      const { result } = state;
      const exportType = { provider: NOTEBOOK_PROVIDER_NAME, artifactType: kind };
      resultMediaType(NOTEBOOK_PROVIDER_NAME, exportType, [result.mime]);
      const costCents = result.costCents ?? NOTEBOOK_DEFAULT_COST_CENTS[kind];
      const undeliverable = (why: string): ResultUndeliverableError =>
        new ResultUndeliverableError(
          redact(`notebook job ${id} succeeded but its result could not be retrieved: ${why}`, secrets),
          NOTEBOOK_PROVIDER_NAME,
          costCents,
          id,
        );
      if (!result.url) throw undeliverable('the job reported no result URL');
      let resultUrl: URL;
      try {
        resultUrl = new URL(result.url, `${config.baseUrl}/`);
      } catch {
        throw undeliverable('the result URL is not valid');
      }
      if (resultUrl.origin !== new URL(config.baseUrl).origin) {
        throw undeliverable(`the result URL is on another host (${resultUrl.host}); the integration key is not sent there`);
      }
      let lastError = '';
      for (let attempt = 1; attempt <= downloadAttempts; attempt++) {
        let response: BytesResponse | undefined;
        try {
          response = await requestBytes({
            provider: NOTEBOOK_PROVIDER_NAME,
            url: resultUrl.toString(),
            method: 'GET',
            headers,
            timeoutMs: adapterOptions.downloadTimeoutMs ?? NOTEBOOK_DOWNLOAD_TIMEOUT_MS,
            signal,
            secrets,
            authMessage: NOTEBOOK_AUTH_MESSAGE,
            maxBytes: adapterOptions.maxResultBytes ?? NOTEBOOK_MAX_RESULT_BYTES,
          });
        } catch (error) {
          if (signal?.aborted) throw abortReason(signal);
          lastError = error instanceof Error ? error.message : String(error);
          if (!(error instanceof ProviderTransientError) || error instanceof BodyTooLargeError) break;
        }
        if (response && response.bytes.length > 0) {
          // Outside the try: a refused type is the provider's final answer, not a download to retry.
          const type = resultMediaType(NOTEBOOK_PROVIDER_NAME, exportType, [result.mime, response.contentType]);
          return {
            bytes: response.bytes,
            mime: type.mime,
            filename: artefactFilename(input.snapshot, type.extension, `notebook-${kind}`),
            costCents,
          };
        }
        if (response) lastError = 'the result is empty';
        if (attempt < downloadAttempts) await sleep(pollIntervalMs, signal);
      }
      throw undeliverable(lastError);
    },
  };
}

/** The adapter with production timings. */
export const notebookAdapter: ProviderExportAdapter = createNotebookAdapter();
