import { CohereAdapter } from './cohere.adapter';
import { describeErrorMapping } from '../../../../test/support/provider-error-contract';
import { FAKE_API_KEY, FakeProvider, startFakeProvider } from '../../../../test/fakes/fake-provider-servers';

describe('CohereAdapter', () => {
  let fake: FakeProvider;
  afterEach(() => fake?.close());

  it('posts to /v2/chat with the system message as role system and maps billed usage', async () => {
    fake = await startFakeProvider('cohere', () => ({ text: 'Hola' }));
    const adapter = new CohereAdapter({ apiKey: FAKE_API_KEY, baseUrl: fake.baseUrl });
    const response = await adapter.complete({
      model: 'command-a-03-2025',
      system: 'Be precise.',
      messages: [{ role: 'user', content: 'Hello' }],
      maxTokens: 120,
      temperature: 0.3,
      json: true,
    });
    expect(response.text).toBe('Hola');
    const [request] = fake.requests;
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/v2/chat');
    expect(request.headers.authorization).toBe(`Bearer ${FAKE_API_KEY}`);
    expect(request.body).toEqual({
      model: 'command-a-03-2025',
      messages: [
        { role: 'system', content: 'Be precise.' },
        { role: 'user', content: 'Hello' },
      ],
      max_tokens: 120,
      temperature: 0.3,
      response_format: { type: 'json_object' },
    });
    // billed_units (what is charged), not the raw token counts
    const input = Math.ceil(JSON.stringify((request.body as { messages: unknown }).messages).length / 4);
    expect(response.usage).toEqual({ inputTokens: input, outputTokens: 1 });
  });

  it('ignores thinking parts and falls back to usage.tokens', async () => {
    fake = await startFakeProvider('cohere', () => ({
      json: {
        id: 'x',
        finish_reason: 'COMPLETE',
        message: {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'hmm' },
            { type: 'text', text: 'answer' },
          ],
        },
        usage: { tokens: { input_tokens: 11, output_tokens: 22 } },
      },
    }));
    const adapter = new CohereAdapter({ apiKey: FAKE_API_KEY, baseUrl: fake.baseUrl });
    const response = await adapter.complete({
      model: 'command-a-reasoning-08-2025',
      messages: [{ role: 'user', content: 'x' }],
      maxTokens: 100,
    });
    expect(response).toEqual({ text: 'answer', usage: { inputTokens: 11, outputTokens: 22 } });
  });

  it('a body without message.content is an EngineFailure', async () => {
    fake = await startFakeProvider('cohere', () => ({ json: { id: 'x', usage: {} } }));
    const adapter = new CohereAdapter({ apiKey: FAKE_API_KEY, baseUrl: fake.baseUrl });
    await expect(
      adapter.complete({ model: 'command-r7b-12-2024', messages: [{ role: 'user', content: 'x' }], maxTokens: 10 }),
    ).rejects.toThrow(/malformed/);
  });

  describeErrorMapping('cohere', (settings, signal) =>
    new CohereAdapter(settings).complete(
      { model: 'command-r7b-12-2024', messages: [{ role: 'user', content: 'hi' }], maxTokens: 10 },
      signal,
    ),
  );
});
