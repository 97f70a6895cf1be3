import { IMAGE_MODEL_PRICES, costCents, priceCents } from '../src/domain/vocabulary/models';
import { AccountsService } from '../src/modules/accounts/accounts.service';
import { BudgetService } from '../src/modules/budget/budget.service';
import { startFakeImageServer, type FakeImageServer } from './fakes/fake-image-servers';
import { startFakeOpenAiCompatible, type FakeOpenAiCompatible } from './fakes/fake-openai-compatible';
import { FAKE_API_KEY, startFakeProvider, type FakeProvider, type RecordedRequest } from './fakes/fake-provider-servers';
import { bootTestAppWithEnv, downloadExport, finishedExport, newAccount, type TestApp } from './support/test-app';
import { pollUntil } from './support/poll';
import type { Queue } from 'bull';
import { getQueueToken } from '@nestjs/bull';
import { runCli } from '../src/cli/run-cli';
import { EXPORTS_QUEUE } from '../src/infra/queues/queue-names';
import { BATCH_EXPORT_PRIORITY, REALTIME_EXPORT_PRIORITY } from '../src/modules/exports/export-account-rules';

async function cli(...argv: string[]) {
  const code = await runCli(argv, { out: () => undefined, err: () => undefined });
  return { code };
}

/** Usage the plan model's fake reports for every plan. */
const PLAN_USAGE = { prompt_tokens: 2100, completion_tokens: 900 };
const INVENTED = 'Invented rule takes effect in 2031';

interface PlannedItem {
  id: string;
  title: string;
  keyDate: string;
}

/** The items as the plan prompt lists them (`- id X: title | ... | key date YYYY-MM-DD (...)`). */
function listedItems(prompt: string): PlannedItem[] {
  return [...prompt.matchAll(/^- id (\S+): (.+?) \| .*? \| key date (\d{4}-\d{2}-\d{2}) /gm)].map((m) => ({
    id: m[1],
    title: m[2],
    keyDate: m[3],
  }));
}

/** Plays the plan model: two real facts, one about an item that does not exist, one with a date the item does not have. */
/** When set, the plan model answers prose instead of a plan. */
const planModel = { prose: false };

function planReply(request: RecordedRequest) {
  const body = request.body as { model: string; messages: Array<{ role: string; content: string }> };
  const system = body.messages.find((m) => m.role === 'system')?.content ?? '';
  if (!system.includes('infographic planner')) return undefined;
  if (planModel.prose) return { text: 'Sorry, I would rather describe the page in words.' };
  const items = listedItems(
    body.messages
      .filter((m) => m.role === 'user')
      .map((m) => m.content)
      .join('\n'),
  );
  const plan = {
    title: 'Payments deadlines ahead',
    subtitle: 'What falls due',
    panels: [
      {
        heading: 'Key dates',
        facts: [
          { item_id: items[0].id, text: `Deadline: ${items[0].title}`, date: items[0].keyDate },
          { item_id: 'made-up-item', text: INVENTED, date: '2031-01-01' },
        ],
      },
      {
        heading: 'Also',
        facts: [
          { item_id: items[1].id, text: `Next: ${items[1].title}` },
          { item_id: items[1].id, text: 'Moved to another day', date: '1999-01-01' },
        ],
      },
    ],
  };
  return {
    json: {
      id: 'chatcmpl-plan',
      object: 'chat.completion',
      created: 1764000000,
      model: body.model,
      choices: [{ index: 0, message: { role: 'assistant', content: JSON.stringify(plan), refusal: null }, finish_reason: 'stop' }],
      usage: { ...PLAN_USAGE, total_tokens: PLAN_USAGE.prompt_tokens + PLAN_USAGE.completion_tokens },
    },
  };
}

const isPlan = (request: RecordedRequest) =>
  request.path === '/v1/chat/completions' &&
  ((request.body as { messages?: Array<{ content: string }> }).messages ?? []).some((m) => m.content.includes('infographic planner'));

