import type { LocaleProvenance } from './entities/export-job.entity';

/**
 * ../shared/spec/decisions.md C3: what language an export is produced in. `simple` never falls back; another language falls
 * back to English when the snapshot has no complete translation; notebook audio DEBATE is English-only.
 */
export function resolveExportLocale(input: {
  requested: string | undefined;
  availableTranslations: ReadonlySet<string>;
  englishOnly: boolean;
}): { locale: string; provenance: LocaleProvenance } {
  const { requested } = input;
  if (!requested) return { locale: 'en', provenance: 'default' };
  if (requested === 'en') return { locale: 'en', provenance: 'requested' };
  if (input.englishOnly) return { locale: 'en', provenance: 'fallback_english_only' };
  if (requested === 'simple') return { locale: 'simple', provenance: 'requested' };
  if (input.availableTranslations.has(requested)) return { locale: requested, provenance: 'requested' };
  return { locale: 'en', provenance: 'fallback_missing_translation' };
}
