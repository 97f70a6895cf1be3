import { DataSource } from 'typeorm';
import { costCents } from '../src/domain/vocabulary/models';
import { ScanEventsService } from '../src/modules/scans/scan-events.service';
import { analystReply, anthropicMessage, openaiChat, promptsOf, registerItemIds, type ChosenUsage } from './fakes/council-fakes';
import { FAKE_API_KEY, startFakeProvider, type FakeProvider, type FakeReply, type RecordedRequest } from './fakes/fake-provider-servers';
import { pdfText, squash } from './support/inspect-artefact';
import { pollUntil } from './support/poll';
import { bootTestAppWithEnv, downloadExport, finishedExport, newAccount, type TestApp } from './support/test-app';

/** What each kind of request costs on the wire: chosen, so the test can price the scan itself. */
const USAGE: Record<string, ChosenUsage> = {
  analyst: { input: 4000, output: 1500 },
  'sub-editor': { input: 900, output: 300 },
  council: { input: 2000, output: 800 },
  plain: { input: 1500, output: 700 },
  other: { input: 10, output: 10 },
};
/** The vendor model ids sent on the wire, priced as the catalogue entries they belong to. */
const PRICE_ID: Record<string, string> = {
  'claude-opus-4-1-20250805': 'anthropic-large',
  'claude-sonnet-4-5-20250929': 'anthropic-writer',
  'gpt-5-2025-08-07': 'openai-large',
  'gpt-5.1-2025-11-13': 'openai-writer',
};

const COUNCIL_PROSE = {
  bottom_line: 'Two seats agree on most deadlines; one date is disputed [S1].',
  priorities: ['Plan for the earliest date [S1]'],
  executive_narrative: 'The council found a busy window [S1]. One date is disputed between the seats [S2].',
  briefing_headline: 'Council: a busy payments horizon',
  briefing_standfirst: 'The seats agree on most instruments.',
  briefing_priorities: ['[EU] Plan for the earliest date'],
  bottom_line_tight: 'Busy, with one disputed date.',
  pull_quote: 'Deadlines cluster.',
  sentiment_label: 'intensifying',
  sentiment_rationale: 'Many confirmed dates.',
};

type RegisterMode = 'plain' | 'invented-year';
let registerMode: RegisterMode = 'plain';

/** The plain-English register the writer returns, or one that invents a year (a guardrail breach). */
function registerReply(prompt: string): string {
  const ids = registerItemIds(prompt);
  const cite = /\[\[cite:(\d+)\]\]/.exec(prompt)?.[1] ?? '1';
  return JSON.stringify({
    items: ids.map((id, i) => ({
      id,
      summary:
        registerMode === 'invented-year' && i === 0 ? 'This rule starts in 2099.' : 'Plain words about this change. Firms must get ready.',
      implications: 'Check what you need to change.',
    })),
    executive_summary: { bottom_line: 'Some payment rules change soon.', priorities: ['Get ready for the first rule.'] },
    executive_narrative: `Payment rules are changing. [[cite:${cite}]]\n\nCheck the sources before you act.`,
    briefing: {
      briefing_headline: 'Payment rules are changing soon',
      briefing_standfirst: 'Some payment rules change soon.',
      priorities: ['[EU] Get ready for the first rule'],
      bottom_line_tight: 'Get ready.',
      pull_quote: 'Payment rules are changing.',
      sentiment_label: 'steady',
      sentiment_rationale: 'More rules are coming.',
    },
  });
}

/** The role a request plays, read from its system prompt. */
function roleOf(system: string): keyof typeof USAGE {
  if (system.includes('regulatory-change analyst')) return 'analyst';
  if (system.includes('sub-editor')) return 'sub-editor';
  if (system.includes('council writer')) return 'council';
  if (system.includes('plain-English editor')) return 'plain';
  return 'other';
}

const SCOPE = { jurisdictions: ['EU'], areas: ['Payments'], horizon: 24 };

