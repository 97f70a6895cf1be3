/**
 * The `notebooklm-enterprise` kind of the notebook integration: notebook exports made by Google's NotebookLM
 * Enterprise API and its Podcast API (src/infra/providers/notebook/notebooklm-enterprise.adapter.ts) instead of the
 * project's job protocol (kind `jobs`, the default).
 *
 * Integration config:
 *   { "kind": "notebooklm-enterprise",
 *     "project": "<project number>", "location": "global" | "us" | "eu" (default global),
 *     "serviceAccountKey": { …a Google service-account key JSON… } (object or its JSON text)  — or —
 *     "accessToken": "<OAuth 2.0 access token>" (used as is; it is never refreshed),
 *     "audioVia": "podcast" (default) | "notebook",
 *     "discoveryEngineBaseUrl"?, "podcastBaseUrl"? (overrides, for tests and private endpoints) }
 *
 * What the API can make: audio only. Google's API creates notebooks, sources and audio overviews; infographics,
 * slide decks and video overviews exist in the NotebookLM UI but not in the API, so those artifact types are refused
 * at create (422, `notebookIntegrationError`). `audio` goes:
 * - `audioVia: "podcast"`: through the Podcast API, which needs no notebook and answers an MP3 we store;
 * - `audioVia: "notebook"`: a notebook with the snapshot as a text source and its audio overview. The API has no
 *   method that returns an audio overview's audio, so such an export ends `undelivered` (decisions.md C6), naming
 *   the notebook where the overview can be played.
 *
 * Options: audio_length SHORT -> SHORT, DEFAULT -> STANDARD, LONG -> STANDARD (the longest the Podcast API makes);
 * audio_format (no API field for it) and `instructions` become the podcast `focus` / overview `episodeFocus`;
 * the language is the export's locale (English for DEBATE and `simple`).
 */
import {
  DEFAULT_PODCAST_BASE_URL,
  defaultDiscoveryEngineBaseUrl,
  NotebookLmEnterpriseClient,
  type AudioOverviewRequest,
  type GoogleCredentials,
  type NotebookLmEnterpriseConfig,
  type PodcastRequest,
} from '../../../infra/providers/notebook/notebooklm-enterprise.adapter';
import { parseServiceAccountKey } from '../../../infra/providers/notebook/google-access-token';
import { ProviderFailure, ResultUnavailableError } from '../../../infra/providers/provider-errors';
import type { AccountIntegration } from '../../accounts/entities/account-integration.entity';
import type { ExportTypeEntry } from '../export-types/export-types.registry';
import type { FieldError } from '../export-types/export-options.validator';
import { artefactFilename } from '../renderers/artefact-filename';
import { configBaseUrl, configString } from './integration-config';
import { ResultUndeliverableError, type ProviderExportInput, type ProviderExportResult } from './provider-export.types';
import { resultMediaType } from './result-media-type';
import { notebookSourceMarkdown, scriptLanguage } from './script';

export const NOTEBOOK_JOBS_KIND = 'jobs';
export const NOTEBOOKLM_ENTERPRISE_KIND = 'notebooklm-enterprise';
/** The notebook artifact types Google's API can produce. */
export const NOTEBOOKLM_ENTERPRISE_ARTIFACT_TYPES: readonly string[] = ['audio'];
const PROVIDER = 'notebook';
/** Charged per audio run: Google reports no price per call. Same as the job protocol's default for audio. */
export const NOTEBOOKLM_AUDIO_COST_CENTS = 60;

export type AudioRoute = 'podcast' | 'notebook';

/** Which protocol an account's notebook integration speaks; `jobs` when the config names none. */
export function notebookIntegrationKind(config: Record<string, unknown> | undefined): string {
  return configString(config ?? {}, 'kind') ?? NOTEBOOK_JOBS_KIND;
}

/**
 * decisions.md section 2 applied to what the integration can make: a notebook type the account's NotebookLM
 * Enterprise integration cannot produce is refused at create.
 */
