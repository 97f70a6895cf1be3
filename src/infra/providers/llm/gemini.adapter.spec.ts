import { describeErrorMapping } from '../../../../test/support/provider-error-contract';
import { FAKE_API_KEY, FakeProvider, startFakeProvider } from '../../../../test/fakes/fake-provider-servers';
import { GeminiAdapter } from './gemini.adapter';
import { EngineFailure } from '../../../domain/failures';

describe('GeminiAdapter', () => {
  let fake: FakeProvider;
  afterEach(() => fake?.close());

  it('posts generateContent with the key header and maps text and usage (thinking counted as output)', async () => {
    fake = await startFakeProvider('gemini', () => ({ text: 'Hallo' }));
    const adapter = new GeminiAdapter({ apiKey: FAKE_API_KEY, baseUrl: fake.baseUrl });
    const response = await adapter.complete({
      model: 'gemini-2.5-flash',
      system: 'You are terse.',
      messages: [
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Hello' },
        { role: 'user', content: 'Translate' },
      ],
      maxTokens: 256,
      temperature: 0.4,
      json: true,
    });
    expect(response.text).toBe('Hallo');
    // candidatesTokenCount 2 + thoughtsTokenCount 10
    expect(response.usage.outputTokens).toBe(12);
    expect(response.usage.inputTokens).toBeGreaterThan(0);
    const [request] = fake.requests;
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/v1beta/models/gemini-2.5-flash:generateContent');
    expect(request.headers['x-goog-api-key']).toBe(FAKE_API_KEY);
    expect(request.path).not.toContain('key=');
    expect(request.body).toEqual({
      systemInstruction: { parts: [{ text: 'You are terse.' }] },
      contents: [
        { role: 'user', parts: [{ text: 'Hi' }] },
        { role: 'model', parts: [{ text: 'Hello' }] },
        { role: 'user', parts: [{ text: 'Translate' }] },
      ],
      generationConfig: { maxOutputTokens: 256, temperature: 0.4, responseMimeType: 'application/json' },
    });
  });

  it('skips thought parts and explains an empty MAX_TOKENS answer', async () => {
    fake = await startFakeProvider('gemini', () => ({
      json: {
        candidates: [{ content: { role: 'model', parts: [{ text: 'thinking...', thought: true }] }, finishReason: 'MAX_TOKENS' }],
        usageMetadata: { promptTokenCount: 3, thoughtsTokenCount: 64 },
      },
    }));
    const adapter = new GeminiAdapter({ apiKey: FAKE_API_KEY, baseUrl: fake.baseUrl });
    const error = await adapter
      .complete({ model: 'gemini-2.5-pro', messages: [{ role: 'user', content: 'x' }], maxTokens: 64 })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(EngineFailure);
    expect((error as Error).message).toMatch(/MAX_TOKENS.*maxOutputTokens \(64\)/);
  });

  it('a blocked prompt is an EngineFailure naming the block reason', async () => {
    fake = await startFakeProvider('gemini', () => ({
      json: { promptFeedback: { blockReason: 'SAFETY' }, usageMetadata: { promptTokenCount: 3 } },
    }));
    const adapter = new GeminiAdapter({ apiKey: FAKE_API_KEY, baseUrl: fake.baseUrl });
    await expect(
      adapter.complete({ model: 'gemini-2.5-flash', messages: [{ role: 'user', content: 'x' }], maxTokens: 10 }),
    ).rejects.toThrow(/blocked.*SAFETY/);
  });

  it('search uses Google Search grounding and maps grounding chunks with their supporting segments', async () => {
    fake = await startFakeProvider('gemini');
    const adapter = new GeminiAdapter({ apiKey: FAKE_API_KEY, baseUrl: fake.baseUrl });
    const { results, usage } = await adapter.search('MiCA stablecoin rules', { maxResults: 5 });
    expect(results).toHaveLength(3);
    expect(results[0]).toEqual({
      url: 'https://regulator.example/press/2025-01',
      title: 'regulator.example',
      snippet: 'The final rules apply from 1 July 2026.',
    });
    expect(usage.requests).toBe(1);
    expect(usage.outputTokens).toBeGreaterThan(0);
    const [request] = fake.requests;
    expect(request.path).toBe('/v1beta/models/gemini-2.5-flash:generateContent');
    expect((request.body as { tools: unknown }).tools).toEqual([{ google_search: {} }]);
  });

  describeErrorMapping('gemini', (settings, signal) =>
    new GeminiAdapter(settings).complete(
      { model: 'gemini-2.5-flash-lite', messages: [{ role: 'user', content: 'hi' }], maxTokens: 10 },
      signal,
    ),
  );
});
