import { type FakeOpenAiCompatible, startFakeOpenAiCompatible } from './fakes/fake-openai-compatible';
import type { RecordedRequest } from './fakes/recorded-request';
import { bootTestAppWithEnv, newAccount, type TestApp } from './support/test-app';
import { calendarAnalystReply } from './fakes/analyst-replies';

const BRIEFING = {
  briefing_headline: 'Served on premises',
  briefing_standfirst: 'Instruments fall due across the window.',
  priorities: ['[EU] Prepare for the Instant Payments deadlines'],
  bottom_line_tight: 'Busy.',
  pull_quote: 'Deadlines cluster.',
  sentiment_label: 'intensifying',
  sentiment_rationale: 'Many confirmed dates.',
};

type ChatBody = { model: string; messages: Array<{ role: string; content: string }>; response_format?: unknown; max_tokens?: number };
const chatBody = (request: RecordedRequest) => request.body as ChatBody;

/** Answers the analyst and the sub-editor the way a model would; anything else gets the fake's JSON echo. */
function modelReplies(request: RecordedRequest): string | undefined {
  const { messages } = chatBody(request);
  const system = messages.find((message) => message.role === 'system')?.content ?? '';
  if (system.includes('regulatory-change analyst'))
    return calendarAnalystReply(messages.map((message) => message.content).join('\n'), {
      summary: (title) => `Self-hosted summary of ${title}.`,
    });
  if (system.includes('sub-editor')) return JSON.stringify(BRIEFING);
  return undefined;
}

const SCAN = { jurisdictions: ['EU'], areas: ['Payments'], horizon: 24 };
const PRICES = { input: 0.05, output: 0.2 };
const costOf = (usage: { prompt_tokens: number; completion_tokens: number }) =>
  (usage.prompt_tokens / 1000) * PRICES.input + (usage.completion_tokens / 1000) * PRICES.output;