const planCost = (modelId: string) =>
  costCents(modelId, { inputTokens: PLAN_USAGE.prompt_tokens, outputTokens: PLAN_USAGE.completion_tokens });
const imageCost = (id: 'openai-image' | 'gemini-image', server: FakeImageServer) => priceCents(IMAGE_MODEL_PRICES[id]!, server.usage);
const wholeCents = (cents: number) => Math.ceil(Math.round(cents * 1e6) / 1e6);

async function scanSnapshot(t: TestApp, auth: string): Promise<string> {
  return (
    await t
      .http()
      .post('/v1/scans')
      .set('Authorization', auth)
      .send({ jurisdictions: ['EU', 'UK'], areas: ['Payments', 'AML / KYC'], horizon: 24, model: 'offline-large' })
      .expect(200)
  ).body.snapshot_id;
}

describe('image exports drawn by the vendors (loopback fakes of the OpenAI Images API and the Gemini image model)', () => {
  let openaiChat: FakeProvider;
  let geminiChat: FakeProvider;
  let openai: FakeImageServer;
  let gemini: FakeImageServer;
  let t: TestApp;
  let auth: string;
  let accountId: string;
  let snapshotId: string;

  beforeAll(async () => {
    openaiChat = await startFakeProvider('openai', planReply);
    geminiChat = await startFakeProvider('gemini');
    openai = await startFakeImageServer('openai', { forwardTo: openaiChat.baseUrl });
    gemini = await startFakeImageServer('gemini', { forwardTo: geminiChat.baseUrl });
    t = await bootTestAppWithEnv({
      OPENAI_API_KEY: FAKE_API_KEY,
      OPENAI_BASE_URL: openai.baseUrl,
      GEMINI_API_KEY: FAKE_API_KEY,
      GEMINI_BASE_URL: gemini.baseUrl,
    });
    const owner = await newAccount(t);
    auth = `Bearer ${owner.apiKey}`;
    accountId = await t.app.get(AccountsService).ensureAccount(owner.accountId);
    snapshotId = await scanSnapshot(t, auth);
  });
  afterAll(async () => {
    await t.close();
    await Promise.all([openaiChat.close(), geminiChat.close(), openai.close(), gemini.close()]);
  });

  const create = (provider: string, artifactType: string, options: Record<string, string> = {}) =>
    t
      .http()
      .post('/v1/exports')
      .set('Authorization', auth)
      .send({ snapshot_id: snapshotId, provider, artifact_type: artifactType, options })
      .expect(202);
  const finished = (id: string) => finishedExport(t, id, auth);
  const snapshotItems = async () =>
    (await t.http().get(`/v1/snapshots/${snapshotId}`).set('Authorization', auth).expect(200)).body.data.items as Array<{
      id: string;
      title: string;
      key_date: string;
    }>;

  it('imagegen-a: planModel medium5 plans on GPT-5 mini in the export language, gpt-image-1 draws the checked plan, the PNG is served and charged', async () => {
    const before = await t.app.get(BudgetService).view(accountId);
    const plansBefore = openaiChat.requests.filter(isPlan).length;
    const imagesBefore = openai.requests.length;
    const created = await create('imagegen-a-infographic', 'infographic-custom', {
      planModel: 'medium5',
      styleSlug: 'bento-cards',
      targetLanguage: 'simple',
    });
    const done = await finished(created.body.export_job_id);
    expect(done).toMatchObject({ status: 'completed', result_mime: 'image/png', rendered_by: 'openai', effective_locale: 'simple' });
    expect(done.options).toEqual({ planModel: 'medium5', styleSlug: 'bento-cards', targetLanguage: 'simple' });

    const plans = openaiChat.requests.filter(isPlan).slice(plansBefore);
    expect(plans).toHaveLength(1);
    expect(plans[0].headers.authorization).toBe(`Bearer ${FAKE_API_KEY}`);
    const planBody = plans[0].body as { model: string; messages: Array<{ role: string; content: string }> };
    expect(planBody.model).toBe('gpt-5-mini-2025-08-07');
    const planPrompt = planBody.messages
      .filter((m) => m.role === 'user')
      .map((m) => m.content)
      .join('\n');
    expect(planPrompt).toContain('Simplified English');
    const listed = listedItems(planPrompt);
    const items = await snapshotItems();
    expect(listed.length).toBeGreaterThanOrEqual(2);
    for (const entry of listed) expect(items.find((item) => item.id === entry.id)?.key_date).toBe(entry.keyDate);

    const images = openai.requests.slice(imagesBefore);
    expect(images).toHaveLength(1);
    expect(images[0]).toMatchObject({ method: 'POST', path: '/v1/images/generations' });
    expect(images[0].headers.authorization).toBe(`Bearer ${FAKE_API_KEY}`);
    const image = images[0].body as { model: string; prompt: string; n: number; size: string };
    expect(image).toMatchObject({ model: 'gpt-image-1', n: 1, size: '1024x1536' });
    expect(image.prompt).toContain(`${listed[0].keyDate}: Deadline: ${listed[0].title}`);
    expect(image.prompt).toContain(`Next: ${listed[1].title}`);
    expect(image.prompt).toContain('#F3F4F6'); // bento-cards' background
    expect(image.prompt).toContain('Simplified English');
    // The guardrails dropped what the snapshot does not hold.
    expect(image.prompt).not.toContain(INVENTED);
    expect(image.prompt).not.toContain('1999-01-01');

    const file = await downloadExport(t, done.id, auth).expect(200);
    expect(file.headers['content-type']).toContain('image/png');
    expect(file.body as Buffer).toEqual(openai.png);

    const expected = wholeCents(planCost('openai-medium') + imageCost('openai-image', openai));
    expect(done.cost_cents).toBe(expected);
    expect((await t.app.get(BudgetService).view(accountId)).spent_cents).toBeCloseTo(before.spent_cents + expected);
  });

  it('imagegen-a: planModel large48 resolves like a scan model (GPT-5.1 here) and the tearsheet is drawn 1024x1536', async () => {
    const plansBefore = openaiChat.requests.filter(isPlan).length;
    const imagesBefore = openai.requests.length;
    const done = await finished(
      (await create('imagegen-a-infographic', 'tearsheet-detailed', { planModel: 'large48' })).body.export_job_id,
    );
    expect(done).toMatchObject({ status: 'completed', rendered_by: 'openai', effective_locale: 'en' });
    const plans = openaiChat.requests.filter(isPlan).slice(plansBefore);
    expect((plans[0].body as { model: string }).model).toBe('gpt-5.1-2025-11-13');
    expect((openai.requests[imagesBefore].body as { size: string }).size).toBe('1024x1536');
    expect(done.cost_cents).toBe(wholeCents(planCost('openai-large48') + imageCost('openai-image', openai)));
  });

  it('imagegen-b: the medium tier plans, gemini-2.5-flash-image draws through generateContent with IMAGE output', async () => {
    const plansBefore = openaiChat.requests.filter(isPlan).length;
    const imagesBefore = gemini.requests.length;
    const done = await finished(
      (await create('imagegen-b-infographic', 'tearsheet-detailed', { styleSlug: 'terminal-dark' })).body.export_job_id,
    );
    expect(done).toMatchObject({ status: 'completed', result_mime: 'image/png', rendered_by: 'gemini' });
    // `medium` takes the first configured provider in the tier preference: OpenAI before Gemini.
    const plans = openaiChat.requests.filter(isPlan).slice(plansBefore);
    expect(plans).toHaveLength(1);
    expect((plans[0].body as { model: string }).model).toBe('gpt-5-mini-2025-08-07');
    const listed = listedItems(
      (plans[0].body as { messages: Array<{ role: string; content: string }> }).messages.map((m) => m.content).join('\n'),
    );

    const images = gemini.requests.slice(imagesBefore);
    expect(images).toHaveLength(1);
    expect(images[0]).toMatchObject({ method: 'POST', path: '/v1beta/models/gemini-2.5-flash-image:generateContent' });
    expect(images[0].headers['x-goog-api-key']).toBe(FAKE_API_KEY);
    const body = images[0].body as { contents: Array<{ parts: Array<{ text: string }> }>; generationConfig: Record<string, unknown> };
    expect(body.generationConfig).toEqual({ responseModalities: ['IMAGE'], imageConfig: { aspectRatio: '2:3' } });
    const prompt = body.contents[0].parts[0].text;
    expect(prompt).toContain(`${listed[0].keyDate}: Deadline: ${listed[0].title}`);
    expect(prompt).toContain('#0D1117'); // terminal-dark's background
    expect(prompt).not.toContain(INVENTED);

    expect((await downloadExport(t, done.id, auth).expect(200)).body as Buffer).toEqual(gemini.png);
    expect(done.cost_cents).toBe(wholeCents(planCost('openai-medium') + imageCost('gemini-image', gemini)));
  });

  it('a vendor that keeps answering 500 fails the export with its error, after retries, and charges nothing', async () => {
    const before = await t.app.get(BudgetService).view(accountId);
    const imagesBefore = openai.requests.length;
    openai.failNext(500, 3);
    const done = await finished((await create('imagegen-a-infographic', 'infographic-custom')).body.export_job_id);
    expect(done).toMatchObject({ status: 'failed', cost_cents: 0, download_url: null, rendered_by: null });
    expect(done.error).toMatch(/openai image model gpt-image-1 kept failing \(3 attempts\): openai HTTP 500: Simulated failure 500/);
    expect(done.error).not.toContain(FAKE_API_KEY);
    expect(openai.requests.length - imagesBefore).toBe(3);
    expect((await t.app.get(BudgetService).view(accountId)).spent_cents).toBeCloseTo(before.spent_cents);
  });

  it('bytes that are not an image fail the export', async () => {
    gemini.sendNext(Buffer.from('<html><body>an error page, not an image</body></html>'));
    const done = await finished((await create('imagegen-b-infographic', 'infographic-custom')).body.export_job_id);
    expect(done).toMatchObject({ status: 'failed', cost_cents: 0 });
    expect(done.error).toMatch(/gemini returned \d+ bytes that are not a PNG, JPEG or WebP image/);
  });

  it('a plan model that answers no plan, even after a reminder, gives way to the plan laid out from the snapshot', async () => {
    const plansBefore = openaiChat.requests.filter(isPlan).length;
    const imagesBefore = openai.requests.length;
    planModel.prose = true;
    try {
      const done = await finished(
        (await create('imagegen-a-infographic', 'infographic-custom', { planModel: 'medium' })).body.export_job_id,
      );
      expect(done).toMatchObject({ status: 'completed', rendered_by: 'openai' });
    } finally {
      planModel.prose = false;
    }
    const plans = openaiChat.requests.filter(isPlan).slice(plansBefore);
    expect(plans).toHaveLength(2);
    expect((plans[1].body as { messages: unknown[] }).messages).toHaveLength(4); // system, prompt, prose, reminder
    const items = await snapshotItems();
    const prompt = (openai.requests[imagesBefore].body as { prompt: string }).prompt;
    expect(prompt).toContain('Panel 1: "Key dates"');
    expect(items.some((item) => prompt.includes(`${item.key_date}: `) && prompt.includes(item.title))).toBe(true);
  });

  it("queues a batch-lane account's vendor-drawn image export in the batch lane, like the other AI exports", async () => {
    const batch = await newAccount(t);
    const batchAuth = `Bearer ${batch.apiKey}`;
    const batchSnapshot = await scanSnapshot(t, batchAuth);
    expect((await cli('export-lane:set', '--account', batch.accountId, '--lane', 'batch')).code).toBe(0);
    const createFor = (provider: string, artifactType: string) =>
      t
        .http()
        .post('/v1/exports')
        .set('Authorization', batchAuth)
        .send({ snapshot_id: batchSnapshot, provider, artifact_type: artifactType, options: {} })
        .expect(202);
    const image = (await createFor('imagegen-b-infographic', 'infographic-custom')).body.export_job_id;
    const csv = (await createFor('internal-csv', 'csv')).body.export_job_id;
    expect(await finishedExport(t, image, batchAuth)).toMatchObject({ status: 'completed', rendered_by: 'gemini' });
    expect(await finishedExport(t, csv, batchAuth)).toMatchObject({ status: 'completed' });
    const queue = t.app.get<Queue>(getQueueToken(EXPORTS_QUEUE));
    expect((await queue.getJob(`export:${image}`))?.opts.priority).toBe(BATCH_EXPORT_PRIORITY);
    expect((await queue.getJob(`export:${csv}`))?.opts.priority).toBe(REALTIME_EXPORT_PRIORITY);
  });

  it('an operator cancel stops a vendor drawing in flight: the call is withdrawn, the export ends cancelled and nothing is charged', async () => {
    const budget = t.app.get(BudgetService);
    const before = await budget.view(accountId);
    const held = openai.holdNext();
    const imagesBefore = openai.requests.length;
    let id: string;
    try {
      id = (await create('imagegen-a-infographic', 'infographic-custom')).body.export_job_id;
      await pollUntil(async () => openai.requests.length > imagesBefore);
      const abandonedBefore = openai.abandoned;
      expect((await cli('exports:cancel', '--export', id)).code).toBe(0);
      await pollUntil(async () => openai.abandoned > abandonedBefore);
    } finally {
      held.release();
    }
    const done = await t.http().get(`/v1/exports/${id}`).set('Authorization', auth).expect(200);
    expect(done.body).toMatchObject({ status: 'cancelled', cost_cents: 0, download_url: null });
    await pollUntil(async () => (await budget.view(accountId)).reserved_cents === before.reserved_cents);
    expect((await budget.view(accountId)).spent_cents).toBe(before.spent_cents);
  });

  it('an image export the pool cannot cover fails naming the budget, before any vendor call', async () => {
    const plansBefore = openaiChat.requests.filter(isPlan).length;
    const imagesBefore = openai.requests.length;
    await t.app.get(BudgetService).setPool(accountId, (await t.app.get(BudgetService).view(accountId)).spent_cents + 1, 'test');
    const done = await finished((await create('imagegen-a-infographic', 'infographic-custom')).body.export_job_id);
    expect(done).toMatchObject({ status: 'failed', error: expect.stringMatching(/budget pool cannot cover/) });
    expect(openaiChat.requests.filter(isPlan).length).toBe(plansBefore);
    expect(openai.requests.length).toBe(imagesBefore);
  });
});

