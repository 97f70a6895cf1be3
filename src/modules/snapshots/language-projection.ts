/**
 * `?language=` on GET /v1/snapshots/{id}: projects a translation (or the Simplified English register) over the
 * stored envelope. Works on the stored envelope (private keys included, markers kept); the caller applies the
 * stored projection afterwards, so projected prose loses its markers and private keys never leave.
 *
 * - `en` (and an absent parameter): the original.
 * - `fr`, `de`, `es`, `it`, `zh`, `ja`: `data.translations[lang]` when it exists with `complete: true`; items'
 *   title/summary/implications and trends' title/description are replaced by id, `executive_summary`,
 *   `executive_narrative` and `_briefing` replace the originals (only where the original has the key, so a
 *   projection never adds blocks). `_meta.language` records the projected language. Without a complete
 *   translation: the original, untouched.
 * - `simple`: the Simplified English register (toSimpleRegister, from the private `_plain` summaries), projected
 *   the same way. An envelope without an `items` array has nothing to write it from and stays untouched. When the
 *   LLM writer wrote the register at scan time (the private `_simple`, ../../engine/llm/simple-register.phase.ts),
 *   its item summaries and implications, executive summary, narrative and briefing block replace the rule-built
 *   ones; trends stay rule-built. `_meta.simple_register` says which register was served.
 */
import type { BriefingBlock, ExecutiveSummary } from '../../engine/envelope.types';
import { toSimpleRegister, type SimpleRegisterItem, type SimpleRegisterSource } from '../../engine/analysis/simple-register';
import { SIMPLE_REGISTER_KEY } from '../../engine/llm/simple-register.phase';

export const SNAPSHOT_LANGUAGES = ['en', 'fr', 'de', 'es', 'it', 'zh', 'ja', 'simple'] as const;
export type SnapshotLanguage = (typeof SNAPSHOT_LANGUAGES)[number];

/** The prose a translation or the simple register supplies. */
export interface ProseOverlay {
  items?: unknown;
  trends?: unknown;
  executive_summary?: unknown;
  executive_narrative?: unknown;
  _briefing?: unknown;
}

type Json = Record<string, unknown>;

export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const str = (value: unknown, fallback = ''): string => (typeof value === 'string' ? value : fallback);

/** `data.translations[language]` when it is a complete translation, else undefined. */
export function completeTranslation(envelope: Json, language: string): Json | undefined {
  const translations = envelope.translations;
  if (!isObject(translations) || !Object.prototype.hasOwnProperty.call(translations, language)) return undefined;
  const translation = translations[language];
  return isObject(translation) && translation.complete === true ? translation : undefined;
}

function overlayById(originals: unknown, overlay: unknown, fields: readonly string[]): unknown {
  if (!Array.isArray(originals) || !Array.isArray(overlay)) return originals;
  const replacements = new Map<string, Json>();
  for (const entry of overlay)
    if (isObject(entry) && typeof entry.id === 'string' && !replacements.has(entry.id)) replacements.set(entry.id, entry);
  return originals.map((original) => {
    if (!isObject(original) || typeof original.id !== 'string') return original;
    const replacement = replacements.get(original.id);
    if (!replacement) return original;
    const out = { ...original };
    for (const field of fields) if (typeof replacement[field] === 'string') out[field] = replacement[field];
    return out;
  });
}

/** The envelope with the overlay's prose in place of the originals; the input is not modified. */
export function applyProseOverlay(envelope: Json, overlay: ProseOverlay, language: string): Json {
  const out: Json = { ...envelope };
  if ('items' in envelope) out.items = overlayById(envelope.items, overlay.items, ['title', 'summary', 'implications']);
  if ('trends' in envelope) out.trends = overlayById(envelope.trends, overlay.trends, ['title', 'description']);
  if ('executive_summary' in envelope && isObject(overlay.executive_summary)) out.executive_summary = overlay.executive_summary;
  if ('executive_narrative' in envelope && typeof overlay.executive_narrative === 'string')
    out.executive_narrative = overlay.executive_narrative;
  if (isObject(envelope._briefing) && isObject(overlay._briefing)) out._briefing = overlay._briefing;
  out._meta = { ...(isObject(envelope._meta) ? envelope._meta : {}), language };
  return out;
}