export function notebookIntegrationError(type: ExportTypeEntry, integrations: readonly AccountIntegration[]): FieldError | undefined {
  if (type.provider !== PROVIDER) return undefined;
  const config = integrations.find((entry) => entry.integration === 'notebook')?.config;
  if (notebookIntegrationKind(config) !== NOTEBOOKLM_ENTERPRISE_KIND) return undefined;
  if (NOTEBOOKLM_ENTERPRISE_ARTIFACT_TYPES.includes(type.artifact_type)) return undefined;
  return {
    path: 'provider',
    code: 'incompatible',
    message:
      `${type.key} cannot be made by this account's notebook integration: Google's NotebookLM Enterprise API ` +
      `produces audio only (notebook:audio); ${type.artifact_type} exists in the NotebookLM app but not in its API.`,
  };
}

/**
 * What is wrong with a notebook integration config an operator is about to store (undefined when nothing is
 * checked wrong): an unknown kind, or a NotebookLM Enterprise config that would fail every export.
 */
export function notebookIntegrationConfigProblem(config: Record<string, unknown>): string | undefined {
  const kind = notebookIntegrationKind(config);
  if (kind === NOTEBOOK_JOBS_KIND) return undefined;
  if (kind !== NOTEBOOKLM_ENTERPRISE_KIND) return `kind must be "${NOTEBOOK_JOBS_KIND}" or "${NOTEBOOKLM_ENTERPRISE_KIND}"`;
  try {
    parseNotebookLmEnterpriseConfig(config);
    return undefined;
  } catch (error) {
    if (error instanceof ProviderFailure) return error.message;
    throw error;
  }
}

export interface NotebookLmEnterpriseSettings extends NotebookLmEnterpriseConfig {
  audioVia: AudioRoute;
}

export function parseNotebookLmEnterpriseConfig(config: Record<string, unknown>): NotebookLmEnterpriseSettings {
  const fail = (why: string) => new ProviderFailure(`the notebook integration (NotebookLM Enterprise) ${why}`, PROVIDER, null);
  const project = configString(config, 'project');
  if (!project) throw fail('has no project configured');
  const location = configString(config, 'location') ?? 'global';
  if (!/^[a-z0-9-]+$/.test(location)) throw fail(`has an invalid location ${JSON.stringify(location.slice(0, 40))}`);
  let credentials: GoogleCredentials;
  const accessToken = configString(config, 'accessToken');
  if (config.serviceAccountKey !== undefined)
    credentials = { serviceAccountKey: parseServiceAccountKey(PROVIDER, config.serviceAccountKey) };
  else if (accessToken) credentials = { accessToken };
  else throw fail('needs serviceAccountKey or accessToken');
  const audioVia = configString(config, 'audioVia') ?? 'podcast';
  if (audioVia !== 'podcast' && audioVia !== 'notebook') throw fail('audioVia must be "podcast" or "notebook"');
  const discoveryEngineBaseUrl = configString(config, 'discoveryEngineBaseUrl');
  const podcastBaseUrl = configString(config, 'podcastBaseUrl');
  return {
    project,
    location,
    credentials,
    audioVia,
    discoveryEngineBaseUrl: discoveryEngineBaseUrl
      ? configBaseUrl(PROVIDER, discoveryEngineBaseUrl)
      : defaultDiscoveryEngineBaseUrl(location),
    podcastBaseUrl: podcastBaseUrl ? configBaseUrl(PROVIDER, podcastBaseUrl) : DEFAULT_PODCAST_BASE_URL,
  };
}

/** How each audio_format is asked for: the API has no format field, only a free-text focus. */
const FORMAT_FOCUS: Readonly<Record<string, string>> = {
  DEEP_DIVE: 'Format: a deep dive. Two hosts unpack and connect the topics in a lively, in-depth conversation.',
  BRIEF: 'Format: a brief. Deliver the key takeaways quickly and concisely, in a couple of minutes.',
  CRITIQUE: 'Format: a critique. Give a constructive, critical evaluation of the material: strengths, gaps and risks.',
  DEBATE: 'Format: a debate. Two hosts argue different perspectives on the material in a formal back-and-forth.',
};

