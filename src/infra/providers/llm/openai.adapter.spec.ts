import { describeErrorMapping } from '../../../../test/support/provider-error-contract';
import { FAKE_API_KEY, FakeProvider, startFakeProvider } from '../../../../test/fakes/fake-provider-servers';
import { OpenAiAdapter } from './openai.adapter';
import { EngineFailure } from '../../../domain/failures';

describe('OpenAiAdapter', () => {
  let fake: FakeProvider;
  afterEach(() => fake?.close());

  it('posts a chat completion with the system message first and maps text and usage', async () => {
    fake = await startFakeProvider('openai', () => ({ text: 'Réponse' }));
    const adapter = new OpenAiAdapter({ apiKey: FAKE_API_KEY, baseUrl: fake.baseUrl });
    const response = await adapter.complete({
      model: 'gpt-5-mini-2025-08-07',
      system: 'Be brief.',
      messages: [{ role: 'user', content: 'Hello' }],
      maxTokens: 400,
      temperature: 0.3,
    });
    expect(response.text).toBe('Réponse');
    expect(response.usage.inputTokens).toBeGreaterThan(0);
    expect(response.usage.outputTokens).toBe(2);
    const [request] = fake.requests;
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/v1/chat/completions');
    expect(request.headers.authorization).toBe(`Bearer ${FAKE_API_KEY}`);
    expect(request.headers['content-type']).toBe('application/json');
    // gpt-5 models only take the default temperature, so it is left out.
    expect(request.body).toEqual({
      model: 'gpt-5-mini-2025-08-07',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hello' },
      ],
      max_completion_tokens: 400,
    });
  });

  it('sends temperature to non-reasoning models and json_object mode with a JSON instruction', async () => {
    fake = await startFakeProvider('openai');
    const adapter = new OpenAiAdapter({ apiKey: FAKE_API_KEY, baseUrl: fake.baseUrl });
    const response = await adapter.complete({
      model: 'gpt-4.1',
      messages: [{ role: 'user', content: 'List risks' }],
      maxTokens: 100,
      temperature: 0.1,
      json: true,
    });
    expect(JSON.parse(response.text)).toEqual({ echo: 'List risks' });
    const body = fake.requests[0].body as Record<string, unknown>;
    expect(body.temperature).toBe(0.1);
    expect(body.response_format).toEqual({ type: 'json_object' });
    expect((body.messages as Array<{ role: string; content: string }>)[0]).toEqual({
      role: 'system',
      content: expect.stringMatching(/JSON/),
    });
  });

  it('routes pro models to the Responses API', async () => {
    fake = await startFakeProvider('openai', () => ({ text: 'deep answer' }));
    const adapter = new OpenAiAdapter({ apiKey: FAKE_API_KEY, baseUrl: fake.baseUrl });
    const response = await adapter.complete({
      model: 'gpt-5-pro-2025-10-06',
      system: 'S',
      messages: [{ role: 'user', content: 'Q' }],
      maxTokens: 2000,
    });
    expect(response.text).toBe('deep answer');
    expect(response.usage.outputTokens).toBeGreaterThan(0);
    const [request] = fake.requests;
    expect(request.path).toBe('/v1/responses');
    expect(request.body).toEqual({
      model: 'gpt-5-pro-2025-10-06',
      instructions: 'S',
      input: [{ role: 'user', content: 'Q' }],
      max_output_tokens: 2000,
    });
  });

  it('an empty answer cut off by the token limit is an EngineFailure saying so', async () => {
    fake = await startFakeProvider('openai', () => ({
      json: {
        choices: [{ index: 0, message: { role: 'assistant', content: '', refusal: null }, finish_reason: 'length' }],
        usage: { prompt_tokens: 5, completion_tokens: 100 },
      },
    }));
    const adapter = new OpenAiAdapter({ apiKey: FAKE_API_KEY, baseUrl: fake.baseUrl });
    await expect(
      adapter.complete({ model: 'gpt-5-nano-2025-08-07', messages: [{ role: 'user', content: 'x' }], maxTokens: 100 }),
    ).rejects.toThrow(/max_completion_tokens/);
  });

  it('a response without choices is an EngineFailure', async () => {
    fake = await startFakeProvider('openai', () => ({ json: { object: 'chat.completion', usage: {} } }));
    const adapter = new OpenAiAdapter({ apiKey: FAKE_API_KEY, baseUrl: fake.baseUrl });
    const error = await adapter
      .complete({ model: 'gpt-4.1', messages: [{ role: 'user', content: 'x' }], maxTokens: 10 })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(EngineFailure);
    expect((error as Error).message).toMatch(/malformed response/);
  });

  it('an unknown model (404) is an EngineFailure that names the model', async () => {
    fake = await startFakeProvider('openai', () => ({
      status: 404,
      json: { error: { message: 'The model `gpt-9` does not exist', type: 'invalid_request_error', code: 'model_not_found' } },
    }));
    const adapter = new OpenAiAdapter({ apiKey: FAKE_API_KEY, baseUrl: fake.baseUrl });
    await expect(adapter.complete({ model: 'gpt-9', messages: [{ role: 'user', content: 'x' }], maxTokens: 10 })).rejects.toThrow(
      /404 for model gpt-9.*does not exist/,
    );
  });

  describeErrorMapping('openai', (settings, signal) =>
    new OpenAiAdapter(settings).complete(
      { model: 'gpt-5-nano-2025-08-07', messages: [{ role: 'user', content: 'hi' }], maxTokens: 10 },
      signal,
    ),
  );
});
