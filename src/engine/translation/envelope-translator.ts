import type { BriefingBlock, EnvelopeTranslation, ExecutiveSummary, SnapshotItem, SnapshotTrend } from '../envelope.types';
import type { TranslationPort } from '../../infra/providers/ports';

export const TRANSLATION_LANGUAGES = ['fr', 'de', 'es', 'it', 'zh', 'ja', 'pt'] as const;
export type TranslationLanguage = (typeof TRANSLATION_LANGUAGES)[number];
export const TRANSLATION_BATCH_SIZE = 50;

export function isSupportedTranslationLanguage(language: string): language is TranslationLanguage {
  return (TRANSLATION_LANGUAGES as readonly string[]).includes(language);
}

/** The caller records the language as unsupported; nothing was sent to the provider. */
export class UnsupportedLanguageError extends Error {
  constructor(readonly language: string) {
    super(`translation to "${language}" is not supported (supported: ${TRANSLATION_LANGUAGES.join(', ')})`);
    this.name = 'UnsupportedLanguageError';
  }
}

export interface TranslatableEnvelope {
  items: ReadonlyArray<Pick<SnapshotItem, 'id' | 'title' | 'summary' | 'implications'>>;
  trends: ReadonlyArray<Pick<SnapshotTrend, 'id' | 'title' | 'description'>>;
  executive_summary?: ExecutiveSummary | null;
  executive_narrative?: string | null;
  _briefing?: BriefingBlock | null;
}

export interface TranslateEnvelopeOptions {
  batchSize?: number;
}

/**
 * Citation markers and leading jurisdiction tags ("[EU] ...") are identifiers, not prose: they travel as
 * `<x id="N"/>` placeholders the provider keeps in place, so they land where the translated sentence needs them.
 */
