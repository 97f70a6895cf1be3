import { AdapterOptions, DEFAULT_TIMEOUT_MS, asArray, asRecord, malformed, requestJson, trimBase } from '../http/provider-http';
import type { TranslateOptions, TranslationPort } from '../ports';
import { ProviderFailure } from '../provider-errors';

export const DEEPL_PRO_BASE_URL = 'https://api.deepl.com';
export const DEEPL_FREE_BASE_URL = 'https://api-free.deepl.com';
export const DEEPL_MAX_TEXTS = 50;
// DeepL caps a request body at 128 KiB; leave room for the JSON around the texts.
const MAX_BATCH_BYTES = 100_000;

/** Our language codes to DeepL target_lang values. */
export const DEEPL_TARGET_LANGUAGES: Readonly<Record<string, string>> = {
  fr: 'FR',
  de: 'DE',
  es: 'ES',
  it: 'IT',
  zh: 'ZH-HANS',
  ja: 'JA',
  pt: 'PT-PT',
};

/** Free-plan keys end in `:fx` and only work on the free endpoint. */
export function deeplBaseUrl(apiKey: string): string {
  return apiKey.endsWith(':fx') ? DEEPL_FREE_BASE_URL : DEEPL_PRO_BASE_URL;
}

export interface DeepLOptions extends AdapterOptions {
  /** `model_type` (the catalogue's model_id: quality_optimized, latency_optimized); omitted: DeepL's default. */
  modelType?: string;
  /** DeepL source_lang; null lets DeepL detect it. Defaults to EN, the language envelopes are written in. */
  sourceLanguage?: string | null;
}

/** DeepL API v2 /translate. */
export class DeepLAdapter implements TranslationPort {
  readonly provider = 'deepl';
  private readonly baseUrl: string;
  private readonly timeoutMs: number;

  constructor(private readonly options: DeepLOptions) {
    this.baseUrl = trimBase(options.baseUrl ?? deeplBaseUrl(options.apiKey));
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  async translate(
    texts: string[],
    targetLanguage: string,
    signal?: AbortSignal,
    options?: TranslateOptions,
  ): Promise<{ texts: string[]; usage: { characters: number } }> {
    const target = DEEPL_TARGET_LANGUAGES[targetLanguage.toLowerCase()];
    if (!target) throw new ProviderFailure(`deepl: unsupported target language "${targetLanguage}"`, this.provider, null);
    const out: string[] = [];
    for (const batch of batches(texts)) {
      out.push(...(await this.translateBatch(batch, target, options?.format === 'xml', signal)));
    }
    return { texts: out, usage: { characters: texts.reduce((sum, text) => sum + text.length, 0) } };
  }

  private async translateBatch(texts: string[], target: string, xml: boolean, signal?: AbortSignal): Promise<string[]> {
    const source = this.options.sourceLanguage === undefined ? 'EN' : this.options.sourceLanguage;
    const body = {
      text: texts,
      target_lang: target,
      ...(source ? { source_lang: source } : {}),
      ...(xml ? { tag_handling: 'xml', non_splitting_tags: ['x'] } : {}),
      ...(this.options.modelType ? { model_type: this.options.modelType } : {}),
    };
    const data = await requestJson({
      provider: this.provider,
      url: `${this.baseUrl}/v2/translate`,
      headers: { authorization: `DeepL-Auth-Key ${this.options.apiKey}` },
      body,
      timeoutMs: this.timeoutMs,
      signal,
      secrets: [this.options.apiKey],
      envKey: 'DEEPL_API_KEY',
      subject: '/v2/translate',
    });
    const translations = asArray(asRecord(data)?.translations);
    if (!translations) throw malformed(this.provider, 'missing translations[]');
    if (translations.length !== texts.length) {
      throw malformed(this.provider, `sent ${texts.length} texts, got ${translations.length} translations`);
    }
    return translations.map((entry, index) => {
      const text = asRecord(entry)?.text;
      if (typeof text !== 'string') throw malformed(this.provider, `translations[${index}].text is not a string`);
      return text;
    });
  }
}

function batches(texts: string[]): string[][] {
  const out: string[][] = [];
  let current: string[] = [];
  let bytes = 0;
  for (const text of texts) {
    const size = Buffer.byteLength(text, 'utf8') + 8;
    if (current.length > 0 && (current.length >= DEEPL_MAX_TEXTS || bytes + size > MAX_BATCH_BYTES)) {
      out.push(current);
      current = [];
      bytes = 0;
    }
    current.push(text);
    bytes += size;
  }
  if (current.length > 0) out.push(current);
  return out;
}