export function audioFocus(options: Record<string, string>): string {
  const format = FORMAT_FOCUS[options.audio_format ?? 'DEEP_DIVE'] ?? FORMAT_FOCUS.DEEP_DIVE!;
  const instructions = options.instructions?.trim();
  return instructions ? `${format}\n${instructions}` : format;
}

export function podcastLength(audioLength: string | undefined): PodcastRequest['podcastConfig']['length'] {
  return audioLength === 'SHORT' ? 'SHORT' : 'STANDARD';
}

/** ../shared/spec/decisions.md C3: the DEBATE audio format is produced in English only. */
export function audioLanguage(input: ProviderExportInput): string {
  return input.options?.audio_format === 'DEBATE' ? 'en' : scriptLanguage(input.locale);
}

function snapshotTitle(input: ProviderExportInput): string {
  const title = typeof input.snapshot.title === 'string' ? input.snapshot.title.trim() : '';
  return (title || 'Regulatory horizon scan').slice(0, 200);
}

export function podcastRequest(input: ProviderExportInput): PodcastRequest {
  const options = input.options ?? {};
  return {
    podcastConfig: { focus: audioFocus(options), length: podcastLength(options.audio_length), languageCode: audioLanguage(input) },
    contexts: [{ text: notebookSourceMarkdown(input.snapshot, input.locale) }],
    title: snapshotTitle(input),
    description: 'A regulatory horizon scan, as a podcast.',
  };
}

export function audioOverviewRequest(input: ProviderExportInput): AudioOverviewRequest {
  const title = snapshotTitle(input);
  return {
    notebookTitle: title,
    sourceName: title,
    sourceText: notebookSourceMarkdown(input.snapshot, input.locale),
    episodeFocus: audioFocus(input.options ?? {}),
    languageCode: audioLanguage(input),
  };
}

/** Runs a notebook export (audio only; the rest is refused at create) over the NotebookLM Enterprise API. */
export async function runNotebookLmEnterprise(
  client: NotebookLmEnterpriseClient,
  artifactType: string,
  input: ProviderExportInput,
  integrationConfig: Record<string, unknown>,
  signal?: AbortSignal,
): Promise<ProviderExportResult> {
  if (!NOTEBOOKLM_ENTERPRISE_ARTIFACT_TYPES.includes(artifactType)) {
    // Exports created before the integration changed kind.
    throw new ProviderFailure(`Google's NotebookLM Enterprise API cannot make notebook:${artifactType} (audio only)`, PROVIDER, null);
  }
  const settings = parseNotebookLmEnterpriseConfig(integrationConfig);
  const exportType = { provider: PROVIDER, artifactType };
  if (settings.audioVia === 'notebook') {
    const made = await client.audioOverview(settings, audioOverviewRequest(input), signal);
    if (made.status === 'AUDIO_OVERVIEW_STATUS_FAILED') {
      throw new ProviderFailure(`NotebookLM could not generate the audio overview of notebook ${made.notebookId}`, PROVIDER, null);
    }
    throw new ResultUndeliverableError(
      `NotebookLM is making the audio overview in notebook ${made.notebookId} (${made.notebookName}; ${made.status}), but the ` +
        'NotebookLM Enterprise API has no download for audio overviews: play it in NotebookLM, or set audioVia "podcast".',
      PROVIDER,
      NOTEBOOKLM_AUDIO_COST_CENTS,
      made.notebookId,
    );
  }
  let podcast: { operationName: string; bytes: Buffer; contentType: string };
  try {
    podcast = await client.podcast(settings, podcastRequest(input), signal);
  } catch (error) {
    if (!(error instanceof ResultUnavailableError)) throw error;
    throw new ResultUndeliverableError(
      `NotebookLM podcast ${error.jobId} finished but its audio could not be downloaded: ${error.message}`,
      PROVIDER,
      NOTEBOOKLM_AUDIO_COST_CENTS,
      error.jobId,
    );
  }
  const type = resultMediaType(PROVIDER, exportType, [podcast.contentType]);
  return {
    bytes: podcast.bytes,
    mime: type.mime,
    filename: artefactFilename(input.snapshot, type.extension, 'notebook-audio'),
    costCents: NOTEBOOKLM_AUDIO_COST_CENTS,
  };
}