const PROTECTED = /\[\[cite:[^[\]]{1,64}\]\]|^\[[A-Z]{2,6}(?:-[A-Z0-9]{1,6})?\]/g;
const PLACEHOLDER = /<x\s+id=["'](\d+)["']\s*(?:\/>|>\s*<\/x>)/g;

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function unescapeXml(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&(apos|#39);/g, "'")
    .replace(/&amp;/g, '&');
}

export function protectMarkers(text: string): { xml: string; markers: string[] } {
  const markers: string[] = [];
  let xml = '';
  let last = 0;
  for (const match of text.matchAll(PROTECTED)) {
    xml += `${escapeXml(text.slice(last, match.index))}<x id="${markers.length}"/>`;
    markers.push(match[0]);
    last = match.index + match[0].length;
  }
  return { xml: xml + escapeXml(text.slice(last)), markers };
}

/** Puts the markers back; any the provider dropped are appended so no citation is lost. */
export function restoreMarkers(xml: string, markers: readonly string[]): string {
  const used = new Set<number>();
  const tokens: string[] = [];
  const withTokens = xml.replace(PLACEHOLDER, (_whole, id: string) => {
    const index = Number(id);
    if (index >= markers.length || used.has(index)) return '';
    used.add(index);
    tokens.push(markers[index]);
    return `\u0000${tokens.length - 1}\u0000`;
  });
  let text = unescapeXml(withTokens.replace(/<\/?x\b[^<>]*>/g, '')).replace(
    /\u0000(\d+)\u0000/g,
    (_whole, index: string) => tokens[Number(index)],
  );
  const missing = markers.filter((_marker, index) => !used.has(index));
  if (missing.length > 0) text = `${text.trimEnd()} ${missing.join(' ')}`;
  return text;
}

/**
 * Translates the envelope's prose through the port. `complete` is true only when the provider returned a
 * translation for every string; otherwise the untranslated strings keep their English text.
 */
export async function translateEnvelope(
  envelope: TranslatableEnvelope,
  language: string,
  port: TranslationPort,
  signal?: AbortSignal,
  options: TranslateEnvelopeOptions = {},
): Promise<{ translation: EnvelopeTranslation; characters: number }> {
  const code = language.trim().toLowerCase();
  if (!isSupportedTranslationLanguage(code)) throw new UnsupportedLanguageError(language);

  const sources: string[] = [];
  const slot = (text: string | null | undefined): number => sources.push(typeof text === 'string' ? text : '') - 1;
  const summary = envelope.executive_summary;
  const briefing = envelope._briefing;
  const plan = {
    items: envelope.items.map((item) => ({
      id: item.id,
      title: slot(item.title),
      summary: slot(item.summary),
      implications: slot(item.implications),
    })),
    trends: envelope.trends.map((trend) => ({ id: trend.id, title: slot(trend.title), description: slot(trend.description) })),
    summary: summary ? { bottom_line: slot(summary.bottom_line), priorities: (summary.priorities ?? []).map(slot) } : null,
    narrative: typeof envelope.executive_narrative === 'string' ? slot(envelope.executive_narrative) : null,
    briefing: briefing
      ? {
          briefing_headline: slot(briefing.briefing_headline),
          briefing_standfirst: slot(briefing.briefing_standfirst),
          priorities: (briefing.priorities ?? []).map(slot),
          bottom_line_tight: slot(briefing.bottom_line_tight),
          pull_quote: slot(briefing.pull_quote),
          sentiment_label: slot(briefing.sentiment_label),
          sentiment_rationale: slot(briefing.sentiment_rationale),
        }
      : null,
  };

  const { texts, complete, characters } = await translateStrings(sources, code, port, signal, options.batchSize ?? TRANSLATION_BATCH_SIZE);
  const t = (index: number): string => texts[index];

  const translation: EnvelopeTranslation = {
    language: code,
    complete,
    provider: port.provider,
    items: plan.items.map((item) => ({ id: item.id, title: t(item.title), summary: t(item.summary), implications: t(item.implications) })),
    trends: plan.trends.map((trend) => ({ id: trend.id, title: t(trend.title), description: t(trend.description) })),
    ...(plan.summary
      ? { executive_summary: { bottom_line: t(plan.summary.bottom_line), priorities: plan.summary.priorities.map(t) } }
      : {}),
    ...(plan.narrative === null ? {} : { executive_narrative: t(plan.narrative) }),
    ...(plan.briefing
      ? {
          _briefing: {
            briefing_headline: t(plan.briefing.briefing_headline),
            briefing_standfirst: t(plan.briefing.briefing_standfirst),
            priorities: plan.briefing.priorities.map(t),
            bottom_line_tight: t(plan.briefing.bottom_line_tight),
            pull_quote: t(plan.briefing.pull_quote),
            sentiment_label: t(plan.briefing.sentiment_label),
            sentiment_rationale: t(plan.briefing.sentiment_rationale),
          },
        }
      : {}),
  };
  return { translation, characters };
}

async function translateStrings(
  sources: readonly string[],
  language: string,
  port: TranslationPort,
  signal: AbortSignal | undefined,
  batchSize: number,
): Promise<{ texts: string[]; complete: boolean; characters: number }> {
  // Blank strings need no translation and repeated strings are sent once.
  const unique: string[] = [];
  const position = new Map<string, number>();
  for (const text of sources) {
    if (text.trim() !== '' && !position.has(text)) position.set(text, unique.push(text) - 1);
  }
  const protectedTexts = unique.map(protectMarkers);
  const translated: Array<string | undefined> = new Array<string | undefined>(unique.length);
  let characters = 0;
  let complete = true;
  const size = Math.max(1, batchSize);
  for (let start = 0; start < unique.length; start += size) {
    const batch = protectedTexts.slice(start, start + size);
    const result = await port.translate(
      batch.map((entry) => entry.xml),
      language,
      signal,
      { format: 'xml' },
    );
    characters += result.usage.characters;
    if (!Array.isArray(result.texts) || result.texts.length !== batch.length) {
      complete = false;
      continue;
    }
    result.texts.forEach((text, offset) => {
      if (typeof text === 'string' && text.trim() !== '') translated[start + offset] = restoreMarkers(text, batch[offset].markers);
      else complete = false;
    });
  }
  const texts = sources.map((text) => {
    const index = position.get(text);
    return index === undefined ? text : (translated[index] ?? text);
  });
  return { texts, complete, characters };
}
