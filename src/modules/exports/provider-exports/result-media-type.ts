import { findExportType } from '../export-types/export-types.registry';
import { acceptedResultMediaType, allowedResultMediaTypes, bareMediaType, isGenericMediaType } from '../export-types/result-media-types';
import { ProviderFailure } from '../../../infra/providers/provider-errors';

/**
 * The media type a provider's result is stored and served as. Every type the provider names for it (in a job
 * result, in the download's Content-Type) must be one the export type allows (result-media-types.ts); generic
 * labels (none, application/octet-stream) defer to the others, and with no specific label the export type's own
 * media type is used. Anything else is refused for good: a ProviderFailure, so the export fails and is not charged.
 */
export function resultMediaType(
  provider: string,
  exportType: { provider: string; artifactType: string },
  labels: readonly (string | null | undefined)[],
): { mime: string; extension: string } {
  let chosen: { mime: string; extension: string } | undefined;
  for (const label of labels) {
    if (label === null || label === undefined || isGenericMediaType(label)) continue;
    const accepted = acceptedResultMediaType(exportType.provider, exportType.artifactType, label);
    if (!accepted) {
      const allowed = allowedResultMediaTypes(exportType.provider, exportType.artifactType).join(', ');
      throw new ProviderFailure(
        `${provider} delivered the ${exportType.artifactType} as ${JSON.stringify(bareMediaType(label).slice(0, 100))}, which this export type does not allow (allowed: ${allowed})`,
        provider,
        null,
      );
    }
    chosen ??= accepted;
  }
  if (chosen) return chosen;
  const own = findExportType(exportType.provider, exportType.artifactType)?.result.mime;
  const fallback = own === undefined ? undefined : acceptedResultMediaType(exportType.provider, exportType.artifactType, own);
  if (!fallback) {
    throw new ProviderFailure(
      `${provider}: ${exportType.provider}:${exportType.artifactType} is not a registered export type`,
      provider,
      null,
    );
  }
  return fallback;
}
