import { FAKE_API_KEY, startFakeProvider, type FakeProvider } from './fakes/fake-provider-servers';
import { bootTestApp, newAccount, type TestApp } from './support/test-app';

const CONFIG = { jurisdictions: ['EU'], areas: ['AML / KYC', 'Payments'], horizon: 24 };

describe('scan translations through the translation port', () => {
  let deepl: FakeProvider;
  let t: TestApp;
  const saved = { key: process.env.DEEPL_API_KEY, url: process.env.DEEPL_BASE_URL };

  beforeAll(async () => {
    deepl = await startFakeProvider('deepl');
    Object.assign(process.env, { DEEPL_API_KEY: FAKE_API_KEY, DEEPL_BASE_URL: deepl.baseUrl });
    t = await bootTestApp();
  });
  afterAll(async () => {
    await t.close();
    await deepl.close();
    process.env.DEEPL_API_KEY = saved.key ?? '';
    process.env.DEEPL_BASE_URL = saved.url ?? '';
  });

  it('stores a complete translation per supported language, keeps citation markers, and records unsupported codes', async () => {
    const { apiKey } = await newAccount(t);
    const response = await t
      .http()
      .post('/v1/scans')
      .set('Authorization', `Bearer ${apiKey}`)
      .send({ ...CONFIG, translationLanguages: ['fr', 'xx'] })
      .expect(200);
    const { data } = response.body.snapshot;
    expect(Object.keys(data.translations)).toEqual(['fr']);
    const fr = data.translations.fr;
    expect(fr).toMatchObject({ language: 'fr', complete: true, provider: 'deepl' });
    expect(fr.items).toHaveLength(data.items.length);
    expect(fr.items[0].id).toBe(data.items[0].id);
    expect(fr.items[0].title).not.toBe(data.items[0].title);
    expect(fr.executive_narrative.match(/\[\[cite:\d+\]\]/g)).toEqual(data.executive_narrative.match(/\[\[cite:\d+\]\]/g));
    expect(data._meta.translation).toMatchObject({
      requested: ['fr', 'xx'],
      produced: ['fr'],
      skipped: { xx: 'unsupported language' },
      provider: 'deepl',
    });
    expect(deepl.requests.length).toBeGreaterThan(0);
    expect(deepl.requests[0].headers.authorization).toBe(`DeepL-Auth-Key ${FAKE_API_KEY}`);
  });
});

describe('scan translations without a translation provider', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await bootTestApp();
  });
  afterAll(() => t.close());

  it('produces no translation and says why', async () => {
    const { apiKey } = await newAccount(t);
    const response = await t
      .http()
      .post('/v1/scans')
      .set('Authorization', `Bearer ${apiKey}`)
      .send({ ...CONFIG, translationLanguages: ['de'] })
      .expect(200);
    const { data } = response.body.snapshot;
    expect(data.translations).toEqual({});
    expect(data._meta.translation).toMatchObject({
      requested: ['de'],
      produced: [],
      skipped: { de: expect.stringMatching(/no translation provider/) },
    });
  });
});