describe('self-hosted models behind an OpenAI-compatible endpoint (vLLM, Ollama style)', () => {
  let server: FakeOpenAiCompatible;
  let t: TestApp;
  let auth: string;

  beforeAll(async () => {
    server = await startFakeOpenAiCompatible({ models: ['llama-3.3-70b-instruct', 'llama3.1:8b'] }, modelReplies);
    t = await bootTestAppWithEnv({
      OPENAI_COMPATIBLE_BASE_URL: server.baseUrl,
      OPENAI_COMPATIBLE_MODELS: 'large=llama-3.3-70b-instruct,small=llama3.1:8b',
      OPENAI_COMPATIBLE_LABEL: 'On-prem vLLM',
      OPENAI_COMPATIBLE_PRICE_CENTS_PER_1K_INPUT: String(PRICES.input),
      OPENAI_COMPATIBLE_PRICE_CENTS_PER_1K_OUTPUT: String(PRICES.output),
    });
    auth = `Bearer ${(await newAccount(t)).apiKey}`;
  });
  afterAll(async () => {
    await t.close();
    await server.close();
  });
  beforeEach(() => {
    server.requests.length = 0;
    server.replies.length = 0;
  });

  it('lists the provider as configured, with the mapped tiers only', async () => {
    const { body } = await t.http().get('/v1/meta/models').set('Authorization', auth).expect(200);
    expect(body.data.map((entry: { provider: string }) => entry.provider)).toEqual([
      'anthropic',
      'openai',
      'gemini',
      'deepl',
      'cohere',
      'perplexity',
      'openai-compatible',
      'offline',
    ]);
    expect(body.data.find((entry: { provider: string }) => entry.provider === 'openai-compatible')).toEqual({
      provider: 'openai-compatible',
      label: 'On-prem vLLM',
      configured: true,
      models: [
        {
          id: 'openai-compatible-large',
          label: 'llama-3.3-70b-instruct (large)',
          role: 'analyst',
          tier: 'large',
          model_id: 'llama-3.3-70b-instruct',
        },
        { id: 'openai-compatible-small', label: 'llama3.1:8b (small)', role: 'analyst', tier: 'small', model_id: 'llama3.1:8b' },
      ],
    });
  });

  it('runs a scan on the tier `large` through the self-hosted model and charges the configured prices for the reported usage', async () => {
    const response = await t
      .http()
      .post('/v1/scans')
      .set('Authorization', auth)
      .send({ ...SCAN, model: 'large' })
      .expect(200);
    expect(response.body.status).toBe('completed');
    const { data, cost_cents: cost } = response.body.snapshot;
    expect(data._meta).toMatchObject({
      engine_mode: 'llm',
      analyst_model: 'openai-compatible-large',
      writer_model: 'openai-compatible-large',
    });
    expect(data.items.length).toBeGreaterThan(0);
    for (const item of data.items) expect(item.summary).toMatch(/^Self-hosted summary/);
    expect(data._briefing.briefing_headline).toBe(BRIEFING.briefing_headline);

    expect(server.requests.length).toBeGreaterThanOrEqual(2);
    for (const request of server.requests) {
      expect(request.method).toBe('POST');
      expect(request.path).toBe('/v1/chat/completions');
      expect(request.headers).not.toHaveProperty('authorization');
      expect(request.headers).not.toHaveProperty('api-key');
      const body = chatBody(request);
      expect(body.model).toBe('llama-3.3-70b-instruct');
      expect(body.messages[0].role).toBe('system');
      expect(body.messages.at(-1)?.role).toBe('user');
      expect(body.max_tokens).toBeGreaterThan(0);
      expect(body.response_format).toEqual({ type: 'json_object' });
    }
    const analyst = server.requests.find((request) => chatBody(request).messages[0].content.includes('regulatory-change analyst'))!;
    expect(analyst.rawBody).toContain('Payments');

    const expected = server.replies.reduce((sum, reply) => sum + costOf(reply.usage!), 0);
    expect(expected).toBeGreaterThan(0);
    expect(cost).toBeCloseTo(expected, 3);
  });

  it('seats a council on the self-hosted endpoint alone (the same model twice) and prices every call, the writer included', async () => {
    const response = await t
      .http()
      .post('/v1/scans')
      .set('Authorization', auth)
      .send({ ...SCAN, engine: 'council' })
      .expect(200);
    expect(response.body.status).toBe('completed');
    const { data, cost_cents: cost } = response.body.snapshot;
    expect(data._meta).toMatchObject({
      engine_mode: 'llm',
      council: {
        mode: 'llm',
        same_vendor: true,
        seats: [
          { seat: 'A', provider: 'openai-compatible', model: 'openai-compatible-large', vendor_model: 'llama-3.3-70b-instruct' },
          { seat: 'B', provider: 'openai-compatible', model: 'openai-compatible-large', vendor_model: 'llama-3.3-70b-instruct' },
        ],
      },
    });
    const analystCalls = server.requests.filter((request) => chatBody(request).messages[0].content.includes('regulatory-change analyst'));
    expect(analystCalls).toHaveLength(2);
    const expected = server.replies.reduce((sum, reply) => sum + costOf(reply.usage!), 0);
    // Every model call (both seats, the writer and the simple register) is charged at the configured prices; the plan
    // phase has no price of its own on a token-priced model.
    expect(cost).toBeCloseTo(expected, 3);
  });

  it('runs the small model when asked by id, and fails a scan on a tier the endpoint does not map, naming the setting', async () => {
    const small = await t
      .http()
      .post('/v1/scans')
      .set('Authorization', auth)
      .send({ ...SCAN, engine: 'v4', model: 'openai-compatible-small' })
      .expect(200);
    expect(small.body.snapshot.data._meta.analyst_model).toBe('openai-compatible-small');
    expect(new Set(server.requests.map((request) => chatBody(request).model))).toEqual(new Set(['llama3.1:8b']));

    // The tier of a self-hosted id counts even before it is resolved: small is blocked on a verifier-aware config.
    const blocked = await t
      .http()
      .post('/v1/scans')
      .set('Authorization', auth)
      .send({ ...SCAN, engine: 'v4.5-alpha', model: 'openai-compatible-small' })
      .expect(422);
    expect(JSON.stringify(blocked.body)).toContain('small_model_blocked_on_verifier');

    const unmapped = await t
      .http()
      .post('/v1/scans')
      .set('Authorization', auth)
      .send({ ...SCAN, model: 'openai-compatible-medium' })
      .expect(200);
    expect(unmapped.body).toMatchObject({
      status: 'failed',
      snapshot_id: null,
      error: expect.stringMatching(/openai-compatible.*not configured.*OPENAI_COMPATIBLE_MODELS/),
    });
  });

  it('takes openai-compatible as a provider hint of an estimate', async () => {
    await t
      .http()
      .post('/v1/scans/estimate')
      .set('Authorization', auth)
      .send({ ...SCAN, analystProvider: 'openai-compatible' })
      .expect(200);
  });
});

