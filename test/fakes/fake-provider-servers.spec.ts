import { FAKE_API_KEY, FakeKind, FakeProvider, startFakeProvider } from './fake-provider-servers';

async function post(
  fake: FakeProvider,
  path: string,
  headers: Record<string, string>,
  body: unknown,
): Promise<{ status: number; json: unknown }> {
  const response = await fetch(`${fake.baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: await response.json() };
}

describe('fake provider servers', () => {
  const fakes: FakeProvider[] = [];
  const start = async (kind: FakeKind): Promise<FakeProvider> => {
    const fake = await startFakeProvider(kind);
    fakes.push(fake);
    return fake;
  };
  afterEach(async () => {
    await Promise.all(fakes.splice(0).map((fake) => fake.close()));
  });

  it('listen on loopback and record requests', async () => {
    const fake = await start('cohere');
    expect(fake.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    await post(fake, '/v2/chat', { authorization: `Bearer ${FAKE_API_KEY}` }, { model: 'm', messages: [{ role: 'user', content: 'x' }] });
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]).toMatchObject({ method: 'POST', path: '/v2/chat', body: { model: 'm' } });
  });

  it('reject what the real APIs reject', async () => {
    const anthropic = await start('anthropic');
    const message = { model: 'm', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] };
    expect((await post(anthropic, '/v1/messages', { 'x-api-key': FAKE_API_KEY }, message)).status).toBe(400);
    expect((await post(anthropic, '/v1/messages', { 'anthropic-version': '2023-06-01' }, message)).status).toBe(401);
    expect(
      (
        await post(
          anthropic,
          '/v1/messages',
          { 'x-api-key': FAKE_API_KEY, 'anthropic-version': '2023-06-01' },
          { ...message, max_completion_tokens: 5 },
        )
      ).status,
    ).toBe(400);
    expect((await post(anthropic, '/v1/complete', { 'x-api-key': FAKE_API_KEY, 'anthropic-version': '2023-06-01' }, message)).status).toBe(
      404,
    );

    const openai = await start('openai');
    const auth = { authorization: `Bearer ${FAKE_API_KEY}` };
    const chat = { model: 'gpt-5-mini', messages: [{ role: 'user', content: 'x' }] };
    expect((await post(openai, '/v1/chat/completions', auth, { ...chat, temperature: 0.2 })).status).toBe(400);
    expect((await post(openai, '/v1/chat/completions', auth, { ...chat, max_tokens: 10 })).status).toBe(400);
    expect((await post(openai, '/v1/chat/completions', auth, { ...chat, response_format: { type: 'json_object' } })).status).toBe(400);
    expect((await post(openai, '/v1/chat/completions', auth, { ...chat, model: 'gpt-5-pro' })).status).toBe(404);
    expect((await post(openai, '/v1/chat/completions', auth, chat)).status).toBe(200);

    const gemini = await start('gemini');
    const contents = { contents: [{ role: 'user', parts: [{ text: 'x' }] }] };
    expect((await post(gemini, '/v1beta/models/g:generateContent', {}, contents)).status).toBe(403);
    expect((await post(gemini, '/v1beta/models/g:generateContent', { 'x-goog-api-key': 'nope' }, contents)).status).toBe(400);
    expect(
      (await post(gemini, '/v1beta/models/g:generateContent', { 'x-goog-api-key': FAKE_API_KEY }, { ...contents, max_tokens: 3 })).status,
    ).toBe(400);
    expect(
      (
        await post(
          gemini,
          '/v1beta/models/g:generateContent',
          { 'x-goog-api-key': FAKE_API_KEY },
          { contents: [{ role: 'assistant', parts: [{ text: 'x' }] }] },
        )
      ).status,
    ).toBe(400);

    const perplexity = await start('perplexity');
    const turns = [
      { role: 'user', content: 'a' },
      { role: 'user', content: 'b' },
    ];
    expect((await post(perplexity, '/chat/completions', auth, { model: 'sonar', messages: turns })).status).toBe(400);

    const deepl = await start('deepl');
    const key = { authorization: `DeepL-Auth-Key ${FAKE_API_KEY}` };
    expect(
      (await post(deepl, '/v2/translate', { authorization: `Bearer ${FAKE_API_KEY}` }, { text: ['a'], target_lang: 'FR' })).status,
    ).toBe(403);
    expect((await post(deepl, '/v2/translate', key, { text: ['a'], target_lang: 'XX' })).status).toBe(400);
    expect((await post(deepl, '/v2/translate', key, { text: ['R&D'], target_lang: 'FR', tag_handling: 'xml' })).status).toBe(400);
    expect((await post(deepl, '/v2/translate', key, { text: Array.from({ length: 51 }, () => 'a'), target_lang: 'FR' })).status).toBe(413);
  });

  it('fail on demand, then recover', async () => {
    const deepl = await start('deepl');
    const key = { authorization: `DeepL-Auth-Key ${FAKE_API_KEY}` };
    deepl.failNext(500, 2);
    const body = { text: ['a'], target_lang: 'DE' };
    expect((await post(deepl, '/v2/translate', key, body)).status).toBe(500);
    expect((await post(deepl, '/v2/translate', key, body)).status).toBe(500);
    expect(await post(deepl, '/v2/translate', key, body)).toEqual({
      status: 200,
      json: { translations: [{ detected_source_language: 'EN', text: '[DE] a' }] },
    });
  });
});