describe('image exports without a vendor key (the local renderer is the offline fallback)', () => {
  let openai: FakeImageServer;
  let t: TestApp;
  let auth: string;
  let snapshotId: string;

  beforeAll(async () => {
    openai = await startFakeImageServer('openai');
    // The base URL is set, the key is not: nothing may reach the vendor.
    t = await bootTestAppWithEnv({ OPENAI_BASE_URL: openai.baseUrl, OPENAI_API_KEY: '', GEMINI_API_KEY: '' });
    const owner = await newAccount(t);
    auth = `Bearer ${owner.apiKey}`;
    snapshotId = await scanSnapshot(t, auth);
  });
  afterAll(async () => {
    await t.close();
    await openai.close();
  });

  it('draws the page locally, labels it rendered_by offline, and charges nothing', async () => {
    const created = await t
      .http()
      .post('/v1/exports')
      .set('Authorization', auth)
      .send({
        snapshot_id: snapshotId,
        provider: 'imagegen-a-infographic',
        artifact_type: 'infographic-custom',
        options: { planModel: 'large' },
      })
      .expect(202);
    const done = await finishedExport(t, created.body.export_job_id, auth);
    expect(done).toMatchObject({ status: 'completed', result_mime: 'image/png', rendered_by: 'offline', cost_cents: 0 });
    const file = (await downloadExport(t, done.id, auth).expect(200)).body as Buffer;
    expect([file.readUInt32BE(16), file.readUInt32BE(20)]).toEqual([1080, 1350]);
    expect(openai.requests).toHaveLength(0);
  });

  it('shows rendered_by null on other types', async () => {
    const created = await t
      .http()
      .post('/v1/exports')
      .set('Authorization', auth)
      .send({ snapshot_id: snapshotId, provider: 'internal-csv', artifact_type: 'csv', options: {} })
      .expect(202);
    expect(await finishedExport(t, created.body.export_job_id, auth)).toMatchObject({ status: 'completed', rendered_by: null });
  });
});

