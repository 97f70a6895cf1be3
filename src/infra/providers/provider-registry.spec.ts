import { AnthropicAdapter } from './llm/anthropic.adapter';
import { DeepLAdapter } from './translation/deepl.adapter';
import { FAKE_API_KEY, FakeProvider, startFakeProvider } from '../../../test/fakes/fake-provider-servers';
import { DirectFetchAdapter } from './fetch/direct-fetch.adapter';
import { ReaderFetchAdapter } from './fetch/reader-fetch.adapter';
import { GeminiAdapter } from './llm/gemini.adapter';
import { OpenAiCompatibleAdapter } from './llm/openai-compatible.adapter';
import { PerplexityAdapter } from './llm/perplexity.adapter';
import { ProvidersConfig, createProviderRegistry } from './provider-registry';

const none = { apiKey: undefined, baseUrl: undefined };
const unconfigured: ProvidersConfig = { anthropic: none, openai: none, gemini: none, deepl: none, cohere: none, perplexity: none };

describe('createProviderRegistry', () => {
  it('returns null for providers without an API key', () => {
    const registry = createProviderRegistry({ ...unconfigured, openai: { apiKey: '   ', baseUrl: undefined } });
    for (const key of ['anthropic', 'openai', 'gemini', 'cohere', 'perplexity', 'deepl', 'openai-compatible', 'offline', 'nope', '__proto__']) {
      expect(registry.llm(key)).toBeNull();
      expect(registry.search(key)).toBeNull();
      expect(registry.isConfigured(key)).toBe(false);
    }
    expect(registry.translation()).toBeNull();
  });

  it('serves a self-hosted endpoint as openai-compatible, configured by its base URL alone, without search', () => {
    const registry = createProviderRegistry(unconfigured, {
      openaiCompatible: {
        baseUrl: 'http://127.0.0.1:11434/v1',
        apiKey: undefined,
        apiStyle: 'openai',
        apiVersion: '2024-10-21',
        label: 'Ollama',
        models: { large: 'llama3.3:70b' },
        inputCentsPer1k: 0,
        outputCentsPer1k: 0,
      },
    });
    expect(registry.isConfigured('openai-compatible')).toBe(true);
    expect(registry.llm('openai-compatible')).toBeInstanceOf(OpenAiCompatibleAdapter);
    expect(registry.llm('openai-compatible')).toBe(registry.llm('openai-compatible'));
    expect(registry.search('openai-compatible')).toBeNull();
    expect(registry.isConfigured('openai')).toBe(false);
  });

  it('builds each configured adapter once', () => {
    const key = { apiKey: 'k', baseUrl: undefined };
    const registry = createProviderRegistry({ anthropic: key, openai: key, gemini: key, deepl: key, cohere: key, perplexity: key });
    expect(registry.llm('anthropic')).toBeInstanceOf(AnthropicAdapter);
    expect(registry.llm('anthropic')).toBe(registry.llm('anthropic'));
    expect(['openai', 'gemini', 'cohere', 'perplexity'].map((name) => registry.llm(name)?.provider)).toEqual([
      'openai',
      'gemini',
      'cohere',
      'perplexity',
    ]);
    expect(registry.llm('deepl')).toBeNull();
    expect(registry.search('perplexity')).toBeInstanceOf(PerplexityAdapter);
    expect(registry.search('gemini')).toBeInstanceOf(GeminiAdapter);
    expect(registry.search('anthropic')).toBeInstanceOf(AnthropicAdapter);
    expect(registry.search('openai')).toBeNull();
    expect(registry.search('cohere')).toBeNull();
    expect(registry.translation()).toBeInstanceOf(DeepLAdapter);
    expect(registry.fetch('fetch-a')).toBeInstanceOf(DirectFetchAdapter);
    expect(registry.fetch('fetch-b')).toBeInstanceOf(ReaderFetchAdapter);
    expect(registry.fetch('fetch-b').provider).toBe('fetch-b');
  });

  describe('against fakes', () => {
    let perplexity: FakeProvider;
    let reader: FakeProvider;
    beforeAll(async () => {
      [perplexity, reader] = await Promise.all([startFakeProvider('perplexity'), startFakeProvider('reader')]);
    });
    afterAll(() => Promise.all([perplexity.close(), reader.close()]));

    it('uses the configured base URL and the reader options', async () => {
      const registry = createProviderRegistry(
        { ...unconfigured, perplexity: { apiKey: FAKE_API_KEY, baseUrl: perplexity.baseUrl } },
        { readerBaseUrl: reader.baseUrl },
      );
      const { results } = await registry.search('perplexity')!.search('q', { maxResults: 1 });
      expect(results).toHaveLength(1);
      const page = await registry.fetch('fetch-b').fetch('https://example.org/x');
      expect(page.title).toBe('Page at /x');
      expect(perplexity.requests).toHaveLength(1);
      expect(reader.requests).toHaveLength(1);
    });

    it('sends fetch-a page requests through fetchProxyUrl', async () => {
      const proxy = await startFakeProvider('web');
      try {
        const registry = createProviderRegistry(unconfigured, { fetchProxyUrl: proxy.baseUrl, timeoutMs: 2000 });
        await registry.fetch('fetch-a').fetch('http://regulator.example/page');
        expect(proxy.requests.map((request) => request.path)).toEqual(['http://regulator.example/page']);
      } finally {
        await proxy.close();
      }
    });
  });
});
