import { resolveExportLocale } from './export-locale';

const none = new Set<string>();

describe('resolveExportLocale', () => {
  it.each([
    [undefined, none, false, 'en', 'default'],
    ['en', none, false, 'en', 'requested'],
    ['simple', none, false, 'simple', 'requested'],
    ['fr', new Set(['fr']), false, 'fr', 'requested'],
    ['fr', none, false, 'en', 'fallback_missing_translation'],
    ['de', new Set(['fr']), false, 'en', 'fallback_missing_translation'],
    ['fr', new Set(['fr']), true, 'en', 'fallback_english_only'],
    ['simple', none, true, 'en', 'fallback_english_only'],
    ['en', none, true, 'en', 'requested'],
  ])('requested %s (translations %p, English-only %s) -> %s / %s', (requested, available, englishOnly, locale, provenance) => {
    expect(resolveExportLocale({ requested, availableTranslations: available, englishOnly })).toEqual({ locale, provenance });
  });
});