describe('image plans on a self-hosted model (openai-compatible first for the tiers it maps)', () => {
  const PRICES = { input: 0.02, output: 0.05 };
  let selfHosted: FakeOpenAiCompatible;
  let openaiChat: FakeProvider;
  let openai: FakeImageServer;
  let t: TestApp;
  let auth: string;
  let snapshotId: string;

  beforeAll(async () => {
    selfHosted = await startFakeOpenAiCompatible({ models: ['llama-plan'] }, (request) => planReply(request)?.text);
    openaiChat = await startFakeProvider('openai');
    openai = await startFakeImageServer('openai', { forwardTo: openaiChat.baseUrl });
    t = await bootTestAppWithEnv({
      OPENAI_API_KEY: FAKE_API_KEY,
      OPENAI_BASE_URL: openai.baseUrl,
      GEMINI_API_KEY: '',
      OPENAI_COMPATIBLE_BASE_URL: selfHosted.baseUrl,
      OPENAI_COMPATIBLE_MODELS: 'large=llama-plan',
      OPENAI_COMPATIBLE_PRICE_CENTS_PER_1K_INPUT: String(PRICES.input),
      OPENAI_COMPATIBLE_PRICE_CENTS_PER_1K_OUTPUT: String(PRICES.output),
    });
    auth = `Bearer ${(await newAccount(t)).apiKey}`;
    snapshotId = await scanSnapshot(t, auth);
  });
  afterAll(async () => {
    await t.close();
    await Promise.all([selfHosted.close(), openaiChat.close(), openai.close()]);
  });

  it('planModel large plans on the self-hosted model, priced at the configured prices', async () => {
    const plansBefore = selfHosted.replies.length;
    const created = await t
      .http()
      .post('/v1/exports')
      .set('Authorization', auth)
      .send({
        snapshot_id: snapshotId,
        provider: 'imagegen-a-infographic',
        artifact_type: 'infographic-custom',
        options: { planModel: 'large' },
      })
      .expect(202);
    const done = await finishedExport(t, created.body.export_job_id, auth);
    expect(done).toMatchObject({ status: 'completed', rendered_by: 'openai' });
    const plans = selfHosted.replies.slice(plansBefore).filter((reply) => reply.request.rawBody.includes('infographic planner'));
    expect(plans).toHaveLength(1);
    expect((plans[0].request.body as { model: string }).model).toBe('llama-plan');
    expect(openaiChat.requests.filter(isPlan)).toHaveLength(0);
    const usage = plans[0].usage!;
    const plan = (usage.prompt_tokens / 1000) * PRICES.input + (usage.completion_tokens / 1000) * PRICES.output;
    expect(done.cost_cents).toBe(wholeCents(plan + imageCost('openai-image', openai)));
  });
});