function vendorFake(kind: 'anthropic' | 'openai', seatB: boolean) {
  const reply = kind === 'anthropic' ? anthropicMessage : openaiChat;
  return (request: RecordedRequest): FakeReply => {
    const { system, prompt } = promptsOf(request);
    const role = roleOf(system);
    let text = '{}';
    if (role === 'analyst') {
      const scanDate = /Scan date \(today\): (\d{4}-\d{2}-\d{2})/.exec(prompt)![1];
      // Seat B reads the first candidate as due today and high impact, and leaves the last one out.
      const count = [...prompt.matchAll(/^- id /gm)].length;
      text = seatB
        ? analystReply(prompt, 'medium', (i) => (i === 0 ? { key_date: scanDate, impact: 'high' } : i === count - 1 ? { omit: true } : {}))
        : analystReply(prompt, 'medium');
    } else if (role === 'sub-editor') {
      text = JSON.stringify({ ...COUNCIL_PROSE, priorities: COUNCIL_PROSE.briefing_priorities });
    } else if (role === 'council') {
      text = JSON.stringify({
        executive_summary: { bottom_line: COUNCIL_PROSE.bottom_line, priorities: COUNCIL_PROSE.priorities },
        executive_narrative: COUNCIL_PROSE.executive_narrative,
        briefing: { ...COUNCIL_PROSE, priorities: COUNCIL_PROSE.briefing_priorities },
      });
    } else if (role === 'plain') {
      text = registerReply(prompt);
    }
    return reply(request, text, USAGE[role]);
  };
}

/** The cost of every request the fakes answered, priced by the catalogue's price table. */
function pricedRequests(...fakes: FakeProvider[]): number {
  let total = 0;
  for (const fake of fakes) {
    for (const request of fake.requests) {
      const { system, model } = promptsOf(request);
      const usage = USAGE[roleOf(system)];
      total += costCents(PRICE_ID[model], { inputTokens: usage.input, outputTokens: usage.output });
    }
  }
  return total;
}

const analystRequests = (fake: FakeProvider) => fake.requests.filter((r) => roleOf(promptsOf(r).system) === 'analyst');

