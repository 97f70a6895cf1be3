import { AnthropicAdapter } from './anthropic.adapter';
import { describeErrorMapping } from '../../../../test/support/provider-error-contract';
import { FAKE_API_KEY, FakeProvider, startFakeProvider } from '../../../../test/fakes/fake-provider-servers';
import { EngineFailure } from '../../../domain/failures';

describe('AnthropicAdapter', () => {
  let fake: FakeProvider;
  afterEach(() => fake?.close());

  it('posts a Messages API request and maps the text and usage', async () => {
    fake = await startFakeProvider('anthropic', () => ({ text: 'Bonjour' }));
    const adapter = new AnthropicAdapter({ apiKey: FAKE_API_KEY, baseUrl: `${fake.baseUrl}/` });
    const response = await adapter.complete({
      model: 'claude-sonnet-4-5-20250929',
      system: 'You are an analyst.',
      messages: [
        { role: 'user', content: 'Hello' },
        { role: 'assistant', content: 'Hi' },
        { role: 'user', content: 'Summarise' },
      ],
      maxTokens: 300,
      temperature: 0.2,
    });
    expect(response.text).toBe('Bonjour');
    expect(response.usage.inputTokens).toBeGreaterThan(0);
    expect(response.usage.outputTokens).toBe(2);
    const [request] = fake.requests;
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/v1/messages');
    expect(request.headers['x-api-key']).toBe(FAKE_API_KEY);
    expect(request.headers['anthropic-version']).toBe('2023-06-01');
    expect(request.headers.authorization).toBeUndefined();
    expect(request.body).toEqual({
      model: 'claude-sonnet-4-5-20250929',
      max_tokens: 300,
      system: 'You are an analyst.',
      messages: [
        { role: 'user', content: 'Hello' },
        { role: 'assistant', content: 'Hi' },
        { role: 'user', content: 'Summarise' },
      ],
      temperature: 0.2,
    });
  });

  it('asks for JSON through the system prompt and sums cached input tokens', async () => {
    fake = await startFakeProvider('anthropic', () => ({
      json: {
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        content: [
          { type: 'text', text: '{"a":' },
          { type: 'text', text: '1}' },
        ],
        stop_reason: 'end_turn',
        usage: { input_tokens: 10, cache_read_input_tokens: 100, cache_creation_input_tokens: 5, output_tokens: 7 },
      },
    }));
    const adapter = new AnthropicAdapter({ apiKey: FAKE_API_KEY, baseUrl: fake.baseUrl });
    const response = await adapter.complete({
      model: 'claude-haiku-4-5-20251001',
      messages: [{ role: 'user', content: 'x' }],
      maxTokens: 50,
      json: true,
    });
    expect(response).toEqual({ text: '{"a":1}', usage: { inputTokens: 115, outputTokens: 7 } });
    const body = fake.requests[0].body as { system: string; temperature?: number };
    expect(body.system).toMatch(/JSON object/);
    expect(body).not.toHaveProperty('temperature');
  });

  it('maps web search tool results to search results with snippets from citations', async () => {
    fake = await startFakeProvider('anthropic');
    const adapter = new AnthropicAdapter({ apiKey: FAKE_API_KEY, baseUrl: fake.baseUrl });
    const { results, usage } = await adapter.search('AMLR application date', { maxResults: 2 });
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
    const body = fake.requests[0].body as { model: string; tools: unknown[] };
    expect(body.model).toBe('claude-haiku-4-5-20251001');
    expect(body.tools).toEqual([{ type: 'web_search_20250305', name: 'web_search', max_uses: 1 }]);
  });

  it('a 400 from the API is an EngineFailure carrying its message', async () => {
    fake = await startFakeProvider('anthropic');
    const adapter = new AnthropicAdapter({ apiKey: FAKE_API_KEY, baseUrl: fake.baseUrl });
    const error = await adapter
      .complete({ model: 'claude-haiku-4-5-20251001', messages: [{ role: 'user', content: 'x' }], maxTokens: 50, temperature: 1.5 })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(EngineFailure);
    expect((error as Error).message).toMatch(/HTTP 400.*temperature/);
  });

  it('a 2xx without content[] is an EngineFailure', async () => {
    fake = await startFakeProvider('anthropic', () => ({ json: { type: 'message', usage: {} } }));
    const adapter = new AnthropicAdapter({ apiKey: FAKE_API_KEY, baseUrl: fake.baseUrl });
    await expect(adapter.complete({ model: 'm', messages: [{ role: 'user', content: 'x' }], maxTokens: 5 })).rejects.toThrow(
      /malformed response/,
    );
  });

  describeErrorMapping('anthropic', (settings, signal) =>
    new AnthropicAdapter(settings).complete(
      { model: 'claude-haiku-4-5-20251001', messages: [{ role: 'user', content: 'hi' }], maxTokens: 10 },
      signal,
    ),
  );
});
