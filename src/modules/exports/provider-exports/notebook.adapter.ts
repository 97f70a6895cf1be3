/**
 * Notebook exports (provider `notebook`: infographic, slide-detailed, audio, video-explainer, video): the snapshot as
 * markdown and the export's options become a job for the NotebookPort (the job protocol is in
 * src/infra/providers/notebook/notebook-jobs.adapter.ts); its result is checked against the media types the
 * artifact type allows and named after the snapshot.
 *
 * Integration config: { kind?: "jobs" (default), apiKey: string (required), baseUrl: string (required) }. With
 * `kind: "notebooklm-enterprise"` the export goes to Google's NotebookLM Enterprise / Podcast API instead
 * (notebooklm-enterprise.ts).
 *
 * A succeeded job whose bytes cannot be fetched -> ResultUndeliverableError (export state `undelivered`,
 * ../shared/spec/decisions.md C6), carrying the run's cost. A result whose `mime` or download Content-Type is not one
 * the artifact type allows (result-media-types.ts) -> EngineFailure, not retried, not charged.
 *
 * Cost: result.cost_cents when given, else NOTEBOOK_DEFAULT_COST_CENTS[artifact_type].
 */
import { redact } from '../../../infra/providers/http/provider-http';
import { NOTEBOOK_PROVIDER_NAME, NotebookJobsAdapter, type NotebookJobsOptions } from '../../../infra/providers/notebook/notebook-jobs.adapter';
import type { IntegrationCredentials, NotebookJobRequest, NotebookPort } from '../../../infra/providers/ports';
import { ProviderFailure, ResultUnavailableError } from '../../../infra/providers/provider-errors';
import { artefactFilename } from '../renderers/artefact-filename';
import { ResultUndeliverableError, type ProviderExportAdapter, type ProviderExportInput, type ProviderExportResult } from './provider-export.types';
import { notebookSourceMarkdown, scriptLanguage } from './script';
import { configBaseUrl, configString } from './integration-config';
import { resultMediaType } from './result-media-type';
import { NotebookLmEnterpriseClient } from '../../../infra/providers/notebook/notebooklm-enterprise.adapter';
import { NOTEBOOK_JOBS_KIND, NOTEBOOKLM_ENTERPRISE_KIND, notebookIntegrationKind, runNotebookLmEnterprise } from './notebooklm-enterprise';

export { NOTEBOOK_PROVIDER_NAME } from '../../../infra/providers/notebook/notebook-jobs.adapter';

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

/** Options that are ours, not the notebook's. */
const LOCAL_OPTIONS = new Set(['targetLanguage', 'editorialModel', 'artifact_type']);

export interface NotebookAdapterOptions extends NotebookJobsOptions {
  /** The export's artifact type; otherwise taken from the input (see ProviderExportInput). */
  artifactType?: string;
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

export function notebookJobRequest(input: ProviderExportInput, kind: NotebookArtifactType): NotebookJobRequest {
  const options: Record<string, string> = {};
  for (const [name, value] of Object.entries(input.options ?? {})) if (!LOCAL_OPTIONS.has(name)) options[name] = value;
  // ../shared/spec/decisions.md C3: the DEBATE audio format is produced in English only.
  const language = kind === 'audio' && options.audio_format === 'DEBATE' ? 'en' : scriptLanguage(input.locale);
  return { kind, source_markdown: notebookSourceMarkdown(input.snapshot, input.locale), options, language };
}

function parseNotebookConfig(config: Record<string, unknown>): IntegrationCredentials {
  const apiKey = configString(config ?? {}, 'apiKey');
  if (!apiKey) throw new ProviderFailure('the notebook integration has no apiKey configured', NOTEBOOK_PROVIDER_NAME, null);
  const baseUrl = configString(config, 'baseUrl');
  if (!baseUrl) throw new ProviderFailure('the notebook integration has no baseUrl configured', NOTEBOOK_PROVIDER_NAME, null);
  return { apiKey, baseUrl: configBaseUrl(NOTEBOOK_PROVIDER_NAME, baseUrl) };
}

/** A notebook export over `notebook` (by default the job-protocol adapter with `adapterOptions`' timings). */
export function createNotebookAdapter(adapterOptions: NotebookAdapterOptions = {}, notebook?: NotebookPort): ProviderExportAdapter {
  const { artifactType, ...timings } = adapterOptions;
  const port = notebook ?? new NotebookJobsAdapter(timings);
  const enterprise = new NotebookLmEnterpriseClient(timings);
  return {
    async run(input: ProviderExportInput, integrationConfig: Record<string, unknown>, signal?: AbortSignal): Promise<ProviderExportResult> {
      const integrationKind = notebookIntegrationKind(integrationConfig);
      if (integrationKind === NOTEBOOKLM_ENTERPRISE_KIND) {
        return runNotebookLmEnterprise(enterprise, notebookArtifactType(input, artifactType), input, integrationConfig, signal);
      }
      if (integrationKind !== NOTEBOOK_JOBS_KIND) {
        throw new ProviderFailure(
          `the notebook integration has an unknown kind ${JSON.stringify(integrationKind.slice(0, 40))} (expected "${NOTEBOOK_JOBS_KIND}" or "${NOTEBOOKLM_ENTERPRISE_KIND}")`,
          NOTEBOOK_PROVIDER_NAME,
          null,
        );
      }
      const credentials = parseNotebookConfig(integrationConfig);
      const kind = notebookArtifactType(input, artifactType);
      const { jobId, result } = await port.generate(notebookJobRequest(input, kind), credentials, signal);
      // The bytes are fetched only when the job does not already name a type this export may not carry.
      const exportType = { provider: NOTEBOOK_PROVIDER_NAME, artifactType: kind };
      resultMediaType(NOTEBOOK_PROVIDER_NAME, exportType, [result.mime]);
      const costCents = result.costCents ?? NOTEBOOK_DEFAULT_COST_CENTS[kind];
      let fetched: { bytes: Buffer; contentType: string };
      try {
        fetched = await port.fetchResult(jobId, result, credentials, signal);
      } catch (error) {
        if (!(error instanceof ResultUnavailableError)) throw error;
        throw new ResultUndeliverableError(
          redact(`notebook job ${jobId} succeeded but its result could not be retrieved: ${error.message}`, [credentials.apiKey]),
          NOTEBOOK_PROVIDER_NAME,
          costCents,
          jobId,
        );
      }
      // A refused type is the provider's final answer, not a download to retry.
      const type = resultMediaType(NOTEBOOK_PROVIDER_NAME, exportType, [result.mime, fetched.contentType]);
      return {
        bytes: fetched.bytes,
        mime: type.mime,
        filename: artefactFilename(input.snapshot, type.extension, `notebook-${kind}`),
        costCents,
      };
    },
  };
}