describe('council scans on configured providers', () => {
  let anthropic: FakeProvider;
  let openai: FakeProvider;
  let t: TestApp;

  beforeAll(async () => {
    anthropic = await startFakeProvider('anthropic', vendorFake('anthropic', false));
    openai = await startFakeProvider('openai', vendorFake('openai', true));
    t = await bootTestAppWithEnv({
      ANTHROPIC_API_KEY: FAKE_API_KEY,
      ANTHROPIC_BASE_URL: anthropic.baseUrl,
      OPENAI_API_KEY: FAKE_API_KEY,
      OPENAI_BASE_URL: openai.baseUrl,
      GEMINI_API_KEY: '',
      COHERE_API_KEY: '',
      PERPLEXITY_API_KEY: '',
      DEEPL_API_KEY: '',
    });
  });
  afterAll(async () => {
    await t.close();
    await anthropic.close();
    await openai.close();
  });
  beforeEach(() => {
    anthropic.requests.length = 0;
    openai.requests.length = 0;
    registerMode = 'plain';
  });

  const scan = async (apiKey: string, body: object) =>
    (await t.http().post('/v1/scans').set('Authorization', `Bearer ${apiKey}`).send(body).expect(200)).body;

  it('seats two vendors, merges their disagreement visibly, has the writer compose, and charges what the fakes reported', async () => {
    const { apiKey } = await newAccount(t);
    const body = await scan(apiKey, { ...SCOPE, engine: 'council' });
    expect(body.status).toBe('completed');

    // Both vendors analysed, each with its own large model and credential.
    const [seatA] = analystRequests(anthropic);
    const [seatB] = analystRequests(openai);
    expect(seatA).toMatchObject({ method: 'POST', path: '/v1/messages' });
    expect(seatA.headers['x-api-key']).toBe(FAKE_API_KEY);
    expect(promptsOf(seatA).model).toBe('claude-opus-4-1-20250805');
    expect(seatB).toMatchObject({ method: 'POST', path: '/v1/chat/completions' });
    expect(seatB.headers.authorization).toBe(`Bearer ${FAKE_API_KEY}`);
    expect(promptsOf(seatB).model).toBe('gpt-5-2025-08-07');
    expect(promptsOf(seatA).prompt).toContain('Calendar candidates');
    expect(promptsOf(seatB).prompt).toContain('Calendar candidates');

    // Each seat's briefing was drafted by its own vendor's writer model, as in a standard scan.
    expect(anthropic.requests.filter((r) => roleOf(promptsOf(r).system) === 'sub-editor').map((r) => promptsOf(r).model)).toEqual([
      'claude-sonnet-4-5-20250929',
    ]);
    expect(openai.requests.filter((r) => roleOf(promptsOf(r).system) === 'sub-editor').map((r) => promptsOf(r).model)).toEqual([
      'gpt-5.1-2025-11-13',
    ]);

    // The writer of seat A's vendor composed the composite's prose from the merged items.
    const writer = anthropic.requests.filter((r) => roleOf(promptsOf(r).system) === 'council');
    expect(writer).toHaveLength(1);
    expect(promptsOf(writer[0]).model).toBe('claude-sonnet-4-5-20250929');
    expect(promptsOf(writer[0]).prompt).toMatch(/DISPUTED/);

    const { data } = body.snapshot;
    const total = data.items.length;
    expect(total).toBeGreaterThanOrEqual(3);
    expect(data._meta).toMatchObject({
      engine_mode: 'llm',
      council: {
        mode: 'llm',
        seats: [
          { seat: 'A', provider: 'anthropic', model: 'anthropic-large', vendor_model: 'claude-opus-4-1-20250805' },
          { seat: 'B', provider: 'openai', model: 'openai-large', vendor_model: 'gpt-5-2025-08-07' },
        ],
        writer: { provider: 'anthropic', model: 'anthropic-writer', vendor_model: 'claude-sonnet-4-5-20250929', briefing: 'writer' },
        merge: { agreed: total - 2, disputed: 1, single_seat: 1 },
      },
    });
    // The writer also wrote the composite's plain-English register.
    expect(data._meta.simple_register).toEqual({ source: 'writer', writer_model: 'anthropic-writer' });
    expect(anthropic.requests.filter((r) => roleOf(promptsOf(r).system) === 'plain').map((r) => promptsOf(r).model)).toEqual([
      'claude-sonnet-4-5-20250929',
    ]);
    const disputed = data.items.filter((i: { council: { agreement: string } }) => i.council.agreement === 'disputed');
    expect(disputed).toHaveLength(1);
    const scanDate = data._meta.scan_date;
    expect(disputed[0].key_date).toBe(scanDate);
    expect(disputed[0].impact).toBe('high');
    expect(disputed[0].council.disputes).toEqual(
      expect.arrayContaining([
        { field: 'key_date', seat_a: expect.any(String), seat_b: scanDate, composite: scanDate, rule: 'earlier key date' },
        { field: 'impact', seat_a: 'medium', seat_b: 'high', composite: 'high', rule: 'higher impact' },
      ]),
    );
    expect(data.items.filter((i: { council: { agreement: string; seats: string[] } }) => i.council.agreement === 'single_seat')).toEqual([
      expect.objectContaining({ council: { agreement: 'single_seat', seats: ['A'], disputes: [] } }),
    ]);
    expect(data.executive_summary.bottom_line).toBe('Two seats agree on most deadlines; one date is disputed.');
    // [S1] became the composite's citation marker (the live reply keeps markers).
    expect(data.executive_narrative).toMatch(
      /^The council found a busy window \[\[cite:1\]\]\. One date is disputed between the seats \[\[cite:2\]\]\.$/,
    );
    expect(data._briefing.briefing_headline).toBe(COUNCIL_PROSE.briefing_headline);
    // Citation ids are unique across the composite.
    const ids = new Map<string, number>();
    for (const item of data.items) for (const c of item.citations) expect(ids.get(c.url) ?? (ids.set(c.url, c.id), c.id)).toBe(c.id);

    // Three snapshots: the composite and one per seat, each seat holding its own vendor's reading.
    const rows = await t.app
      .get(DataSource)
      .query("SELECT id, kind, data FROM snapshots WHERE scan_id = $1 ORDER BY kind, data #>> '{_meta,council_seat}'", [body.scan_id]);
    expect(rows.map((r: { kind: string }) => r.kind)).toEqual(['council_composite', 'council_seat', 'council_seat']);
    expect(rows[1].data._meta).toMatchObject({ council_seat: 'seat-a', engine_mode: 'llm', analyst_model: 'anthropic-large' });
    expect(rows[2].data._meta).toMatchObject({ council_seat: 'seat-b', engine_mode: 'llm', analyst_model: 'openai-large' });
    expect(rows[2].data.items).toHaveLength(total - 1);

    // The cost is every reply's usage priced by the price table.
    expect(body.snapshot.cost_cents).toBeCloseTo(pricedRequests(anthropic, openai), 6);

    // Progress names the real work.
    const logged = (await t.app.get(ScanEventsService).missedSince(body.scan_id, '0-0'))!;
    const messages = logged.filter((e) => e.event.type === 'progress').map((e) => (e.event as { message: string }).message);
    expect(messages).toEqual(
      expect.arrayContaining([
        `Seat A (anthropic claude-opus-4-1-20250805) analysed ${total} item(s)`,
        `Seat B (openai gpt-5-2025-08-07) analysed ${total - 1} item(s)`,
        `Merged: ${total - 2} agreed, 1 disputed, 1 single-seat`,
        'The writer (anthropic claude-sonnet-4-5-20250929) composed the briefing',
      ]),
    );
    expect(messages.join('\n')).not.toMatch(/offline/i);
  });

  it('fails the scan naming the seat whose vendor keeps failing, after the provider retries', async () => {
    const { apiKey } = await newAccount(t);
    openai.failNext(500, 3);
    const created = await t
      .http()
      .post('/v1/scans?mode=async')
      .set('Authorization', `Bearer ${apiKey}`)
      .send({ ...SCOPE, engine: 'council' })
      .expect(202);
    const failed = await pollUntil(async () => {
      const { body } = await t.http().get(`/v1/scans/${created.body.scan_id}`).set('Authorization', `Bearer ${apiKey}`).expect(200);
      return body.status === 'failed' ? body : undefined;
    }, 60_000);
    expect(failed.error).toMatch(/^Council seat B \(openai gpt-5-2025-08-07\) failed: .*500/);
    expect(openai.requests.filter((r) => r.path === '/v1/chat/completions')).toHaveLength(3);
    const rows = await t.app.get(DataSource).query('SELECT id FROM snapshots WHERE scan_id = $1', [created.body.scan_id]);
    expect(rows).toHaveLength(0);
  }, 90_000);

  it('serves the writer-made plain-English register for ?language=simple on an LLM scan', async () => {
    const { apiKey } = await newAccount(t);
    const body = await scan(apiKey, { ...SCOPE, model: 'anthropic-large' });
    const plainRequests = anthropic.requests.filter((r) => roleOf(promptsOf(r).system) === 'plain');
    expect(plainRequests).toHaveLength(1);
    expect(plainRequests[0].headers['x-api-key']).toBe(FAKE_API_KEY);
    expect(promptsOf(plainRequests[0]).prompt).toMatch(/\[\[cite:\d+\]\]/);
    const auth = { Authorization: `Bearer ${apiKey}` };
    const simple = await t.http().get(`/v1/snapshots/${body.snapshot_id}?language=simple`).set(auth).expect(200);
    expect(simple.body.data.items[0].summary).toBe('Plain words about this change. Firms must get ready.');
    expect(simple.body.data.executive_summary.bottom_line).toBe('Some payment rules change soon.');
    expect(simple.body.data.executive_narrative).toBe('Payment rules are changing.\n\nCheck the sources before you act.');
    expect(simple.body.data._meta).toMatchObject({ language: 'simple', simple_register: { source: 'writer' } });
    // The briefing block is the writer's, with the English sentiment label kept.
    expect(simple.body.data._briefing).toMatchObject({
      briefing_headline: 'Payment rules are changing soon',
      sentiment_label: 'intensifying',
    });
    expect(simple.body.data._simple).toBeUndefined();
    const narrative = await t.http().get(`/v1/snapshots/${body.snapshot_id}/executive-narrative?language=simple`).set(auth).expect(200);
    expect(JSON.stringify(narrative.body)).toContain('Payment rules are changing.');
    // An export in `simple` carries the writer's register too.
    const created = await t
      .http()
      .post('/v1/exports')
      .set(auth)
      .send({
        snapshot_id: body.snapshot_id,
        provider: 'internal-briefing-pdf',
        artifact_type: 'briefing-pdf',
        options: { targetLanguage: 'simple' },
      })
      .expect(202);
    const job = await finishedExport(t, created.body.export_job_id, auth.Authorization);
    expect(job).toMatchObject({ status: 'completed', effective_locale: 'simple', locale_provenance: 'requested' });
    const pdf = squash((await pdfText((await downloadExport(t, job.id, auth.Authorization).expect(200)).body as Buffer)).text);
    expect(pdf).toContain(squash('Payment rules are changing soon'));
    expect(pdf).toContain(squash('Some payment rules change soon.'));
    // The English original is untouched.
    const english = await t.http().get(`/v1/snapshots/${body.snapshot_id}`).set(auth).expect(200);
    expect(english.body.data.items[0].summary).toMatch(/^Analysed summary/);
  });

  it('falls back to the rule-built register, labelled, when the writer invents a fact', async () => {
    registerMode = 'invented-year';
    const { apiKey } = await newAccount(t);
    const body = await scan(apiKey, { ...SCOPE, model: 'anthropic-large' });
    const simple = await t
      .http()
      .get(`/v1/snapshots/${body.snapshot_id}?language=simple`)
      .set('Authorization', `Bearer ${apiKey}`)
      .expect(200);
    expect(simple.body.data.items[0].summary).toMatch(/Date to watch: /);
    expect(simple.body.data.items[0].summary).not.toContain('2099');
    expect(simple.body.data._meta.simple_register).toEqual({
      source: 'rule',
      reason: expect.stringMatching(/writer.*2099/),
    });
  });
});

