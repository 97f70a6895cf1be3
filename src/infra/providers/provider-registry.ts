import type { AppConfig, OpenAiCompatibleSettings } from '../../config/app-config';
import { AnthropicAdapter } from './llm/anthropic.adapter';
import { CohereAdapter } from './llm/cohere.adapter';
import { DeepLAdapter } from './translation/deepl.adapter';
import { DirectFetchAdapter } from './fetch/direct-fetch.adapter';
import { ReaderFetchAdapter } from './fetch/reader-fetch.adapter';
import { GeminiAdapter } from './llm/gemini.adapter';
import { OpenAiAdapter } from './llm/openai.adapter';
import { OpenAiCompatibleAdapter } from './llm/openai-compatible.adapter';
import { PerplexityAdapter } from './llm/perplexity.adapter';
import { NotebookJobsAdapter } from './notebook/notebook-jobs.adapter';
import { GeminiImageAdapter } from './image/gemini-image.adapter';
import { OpenAiImageAdapter } from './image/openai-image.adapter';
import type { FetchPort, ImagePort, LlmPort, NotebookPort, SearchPort, TranslationPort, VoicePort } from './ports';
import { ElevenLabsVoiceAdapter } from './voice/elevenlabs-voice.adapter';

export type ProvidersConfig = AppConfig['providers'];

export interface ProviderRegistryOptions {
  /** Per-request timeout for every adapter (default 60 s). */
  timeoutMs?: number;
  /** fetch-b reader service; both optional (default: the public reader, no key). */
  readerBaseUrl?: string;
  readerApiKey?: string;
  /** Lets fetch-a reach loopback and private addresses (tests only). */
  allowPrivateNetwork?: boolean;
  /** Egress proxy for fetch-a page fetches (FETCH_PROXY_URL). */
  fetchProxyUrl?: string;
  /** DeepL model_type; omitted: DeepL's default. */
  deeplModelType?: string;
  /** A self-hosted OpenAI-compatible endpoint (OPENAI_COMPATIBLE_*), served as provider `openai-compatible`. */
  openaiCompatible?: OpenAiCompatibleSettings;
}

export interface ProviderRegistry {
  /** anthropic, openai, gemini, cohere, perplexity, openai-compatible; null when that provider is not configured or is not an LLM. */
  llm(providerKey: string): LlmPort | null;
  /** perplexity (Sonar), gemini (Google Search grounding), anthropic (web search tool); null otherwise. */
  search(providerKey: string): SearchPort | null;
  /** DeepL when DEEPL_API_KEY is set. */
  translation(): TranslationPort | null;
  fetch(name: 'fetch-a' | 'fetch-b'): FetchPort;
  /** Text to speech for voice exports; credentials come from the account's integration, per call. */
  voice(): VoicePort;
  /** Notebook generation jobs; credentials come from the account's integration, per call. */
  notebook(): NotebookPort;
  /** Image generation for image exports: openai (Images API), gemini (image models); null when that key is unset. */
  image(providerKey: string): ImagePort | null;
  isConfigured(providerKey: string): boolean;
}

type LlmAndMaybeSearch = LlmPort & Partial<SearchPort>;

export function createProviderRegistry(config: ProvidersConfig, options: ProviderRegistryOptions = {}): ProviderRegistry {
  const cache = new Map<string, unknown>();
  const once = <T>(key: string, build: () => T): T => {
    if (!cache.has(key)) cache.set(key, build());
    return cache.get(key) as T;
  };
  const credentials = (key: string): { apiKey: string; baseUrl?: string; timeoutMs?: number } | null => {
    const entry = (config as Partial<Record<string, { apiKey: string | undefined; baseUrl: string | undefined }>>)[key];
    const apiKey = entry?.apiKey?.trim();
    if (!apiKey) return null;
    return { apiKey, baseUrl: entry?.baseUrl, timeoutMs: options.timeoutMs };
  };
  const llmBuilders: Record<string, (settings: { apiKey: string; baseUrl?: string; timeoutMs?: number }) => LlmAndMaybeSearch> = {
    anthropic: (settings) => new AnthropicAdapter(settings),
    openai: (settings) => new OpenAiAdapter(settings),
    gemini: (settings) => new GeminiAdapter(settings),
    cohere: (settings) => new CohereAdapter(settings),
    perplexity: (settings) => new PerplexityAdapter(settings),
  };
  const compatible = options.openaiCompatible;
  const llm = (providerKey: string): LlmAndMaybeSearch | null => {
    // Configured by its base URL, not by a key: many local servers need none.
    if (providerKey === 'openai-compatible') {
      return compatible ? once(providerKey, () => new OpenAiCompatibleAdapter({ ...compatible, timeoutMs: options.timeoutMs })) : null;
    }
    const build = Object.hasOwn(llmBuilders, providerKey) ? llmBuilders[providerKey] : undefined;
    const settings = credentials(providerKey);
    if (!build || !settings) return null;
    return once(providerKey, () => build(settings));
  };

  return {
    llm,
    search(providerKey) {
      const adapter = llm(providerKey);
      return adapter && typeof adapter.search === 'function' ? (adapter as LlmPort & SearchPort) : null;
    },
    translation() {
      const settings = credentials('deepl');
      return settings ? once('deepl', () => new DeepLAdapter({ ...settings, modelType: options.deeplModelType })) : null;
    },
    fetch(name) {
      if (name === 'fetch-b') {
        return once(
          'fetch-b',
          () => new ReaderFetchAdapter({ baseUrl: options.readerBaseUrl, apiKey: options.readerApiKey, timeoutMs: options.timeoutMs }),
        );
      }
      return once(
        'fetch-a',
        () =>
          new DirectFetchAdapter({
            timeoutMs: options.timeoutMs,
            allowPrivateNetwork: options.allowPrivateNetwork,
            proxyUrl: options.fetchProxyUrl,
          }),
      );
    },
    voice() {
      return once('voice', () => new ElevenLabsVoiceAdapter());
    },
    notebook() {
      return once('notebook', () => new NotebookJobsAdapter());
    },
    image(providerKey) {
      const settings = credentials(providerKey);
      if (!settings) return null;
      if (providerKey === 'openai') return once('image:openai', () => new OpenAiImageAdapter(settings));
      if (providerKey === 'gemini') return once('image:gemini', () => new GeminiImageAdapter(settings));
      return null;
    },
    isConfigured(providerKey) {
      if (providerKey === 'openai-compatible') return compatible !== undefined;
      return credentials(providerKey) !== null;
    },
  };
}
