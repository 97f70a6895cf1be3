import { type FakeOpenAiCompatible, startFakeOpenAiCompatible } from '../../../../test/fakes/fake-openai-compatible';
import { ProviderFailure } from '../provider-errors';
import { OpenAiCompatibleAdapter } from './openai-compatible.adapter';

describe('OpenAiCompatibleAdapter', () => {
  let fake: FakeOpenAiCompatible;
  afterEach(() => fake?.close());

  const ask = { model: 'llama3.1:8b', system: 'Be brief.', messages: [{ role: 'user' as const, content: 'Hello' }], maxTokens: 300 };

  it('posts Chat Completions under the base URL without credentials when none are set, and maps text and usage', async () => {
    fake = await startFakeOpenAiCompatible({ models: ['llama3.1:8b'] }, () => 'Bonjour');
    const adapter = new OpenAiCompatibleAdapter({ baseUrl: `${fake.baseUrl}/` });
    const response = await adapter.complete({ ...ask, temperature: 0.2 });
    expect(response).toEqual({ text: 'Bonjour', usage: { inputTokens: fake.replies[0].usage!.prompt_tokens, outputTokens: 1 } });
    const [request] = fake.requests;
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/v1/chat/completions');
    expect(request.headers).not.toHaveProperty('authorization');
    expect(request.body).toEqual({
      model: 'llama3.1:8b',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hello' },
      ],
      max_tokens: 300,
      temperature: 0.2,
    });
  });

  it('sends the key as a Bearer token when one is set, and names the variable when it is refused', async () => {
    fake = await startFakeOpenAiCompatible({ models: ['m'], apiKey: 'local-secret' });
    await new OpenAiCompatibleAdapter({ baseUrl: fake.baseUrl, apiKey: 'local-secret' }).complete({ ...ask, model: 'm' });
    expect(fake.requests[0].headers.authorization).toBe('Bearer local-secret');
    const refused = new OpenAiCompatibleAdapter({ baseUrl: fake.baseUrl, apiKey: 'wrong-secret' }).complete({ ...ask, model: 'm' });
    await expect(refused).rejects.toThrow(/openai-compatible rejected the API key.*OPENAI_COMPATIBLE_API_KEY/);
  });

  it('asks for json_object mode, and once the server refuses it, goes on without it (the prompt still asks for JSON)', async () => {
    fake = await startFakeOpenAiCompatible({ models: ['m'], refuseJsonMode: true }, () => '{"ok":true}');
    const adapter = new OpenAiCompatibleAdapter({ baseUrl: fake.baseUrl });
    expect((await adapter.complete({ ...ask, model: 'm', json: true })).text).toBe('{"ok":true}');
    expect((await adapter.complete({ ...ask, model: 'm', json: true })).text).toBe('{"ok":true}');
    const bodies = fake.requests.map((request) => request.body as { response_format?: unknown; messages: Array<{ content: string }> });
    expect(bodies.map((body) => body.response_format)).toEqual([{ type: 'json_object' }, undefined, undefined]);
    expect(fake.replies.map((reply) => reply.status)).toEqual([400, 200, 200]);
    for (const body of bodies) expect(body.messages[0].content).toMatch(/single valid JSON object/);
  });

  it('keeps json_object mode for servers that take it', async () => {
    fake = await startFakeOpenAiCompatible({ models: ['m'] });
    const adapter = new OpenAiCompatibleAdapter({ baseUrl: fake.baseUrl });
    await adapter.complete({ ...ask, model: 'm', json: true });
    await adapter.complete({ ...ask, model: 'm', json: true });
    expect(fake.requests.map((request) => (request.body as { response_format?: unknown }).response_format)).toEqual([
      { type: 'json_object' },
      { type: 'json_object' },
    ]);
  });

  it('does not retry other refusals without JSON mode', async () => {
    fake = await startFakeOpenAiCompatible({ models: ['m'] });
    const adapter = new OpenAiCompatibleAdapter({ baseUrl: fake.baseUrl });
    await expect(adapter.complete({ ...ask, model: 'unknown-model', json: true })).rejects.toThrow(ProviderFailure);
    await expect(adapter.complete({ ...ask, model: 'unknown-model', json: true })).rejects.toThrow(/HTTP 404 for model unknown-model/);
    expect(fake.requests).toHaveLength(2);
  });

  it('estimates usage from the characters when the server reports none', async () => {
    fake = await startFakeOpenAiCompatible({ models: ['m'], omitUsage: true }, () => 'x'.repeat(41));
    const response = await new OpenAiCompatibleAdapter({ baseUrl: fake.baseUrl }).complete({ ...ask, model: 'm' });
    // 'Be brief.' + 'Hello' = 14 characters -> 4 tokens; 41 characters -> 11 tokens.
    expect(response.usage).toEqual({ inputTokens: 4, outputTokens: 11 });
  });

  it('speaks Azure OpenAI: the deployment in the path, the api-version query and the api-key header', async () => {
    fake = await startFakeOpenAiCompatible({ style: 'azure', models: ['gpt-4o-eu'], apiKey: 'azure-key', apiVersion: '2024-10-21' }, () => 'ok');
    const adapter = new OpenAiCompatibleAdapter({ baseUrl: fake.baseUrl, apiKey: 'azure-key', apiStyle: 'azure', apiVersion: '2024-10-21' });
    expect((await adapter.complete({ ...ask, model: 'gpt-4o-eu' })).text).toBe('ok');
    const [request] = fake.requests;
    expect(request.path).toBe('/openai/deployments/gpt-4o-eu/chat/completions?api-version=2024-10-21');
    expect(request.headers['api-key']).toBe('azure-key');
    expect(request.headers).not.toHaveProperty('authorization');
  });
});
