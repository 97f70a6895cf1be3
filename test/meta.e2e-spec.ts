import { bootTestApp, newAccount, type TestApp } from './support/test-app';

describe('discovery', () => {
  let t: TestApp;
  let auth: string;

  beforeAll(async () => {
    t = await bootTestApp();
    auth = `Bearer ${(await newAccount(t)).apiKey}`;
  });
  afterAll(() => t.close());

  const get = (path: string) => t.http().get(path).set('Authorization', auth).expect(200);

  it('lists the three public engines and the horizons', async () => {
    const { body } = await get('/v1/meta/engines');
    expect(body.data.map((e: { id: string }) => e.id)).toEqual(['v4', 'v4.5-alpha', 'v4.5-beta']);
    for (const engine of body.data) expect(Object.keys(engine).sort()).toEqual(['description', 'id', 'label']);
    expect(body.horizons).toEqual([3, 6, 12, 18, 24, 36]);
  });

  it('lists models grouped by the six provider keys plus offline, with configured from the environment', async () => {
    const { body } = await get('/v1/meta/models');
    expect(body.data.map((p: { provider: string }) => p.provider)).toEqual([
      'anthropic',
      'openai',
      'gemini',
      'deepl',
      'cohere',
      'perplexity',
      'offline',
    ]);
    const offline = body.data.find((p: { provider: string }) => p.provider === 'offline');
    expect(offline.configured).toBe(true);
    expect(body.data.find((p: { provider: string }) => p.provider === 'anthropic').configured).toBe(false);
    for (const provider of body.data) {
      expect(provider.models.length).toBeGreaterThan(0);
      for (const model of provider.models) {
        expect(model).toEqual(
          expect.objectContaining({
            id: expect.any(String),
            label: expect.any(String),
            role: expect.any(String),
            model_id: expect.any(String),
          }),
        );
        expect(model).toHaveProperty('tier');
      }
    }
    expect(offline.models.map((m: { tier: string }) => m.tier)).toEqual(expect.arrayContaining(['large', 'large48', 'medium', 'small']));
  });

  it('lists the 13 jurisdictions with their regulators', async () => {
    const { body } = await get('/v1/meta/jurisdictions');
    expect(body.data.map((j: { id: string }) => j.id)).toEqual([
      'US',
      'EU',
      'UK',
      'Singapore',
      'Hong Kong',
      'Japan',
      'Australia',
      'Switzerland',
      'Canada',
      'Brazil',
      'India',
      'China',
      'South Korea',
    ]);
    for (const jurisdiction of body.data) {
      expect(Object.keys(jurisdiction).sort()).toEqual(['id', 'label', 'regulators']);
      expect(jurisdiction.regulators.length).toBeGreaterThan(1);
    }
    expect(body.data.find((j: { id: string }) => j.id === 'UK').regulators).toEqual(expect.arrayContaining(['FCA', 'PRA']));
  });

  it('lists the 11 areas', async () => {
    const { body } = await get('/v1/meta/areas');
    expect(body.data).toHaveLength(11);
    expect(body.data).toContainEqual({ id: 'AML / KYC', label: 'AML / KYC' });
    expect(body.data).toContainEqual({ id: 'Research Bundling / Unbundling', label: 'Research Bundling / Unbundling' });
  });

  it('lists every export type with its options schema', async () => {
    const { body } = await get('/v1/meta/export-types');
    expect(body.data).toHaveLength(18);
    const pptx = body.data.find((e: { key: string }) => e.key === 'internal-pptx:slide-deck');
    expect(pptx).toMatchObject({ provider: 'internal-pptx', artifact_type: 'slide-deck', requires_provider: null, has_options: true });
    expect(pptx.options_schema.theme).toMatchObject({ type: 'string', enum: ['light', 'dark'], default: 'dark' });
    expect(pptx.options_schema.targetLanguage.enum).toEqual(['en', 'fr', 'de', 'es', 'it', 'zh', 'ja', 'simple']);
    const pdf = body.data.find((e: { key: string }) => e.key === 'internal-pdf:pdf');
    expect(pdf).toMatchObject({ has_options: true, options_schema: { list: { type: 'string', enum: ['selected', 'all_matched'] } } });
    expect(body.data.find((e: { key: string }) => e.key === 'internal-calendar:compliance-calendar')).toMatchObject({ group: 'documents', has_options: true });
    const audio = body.data.find((e: { key: string }) => e.key === 'notebook:audio');
    expect(audio.requires_provider).toBe('notebook');
    expect(audio.options_schema.instructions.maxLength).toBe(2000);
    const podcast = body.data.find((e: { key: string }) => e.key === 'voice-briefing:podcast-briefing');
    expect(podcast.requires_provider).toBe('voicePodcast');
    expect(Object.keys(podcast.options_schema)).toEqual(expect.arrayContaining(['voiceId', 'modelId', 'targetLanguage']));
    for (const entry of body.data) {
      for (const option of Object.values(entry.options_schema) as Array<Record<string, unknown>>) {
        expect(option.type).toBe('string');
        expect(Object.keys(option).every((k) => ['type', 'enum', 'default', 'description', 'maxLength'].includes(k))).toBe(true);
      }
    }
  });
});
