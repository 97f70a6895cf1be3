/**
 * What an account's export settings change about an export (docs/decisions.md, Account export settings): the
 * `instructions` it runs with, and the Bull priority of its job.
 */
import type { AccountExportSettings } from '../accounts/accounts.service';
import type { ExportLane } from '../accounts/entities/account.entity';

export const DEFAULT_ACCOUNT_EXPORT_SETTINGS: AccountExportSettings = {
  freeTextCustomisation: true,
  defaultInstructions: null,
  exportLane: 'realtime',
};

/** Bull priorities (1 is served first). Every export job carries one: Bull orders prioritised jobs only among themselves. */
export const REALTIME_EXPORT_PRIORITY = 1;
export const BATCH_EXPORT_PRIORITY = 10;

/**
 * The options an export runs with. For a type that takes `instructions`: with customisation on, the request's own,
 * else the account's default; with it off, the account's default whatever was sent (none when there is no default).
 * Other types are unchanged. The result is what the job stores and shows, so a client sees what was used.
 */
export function effectiveExportOptions(
  options: Readonly<Record<string, string>>,
  settings: AccountExportSettings,
  takesInstructions: boolean,
): Record<string, string> {
  if (!takesInstructions) return { ...options };
  const { instructions: requested, ...rest } = options;
  const instructions = settings.freeTextCustomisation ? (requested ?? settings.defaultInstructions) : settings.defaultInstructions;
  return instructions === null || instructions === undefined ? rest : { ...rest, instructions };
}

/** AI-generated exports: the provider integration types, and the image types a vendor draws on this deployment. */
export function isAiGeneratedExport(
  type: { provider: string; requires_provider: string | null },
  drawnByVendor: (provider: string) => boolean,
): boolean {
  return type.requires_provider !== null || drawnByVendor(type.provider);
}

/** AI-generated exports of a batch-lane account queue behind everything else; the lane does not apply to internal types. */
export function exportJobPriority(lane: ExportLane, aiGenerated: boolean): number {
  return aiGenerated && lane === 'batch' ? BATCH_EXPORT_PRIORITY : REALTIME_EXPORT_PRIORITY;
}
