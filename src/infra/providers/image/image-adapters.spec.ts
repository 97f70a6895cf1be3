import { fakePng, startFakeImageServer, type FakeImageServer } from '../../../../test/fakes/fake-image-servers';
import { FAKE_API_KEY } from '../../../../test/fakes/fake-provider-servers';
import { ProviderFailure, ProviderTransientError } from '../provider-errors';
import { createProviderRegistry, type ProvidersConfig } from '../provider-registry';
import { GeminiImageAdapter } from './gemini-image.adapter';
import { decodeBase64Image } from './image-bytes';
import { OpenAiImageAdapter } from './openai-image.adapter';

const none = { apiKey: undefined, baseUrl: undefined };
const unconfigured: ProvidersConfig = { anthropic: none, openai: none, gemini: none, deepl: none, cohere: none, perplexity: none };

describe('image adapters', () => {
  let openai: FakeImageServer;
  let gemini: FakeImageServer;
  beforeAll(async () => {
    openai = await startFakeImageServer('openai');
    gemini = await startFakeImageServer('gemini');
  });
  afterAll(async () => {
    await openai.close();
    await gemini.close();
  });

  it('the registry builds them only for configured openai and gemini keys', () => {
    expect(createProviderRegistry(unconfigured).image('openai')).toBeNull();
    const key = { apiKey: 'k', baseUrl: undefined };
    const registry = createProviderRegistry({ ...unconfigured, openai: key, gemini: key, anthropic: key });
    expect(registry.image('openai')).toBeInstanceOf(OpenAiImageAdapter);
    expect(registry.image('openai')).toBe(registry.image('openai'));
    expect(registry.image('gemini')).toBeInstanceOf(GeminiImageAdapter);
    expect(registry.image('anthropic')).toBeNull();
  });

  it('openai: POST /v1/images/generations with the model, prompt, size and n, decoding b64_json and usage', async () => {
    const adapter = new OpenAiImageAdapter({ apiKey: FAKE_API_KEY, baseUrl: openai.baseUrl });
    const result = await adapter.generate({ model: 'gpt-image-1', prompt: 'A page', aspectRatio: '4:5' });
    expect(result).toEqual({ bytes: openai.png, mimeType: 'image/png', usage: { inputTokens: 900, outputTokens: 6240 } });
    const request = openai.requests.at(-1)!;
    expect(request.headers.authorization).toBe(`Bearer ${FAKE_API_KEY}`);
    expect(request.body).toEqual({
      model: 'gpt-image-1',
      prompt: 'A page',
      n: 1,
      size: '1024x1536',
      quality: 'high',
      output_format: 'png',
    });
  });

  it('openai: 5xx is transient, a wrong key permanent and never echoed', async () => {
    openai.failNext(503);
    const adapter = new OpenAiImageAdapter({ apiKey: FAKE_API_KEY, baseUrl: openai.baseUrl });
    await expect(adapter.generate({ model: 'gpt-image-1', prompt: 'p', aspectRatio: '2:3' })).rejects.toBeInstanceOf(
      ProviderTransientError,
    );
    const wrong = new OpenAiImageAdapter({ apiKey: 'wrong-key-0123456789', baseUrl: openai.baseUrl });
    const error = await wrong.generate({ model: 'gpt-image-1', prompt: 'p', aspectRatio: '2:3' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderFailure);
    expect(String((error as Error).message)).toMatch(/OPENAI_API_KEY/);
    expect(String((error as Error).message)).not.toContain('wrong-key-0123456789');
  });

  it('gemini: generateContent on the image model with IMAGE output and the aspect ratio, reading inlineData', async () => {
    const adapter = new GeminiImageAdapter({ apiKey: FAKE_API_KEY, baseUrl: gemini.baseUrl });
    const result = await adapter.generate({ model: 'gemini-2.5-flash-image', prompt: 'A page', aspectRatio: '2:3' });
    expect(result).toEqual({ bytes: gemini.png, mimeType: 'image/png', usage: { inputTokens: 700, outputTokens: 1290 } });
    const request = gemini.requests.at(-1)!;
    expect(request.path).toBe('/v1beta/models/gemini-2.5-flash-image:generateContent');
    expect(request.headers['x-goog-api-key']).toBe(FAKE_API_KEY);
    expect(request.body).toEqual({
      contents: [{ role: 'user', parts: [{ text: 'A page' }] }],
      generationConfig: { responseModalities: ['IMAGE'], imageConfig: { aspectRatio: '2:3' } },
    });
  });

  it('passes on whatever bytes were sent (the export checks them), but refuses what is not base64', async () => {
    const adapter = new GeminiImageAdapter({ apiKey: FAKE_API_KEY, baseUrl: gemini.baseUrl });
    gemini.sendNext(Buffer.from('plain text'));
    expect((await adapter.generate({ model: 'gemini-2.5-flash-image', prompt: 'p', aspectRatio: '1:1' })).bytes.toString()).toBe(
      'plain text',
    );
    expect(() => decodeBase64Image('gemini', 'not base64 at all!', 'data')).toThrow(
      /gemini returned a malformed response: data is not base64/,
    );
    expect(() => decodeBase64Image('openai', undefined, 'data[0].b64_json')).toThrow(/missing data\[0\].b64_json/);
    expect(decodeBase64Image('openai', fakePng('a').toString('base64'), 'x')).toEqual(fakePng('a'));
  });
});
