import { DEEPL_FREE_BASE_URL, DEEPL_PRO_BASE_URL, DeepLAdapter, deeplBaseUrl } from './deepl.adapter';
import { describeErrorMapping } from '../../../../test/support/provider-error-contract';
import { FAKE_API_KEY, FakeProvider, startFakeProvider } from '../../../../test/fakes/fake-provider-servers';
import { EngineFailure } from '../../../domain/failures';

describe('DeepLAdapter', () => {
  let fake: FakeProvider;
  afterEach(() => fake?.close());

  it('posts /v2/translate with the DeepL-Auth-Key header and returns texts in order', async () => {
    fake = await startFakeProvider('deepl');
    const adapter = new DeepLAdapter({ apiKey: FAKE_API_KEY, baseUrl: fake.baseUrl });
    const result = await adapter.translate(['Hello', 'World'], 'fr');
    expect(result).toEqual({ texts: ['[FR] Hello', '[FR] World'], usage: { characters: 10 } });
    const [request] = fake.requests;
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/v2/translate');
    expect(request.headers.authorization).toBe(`DeepL-Auth-Key ${FAKE_API_KEY}`);
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.body).toEqual({ text: ['Hello', 'World'], target_lang: 'FR', source_lang: 'EN' });
  });

  it('maps our language codes to DeepL target languages', async () => {
    fake = await startFakeProvider('deepl');
    const adapter = new DeepLAdapter({ apiKey: FAKE_API_KEY, baseUrl: fake.baseUrl });
    for (const code of ['fr', 'de', 'es', 'it', 'zh', 'ja', 'pt']) await adapter.translate(['x'], code);
    expect(fake.requests.map((request) => (request.body as { target_lang: string }).target_lang)).toEqual([
      'FR',
      'DE',
      'ES',
      'IT',
      'ZH-HANS',
      'JA',
      'PT-PT',
    ]);
  });

  it('refuses an unsupported language without calling DeepL', async () => {
    fake = await startFakeProvider('deepl');
    const adapter = new DeepLAdapter({ apiKey: FAKE_API_KEY, baseUrl: fake.baseUrl });
    await expect(adapter.translate(['x'], 'ko')).rejects.toThrow(EngineFailure);
    expect(fake.requests).toHaveLength(0);
  });

  it('sends at most 50 texts per request and keeps the order across batches', async () => {
    fake = await startFakeProvider('deepl');
    const adapter = new DeepLAdapter({ apiKey: FAKE_API_KEY, baseUrl: fake.baseUrl });
    const texts = Array.from({ length: 120 }, (_, index) => `text ${index}`);
    const result = await adapter.translate(texts, 'de');
    expect(fake.requests.map((request) => (request.body as { text: string[] }).text.length)).toEqual([50, 50, 20]);
    expect(result.texts).toEqual(texts.map((text) => `[DE] ${text}`));
    expect(result.usage.characters).toBe(texts.join('').length);
  });

  it('splits batches that would exceed the request size limit', async () => {
    fake = await startFakeProvider('deepl');
    const adapter = new DeepLAdapter({ apiKey: FAKE_API_KEY, baseUrl: fake.baseUrl });
    const texts = Array.from({ length: 5 }, (_, index) => `${index}${'x'.repeat(40_000)}`);
    const result = await adapter.translate(texts, 'es');
    expect(fake.requests.length).toBeGreaterThan(1);
    expect(result.texts).toHaveLength(5);
  });

  it('xml format turns on tag handling, and model_type is sent when configured', async () => {
    fake = await startFakeProvider('deepl');
    const adapter = new DeepLAdapter({ apiKey: FAKE_API_KEY, baseUrl: fake.baseUrl, modelType: 'quality_optimized' });
    const result = await adapter.translate(['R&amp;D applies <x id="0"/>.'], 'it', undefined, { format: 'xml' });
    expect(result.texts).toEqual(['[IT] R&amp;D applies <x id="0"/>.']);
    expect(fake.requests[0].body).toMatchObject({ tag_handling: 'xml', non_splitting_tags: ['x'], model_type: 'quality_optimized' });
  });

  it('a translation count mismatch is an EngineFailure', async () => {
    fake = await startFakeProvider('deepl', () => ({ json: { translations: [{ text: 'only one' }] } }));
    const adapter = new DeepLAdapter({ apiKey: FAKE_API_KEY, baseUrl: fake.baseUrl });
    await expect(adapter.translate(['a', 'b'], 'fr')).rejects.toThrow(/sent 2 texts, got 1/);
  });

  it('an exhausted quota (456) is a permanent failure', async () => {
    fake = await startFakeProvider('deepl', () => ({ status: 456, json: { message: 'Quota exceeded' } }));
    const adapter = new DeepLAdapter({ apiKey: FAKE_API_KEY, baseUrl: fake.baseUrl });
    await expect(adapter.translate(['a'], 'fr')).rejects.toThrow(/HTTP 456.*Quota exceeded/);
  });

  it('chooses the free endpoint for :fx keys', () => {
    expect(deeplBaseUrl('abc:fx')).toBe(DEEPL_FREE_BASE_URL);
    expect(deeplBaseUrl('abc')).toBe(DEEPL_PRO_BASE_URL);
  });

  describeErrorMapping('deepl', (settings, signal) => new DeepLAdapter(settings).translate(['Hello'], 'fr', signal));
});