describe('a council with one configured vendor', () => {
  let anthropic: FakeProvider;
  let t: TestApp;

  beforeAll(async () => {
    anthropic = await startFakeProvider('anthropic', vendorFake('anthropic', false));
    t = await bootTestAppWithEnv({
      ANTHROPIC_API_KEY: FAKE_API_KEY,
      ANTHROPIC_BASE_URL: anthropic.baseUrl,
      OPENAI_API_KEY: '',
      GEMINI_API_KEY: '',
      COHERE_API_KEY: '',
      PERPLEXITY_API_KEY: '',
      DEEPL_API_KEY: '',
    });
  });
  afterAll(async () => {
    await t.close();
    await anthropic.close();
  });

  it('seats the same vendor twice, and the seats agree', async () => {
    const { apiKey } = await newAccount(t);
    const body = (
      await t
        .http()
        .post('/v1/scans')
        .set('Authorization', `Bearer ${apiKey}`)
        .send({ ...SCOPE, engine: 'council' })
        .expect(200)
    ).body;
    const analysts = analystRequests(anthropic);
    expect(analysts).toHaveLength(2);
    for (const request of analysts) expect(promptsOf(request).model).toBe('claude-opus-4-1-20250805');
    const { council } = body.snapshot.data._meta;
    expect(council.seats.map((s: { provider: string }) => s.provider)).toEqual(['anthropic', 'anthropic']);
    expect(council.merge).toMatchObject({ agreed: body.snapshot.data.items.length, disputed: 0, single_seat: 0 });
    expect(body.snapshot.cost_cents).toBeCloseTo(pricedRequests(anthropic), 6);
  });
});