function plainSummaries(envelope: Json): Record<string, string> {
  const plain = envelope._plain;
  if (!isObject(plain)) return {};
  return Object.fromEntries(Object.entries(plain).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}

/** The register's source, with every field it reads coerced to its expected shape (the envelope is open). */
function simpleSource(envelope: Json): SimpleRegisterSource | undefined {
  if (!Array.isArray(envelope.items)) return undefined;
  const items: SimpleRegisterItem[] = envelope.items.filter(isObject).map((item) => ({
    id: str(item.id),
    title: str(item.title),
    jurisdiction: str(item.jurisdiction),
    key_date: str(item.key_date),
    date_confidence: str(item.date_confidence) as SimpleRegisterItem['date_confidence'],
    impact: str(item.impact) as SimpleRegisterItem['impact'],
    summary: str(item.summary),
    implications: str(item.implications),
    citations: (Array.isArray(item.citations) ? item.citations : []).filter(
      (c): c is SimpleRegisterItem['citations'][number] => isObject(c) && typeof c.id === 'number',
    ),
  }));
  const trends = (Array.isArray(envelope.trends) ? envelope.trends : []).filter(isObject).map((trend) => ({
    id: str(trend.id),
    title: str(trend.title),
    description: str(trend.description),
    item_ids: (Array.isArray(trend.item_ids) ? trend.item_ids : []).filter((id): id is string => typeof id === 'string'),
    jurisdictions: (Array.isArray(trend.jurisdictions) ? trend.jurisdictions : []).filter((j): j is string => typeof j === 'string'),
  }));
  const briefing = envelope._briefing;
  return {
    items,
    trends,
    executive_summary: isObject(envelope.executive_summary) ? (envelope.executive_summary as unknown as ExecutiveSummary) : undefined,
    executive_narrative: typeof envelope.executive_narrative === 'string' ? envelope.executive_narrative : undefined,
    _briefing: isObject(briefing) ? ({ ...briefing, sentiment_label: str(briefing.sentiment_label) } as unknown as BriefingBlock) : null,
    _meta: isObject(envelope._meta) ? envelope._meta : undefined,
  };
}

/** The writer's register stored at scan time (`_simple`), when it has the shape the scan stored. */
function writerRegister(
  envelope: Json,
): { items: Map<string, Json>; executive_summary: Json; executive_narrative: string; briefing?: Json } | undefined {
  const stored = envelope[SIMPLE_REGISTER_KEY];
  if (!isObject(stored) || !Array.isArray(stored.items) || !isObject(stored.executive_summary)) return undefined;
  if (typeof stored.executive_narrative !== 'string') return undefined;
  const items = new Map<string, Json>();
  for (const item of stored.items) if (isObject(item) && typeof item.id === 'string') items.set(item.id, item);
  const briefing = isObject(stored._briefing) ? stored._briefing : undefined;
  return { items, executive_summary: stored.executive_summary, executive_narrative: stored.executive_narrative, briefing };
}

/**
 * The Simplified English register of a stored envelope, or undefined when it has no items to write it from: the
 * writer's where the scan stored one, else the rule-built one.
 */
export function simpleRegisterOf(envelope: Json): ProseOverlay | undefined {
  const source = simpleSource(envelope);
  if (!source) return undefined;
  const rule = toSimpleRegister(source, plainSummaries(envelope));
  const writer = writerRegister(envelope);
  if (!writer) return rule;
  return {
    ...rule,
    items: rule.items.map((item) => {
      const written = writer.items.get(item.id);
      return written
        ? { ...item, summary: str(written.summary, item.summary), implications: str(written.implications, item.implications) }
        : item;
    }),
    executive_summary: writer.executive_summary,
    executive_narrative: writer.executive_narrative,
    ...(writer.briefing ? { _briefing: writer.briefing } : {}),
  };
}

/** `_meta.simple_register` of a `simple` projection: the writer's register, or the rule-built one and why. */
function simpleRegisterMeta(envelope: Json): Json {
  if (writerRegister(envelope)) return { source: 'writer' };
  const stored = isObject(envelope._meta) ? envelope._meta.simple_register : undefined;
  return isObject(stored) && stored.source === 'rule' ? stored : { source: 'rule' };
}

/** The stored envelope in `language` (see the module comment); `projected` says whether anything was replaced. */
export function projectLanguage(envelope: Json, language: SnapshotLanguage): { envelope: Json; projected: boolean } {
  if (language === 'en') return { envelope, projected: false };
  const overlay = language === 'simple' ? simpleRegisterOf(envelope) : completeTranslation(envelope, language);
  if (!overlay) return { envelope, projected: false };
  const projected = applyProseOverlay(envelope, overlay, language);
  if (language === 'simple') projected._meta = { ...(projected._meta as Json), simple_register: simpleRegisterMeta(envelope) };
  return { envelope: projected, projected: true };
}

export type NarrativeLookup = { narrative: string; language: string } | { missing: 'narrative' | 'translation' };

/**
 * GET /v1/snapshots/{id}/executive-narrative: `language` is open (any code, case-insensitive). `en` is the
 * original; `simple` the simple register's narrative; any other code needs a complete translation that carries a
 * narrative. No original narrative (absent or blank) is `narrative` missing, whatever the language.
 */
export function narrativeIn(envelope: Json, requested: string): NarrativeLookup {
  const original = envelope.executive_narrative;
  if (typeof original !== 'string' || original.trim() === '') return { missing: 'narrative' };
  const language = requested.trim().toLowerCase() || 'en';
  if (language === 'en') return { narrative: original, language };
  const overlay = language === 'simple' ? simpleRegisterOf(envelope) : completeTranslation(envelope, language);
  const narrative = overlay?.executive_narrative;
  return typeof narrative === 'string' && narrative.trim() !== '' ? { narrative, language } : { missing: 'translation' };
}
