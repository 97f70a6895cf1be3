import { describeErrorMapping } from '../../../../test/support/provider-error-contract';
import { FAKE_API_KEY, FakeProvider, startFakeProvider } from '../../../../test/fakes/fake-provider-servers';
import { PerplexityAdapter } from './perplexity.adapter';

describe('PerplexityAdapter', () => {
  let fake: FakeProvider;
  afterEach(() => fake?.close());

  it('search posts a sonar chat completion and maps search_results', async () => {
    fake = await startFakeProvider('perplexity');
    const adapter = new PerplexityAdapter({ apiKey: FAKE_API_KEY, baseUrl: fake.baseUrl });
    const { results, usage } = await adapter.search('DORA register of information deadline', { maxResults: 2 });
    expect(results).toEqual([
      {
        url: 'https://regulator.example/press/2025-01',
        title: 'Regulator publishes final rules',
        snippet: 'The final rules apply from 1 July 2026.',
        publishedAt: '2025-01-15',
      },
      {
        url: 'https://journal.example/l/2024-1624',
        title: 'Official Journal: Regulation 2024/1624',
        snippet: 'Regulation (EU) 2024/1624 of the European Parliament.',
        publishedAt: '2024-06-19',
      },
    ]);
    expect(usage.requests).toBe(1);
    expect(usage.inputTokens).toBeGreaterThan(0);
    expect(usage.outputTokens).toBeGreaterThan(0);
    const [request] = fake.requests;
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/chat/completions');
    expect(request.headers.authorization).toBe(`Bearer ${FAKE_API_KEY}`);
    const body = request.body as { model: string; messages: Array<{ role: string; content: string }>; max_tokens: number };
    expect(body.model).toBe('sonar');
    expect(body.messages.map((message) => message.role)).toEqual(['system', 'user']);
    expect(body.messages[1].content).toBe('DORA register of information deadline');
    expect(body.max_tokens).toBeGreaterThan(0);
  });

  it('falls back to bare citations when search_results is absent', async () => {
    fake = await startFakeProvider('perplexity', () => ({
      json: {
        choices: [{ index: 0, message: { role: 'assistant', content: 'See [1][2].' } }],
        citations: ['https://www.esma.europa.eu/a', 'https://www.esma.europa.eu/a', 'https://eur-lex.europa.eu/b'],
        usage: { prompt_tokens: 4, completion_tokens: 6 },
      },
    }));
    const adapter = new PerplexityAdapter({ apiKey: FAKE_API_KEY, baseUrl: fake.baseUrl });
    const { results, usage } = await adapter.search('q', { maxResults: 10, model: 'sonar-pro' });
    expect(results).toEqual([
      { url: 'https://www.esma.europa.eu/a', title: 'www.esma.europa.eu', snippet: '' },
      { url: 'https://eur-lex.europa.eu/b', title: 'eur-lex.europa.eu', snippet: '' },
    ]);
    expect(usage).toEqual({ requests: 1, inputTokens: 4, outputTokens: 6 });
    expect((fake.requests[0].body as { model: string }).model).toBe('sonar-pro');
  });

  it('complete returns the answer without a reasoning model <think> block', async () => {
    fake = await startFakeProvider('perplexity', () => ({ text: '<think>private reasoning</think>\n{"ok":true}' }));
    const adapter = new PerplexityAdapter({ apiKey: FAKE_API_KEY, baseUrl: fake.baseUrl });
    const response = await adapter.complete({
      model: 'sonar-reasoning-pro',
      system: 'Analyse.',
      messages: [{ role: 'user', content: 'x' }],
      maxTokens: 500,
      json: true,
    });
    expect(response.text).toBe('{"ok":true}');
    expect(response.usage.outputTokens).toBeGreaterThan(0);
    const body = fake.requests[0].body as { messages: Array<{ role: string; content: string }>; max_tokens: number };
    expect(body.messages[0]).toEqual({ role: 'system', content: expect.stringMatching(/^Analyse\.[\s\S]*JSON/) });
    expect(body.max_tokens).toBe(500);
  });

  it('an unknown model is an EngineFailure with the API message', async () => {
    fake = await startFakeProvider('perplexity');
    const adapter = new PerplexityAdapter({ apiKey: FAKE_API_KEY, baseUrl: fake.baseUrl });
    await expect(adapter.search('q', { maxResults: 3, model: 'sonar-ultra' })).rejects.toThrow(/HTTP 400.*Invalid model/);
  });

  describeErrorMapping('perplexity', (settings, signal) => new PerplexityAdapter(settings).search('q', { maxResults: 3 }, signal));
});