describe('a self-hosted server with a key, without usage figures and without JSON mode (LM Studio style)', () => {
  let server: FakeOpenAiCompatible;
  let t: TestApp;

  beforeAll(async () => {
    server = await startFakeOpenAiCompatible(
      { models: ['qwen2.5-32b-instruct'], apiKey: 'local-gateway-key', omitUsage: true, refuseJsonMode: true },
      modelReplies,
    );
    t = await bootTestAppWithEnv({
      OPENAI_COMPATIBLE_BASE_URL: server.baseUrl,
      OPENAI_COMPATIBLE_API_KEY: 'local-gateway-key',
      OPENAI_COMPATIBLE_MODELS: 'large=qwen2.5-32b-instruct',
      OPENAI_COMPATIBLE_PRICE_CENTS_PER_1K_INPUT: String(PRICES.input),
      OPENAI_COMPATIBLE_PRICE_CENTS_PER_1K_OUTPUT: String(PRICES.output),
    });
  });
  afterAll(async () => {
    await t.close();
    await server.close();
  });

  it('sends the key as a Bearer token, drops JSON mode after the refusal, and charges usage estimated from the characters', async () => {
    const { apiKey } = await newAccount(t);
    const response = await t
      .http()
      .post('/v1/scans')
      .set('Authorization', `Bearer ${apiKey}`)
      .send({ ...SCAN, model: 'openai-compatible-large' })
      .expect(200);
    expect(response.body.status).toBe('completed');
    const { data, cost_cents: cost } = response.body.snapshot;
    expect(data._meta.analyst_model).toBe('openai-compatible-large');
    expect(data.items.length).toBeGreaterThan(0);

    for (const request of server.requests) expect(request.headers.authorization).toBe('Bearer local-gateway-key');
    const withJsonMode = server.requests.filter((request) => chatBody(request).response_format !== undefined);
    expect(withJsonMode).toHaveLength(1);
    expect(server.replies.find((reply) => reply.request === withJsonMode[0])?.status).toBe(400);

    // Every answered request is charged as ceil(prompt characters / 4) and ceil(reply characters / 4) tokens.
    const answered = server.replies.filter((reply) => reply.status === 200);
    const expected = answered.reduce((sum, reply) => {
      const characters = chatBody(reply.request).messages.reduce((total, message) => total + message.content.length, 0);
      return sum + costOf({ prompt_tokens: Math.ceil(characters / 4), completion_tokens: Math.ceil(reply.text!.length / 4) });
    }, 0);
    expect(expected).toBeGreaterThan(0);
    expect(cost).toBeCloseTo(expected, 3);
  });
});

describe('Azure OpenAI through the azure API style', () => {
  let server: FakeOpenAiCompatible;
  let t: TestApp;

  beforeAll(async () => {
    server = await startFakeOpenAiCompatible(
      { style: 'azure', models: ['gpt-4o-eu'], apiKey: 'azure-resource-key', apiVersion: '2024-10-21' },
      modelReplies,
    );
    t = await bootTestAppWithEnv({
      OPENAI_COMPATIBLE_BASE_URL: server.baseUrl,
      OPENAI_COMPATIBLE_API_STYLE: 'azure',
      OPENAI_COMPATIBLE_API_KEY: 'azure-resource-key',
      OPENAI_COMPATIBLE_MODELS: 'large=gpt-4o-eu',
      OPENAI_COMPATIBLE_LABEL: 'Azure OpenAI (EU)',
    });
  });
  afterAll(async () => {
    await t.close();
    await server.close();
  });

  it('posts to the deployment with the api-version query and the api-key header; no prices set means no charge', async () => {
    const { apiKey } = await newAccount(t);
    const models = await t.http().get('/v1/meta/models').set('Authorization', `Bearer ${apiKey}`).expect(200);
    expect(models.body.data.find((entry: { provider: string }) => entry.provider === 'openai-compatible')).toMatchObject({
      label: 'Azure OpenAI (EU)',
      configured: true,
      models: [{ id: 'openai-compatible-large', model_id: 'gpt-4o-eu' }],
    });

    const response = await t
      .http()
      .post('/v1/scans')
      .set('Authorization', `Bearer ${apiKey}`)
      .send({ ...SCAN, model: 'large' })
      .expect(200);
    expect(response.body.status).toBe('completed');
    expect(response.body.snapshot.data._meta.analyst_model).toBe('openai-compatible-large');
    expect(response.body.snapshot.cost_cents).toBe(0);
    expect(server.requests.length).toBeGreaterThanOrEqual(2);
    for (const request of server.requests) {
      expect(request.path).toBe('/openai/deployments/gpt-4o-eu/chat/completions?api-version=2024-10-21');
      expect(request.headers['api-key']).toBe('azure-resource-key');
      expect(request.headers).not.toHaveProperty('authorization');
    }
    expect(server.replies.every((reply) => reply.status === 200)).toBe(true);
  });
});