describe('a council with no configured vendor', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await bootTestAppWithEnv({
      ANTHROPIC_API_KEY: '',
      OPENAI_API_KEY: '',
      GEMINI_API_KEY: '',
      COHERE_API_KEY: '',
      PERPLEXITY_API_KEY: '',
      DEEPL_API_KEY: '',
    });
  });
  afterAll(() => t.close());

  it('is the offline calendar council, labelled so in _meta and in its progress', async () => {
    const { apiKey } = await newAccount(t);
    const body = (
      await t
        .http()
        .post('/v1/scans')
        .set('Authorization', `Bearer ${apiKey}`)
        .send({ ...SCOPE, engine: 'council' })
        .expect(200)
    ).body;
    expect(body.snapshot.data._meta).toMatchObject({
      engine_mode: 'offline',
      council: { mode: 'offline', seats: ['impact', 'timeline'] },
    });
    const logged = (await t.app.get(ScanEventsService).missedSince(body.scan_id, '0-0'))!;
    const messages = logged.filter((e) => e.event.type === 'progress').map((e) => (e.event as { message: string }).message);
    for (const phase of ['search', 'analyse', 'merge', 'write']) {
      const event = logged.find((e) => e.event.type === 'progress' && (e.event as { phase: string }).phase === phase)!;
      expect((event.event as { message: string }).message).toMatch(/^Offline council: /);
    }
    expect(messages).toContain('Offline council: ranked the calendar by impact (seat A) and by date (seat B); no model analysed it');
    expect(messages.join('\n')).not.toMatch(/completed their analyses|Seat A \(/);
  });
});
