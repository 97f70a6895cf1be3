import { FAKE_API_KEY, startFakeProvider, type FakeProvider, type RecordedRequest } from './fakes/fake-provider-servers';
import { bootTestApp, newAccount, type TestApp } from './support/test-app';
import { calendarAnalystReply } from './fakes/analyst-replies';

const BRIEFING = {
  briefing_headline: 'A busy year for payments',
  briefing_standfirst: 'Instruments fall due across the window.',
  priorities: ['[EU] Prepare for the Instant Payments deadlines'],
  bottom_line_tight: 'Busy.',
  pull_quote: 'Deadlines cluster.',
  sentiment_label: 'intensifying',
  sentiment_rationale: 'Many confirmed dates.',
};

describe('scans on a configured LLM provider', () => {
  let anthropic: FakeProvider;
  let t: TestApp;
  const saved = { key: process.env.ANTHROPIC_API_KEY, url: process.env.ANTHROPIC_BASE_URL };

  beforeAll(async () => {
    anthropic = await startFakeProvider('anthropic', (request: RecordedRequest) => {
      const body = request.body as { system?: string; messages: Array<{ content: string }> };
      if (body.system?.includes('regulatory-change analyst'))
        return { text: calendarAnalystReply(body.messages.map((m) => m.content).join('\n')) };
      if (body.system?.includes('sub-editor')) return { text: JSON.stringify(BRIEFING) };
      return undefined;
    });
    Object.assign(process.env, { ANTHROPIC_API_KEY: FAKE_API_KEY, ANTHROPIC_BASE_URL: anthropic.baseUrl });
    t = await bootTestApp();
  });
  afterAll(async () => {
    await t.close();
    await anthropic.close();
    process.env.ANTHROPIC_API_KEY = saved.key ?? '';
    process.env.ANTHROPIC_BASE_URL = saved.url ?? '';
  });

  it('runs the analysis on the provider, grounded in the calendar, and charges its token cost', async () => {
    const { apiKey } = await newAccount(t);
    const models = await t.http().get('/v1/meta/models').set('Authorization', `Bearer ${apiKey}`).expect(200);
    expect(models.body.data.find((p: { provider: string }) => p.provider === 'anthropic').configured).toBe(true);

    const response = await t
      .http()
      .post('/v1/scans')
      .set('Authorization', `Bearer ${apiKey}`)
      .send({ jurisdictions: ['EU'], areas: ['Payments'], horizon: 24, model: 'anthropic-large' })
      .expect(200);
    const { data, cost_cents: cost } = response.body.snapshot;
    expect(data._meta).toMatchObject({ engine_mode: 'llm', analyst_model: expect.stringContaining('anthropic') });
    expect(data.items.length).toBeGreaterThan(0);
    for (const item of data.items) {
      expect(item.jurisdiction).toBe('EU');
      expect(item.citations.length).toBeGreaterThan(0);
      expect(item.summary).toMatch(/^Analysed summary/);
    }
    expect(data._briefing.briefing_headline).toBe(BRIEFING.briefing_headline);
    expect(data.executive_narrative).toMatch(/\[\[cite:\d+\]\]/);
    expect(cost).toBeGreaterThan(0);
    const analystCall = anthropic.requests.find((r) => (r.body as { system?: string }).system?.includes('regulatory-change analyst'))!;
    expect(analystCall.headers['x-api-key']).toBe(FAKE_API_KEY);
    // The analyst is the large model; the writer (briefing, simple register) is the vendor's writer model.
    expect((analystCall.body as { model: string }).model).toBe('claude-opus-4-1-20250805');
    const subEditorCall = anthropic.requests.find((r) => (r.body as { system?: string }).system?.includes('sub-editor'))!;
    expect((subEditorCall.body as { model: string }).model).toBe('claude-sonnet-4-5-20250929');
    expect(data._meta.writer_model).toBe('anthropic-writer');
  });

  it('fails the scan with a clear error when the model belongs to an unconfigured provider', async () => {
    const { apiKey } = await newAccount(t);
    const response = await t
      .http()
      .post('/v1/scans')
      .set('Authorization', `Bearer ${apiKey}`)
      .send({ jurisdictions: ['EU'], areas: ['Payments'], horizon: 24, model: 'openai-large' })
      .expect(200);
    expect(response.body).toMatchObject({
      status: 'failed',
      snapshot_id: null,
      error: expect.stringMatching(/openai.*not configured.*OPENAI_API_KEY/),
    });
  });
});
