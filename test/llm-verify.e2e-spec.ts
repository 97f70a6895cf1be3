import { FAKE_API_KEY, startFakeProvider, type FakeProvider, type RecordedRequest } from './fakes/fake-provider-servers';
import { openSse } from './support/sse';
import { bootTestAppWithEnv, newAccount, type TestApp } from './support/test-app';

// The final QA stage (issue 15): the realist and auditor passes read the items' cited pages through the scan's
// verifyProvider (fetch-a: a direct GET; fetch-b: the reader service) and give the page text to the models.

const READER_KEY = 'reader-secret-key-0123456789';
const PAGES: Record<string, string> = {
  '/rules-a': 'The instant payment rules apply from the date announced by the authority. Firms must comply.',
  '/rules-b': 'The proposal was withdrawn by the authority and will not proceed.',
};

type Body = { model: string; system?: string; messages: Array<{ content: string }> };
const promptOf = (request: RecordedRequest) => (request.body as Body).messages.map((m) => m.content).join('\n');
const systemOf = (request: RecordedRequest) => (request.body as Body).system ?? '';

function isoInDays(days: number): string {
  return new Date(Date.now() + days * 86400000).toISOString().slice(0, 10);
}

/** Plays the analyst: one web item per numbered source served by the web fake, none from the calendar. */
function analystReply(prompt: string, webBase: string): string {
  const items = [...prompt.matchAll(/^\[S(\d+)\] .+? — (\S+)/gm)]
    .filter((match) => match[2].startsWith(webBase))
    .map((match, index) => ({
      ref: `S${match[1]}`,
      title: `Instant payments instrument ${new URL(match[2]).pathname.slice(1)}`,
      jurisdiction: 'EU',
      area: 'Payments',
      regulator: 'European Commission',
      instrument_type: 'regulation',
      stage: 'adopted',
      key_date: isoInDays(60 + index),
      date_confidence: 'confirmed',
      impact: 'high',
      summary: 'An instrument found on the web.',
      implications: 'Prepare.',
      source_numbers: [Number(match[1])],
    }));
  return JSON.stringify({ items, trends: [], executive_summary: { bottom_line: 'Busy.', priorities: [] }, executive_narrative: '' });
}

/** Plays a verifier: `disputed` for an item whose evidence says the instrument was withdrawn, else verified. */
function verdicts(prompt: string, disputes: boolean): string {
  const blocks = prompt.split(/\n(?=- id )/).filter((block) => block.startsWith('- id '));
  return JSON.stringify({
    items: blocks.map((block) => {
      const id = /^- id (\S+?):/.exec(block)![1];
      const withdrawn = /withdrawn/.test(block);
      return {
        id,
        status: disputes && withdrawn ? 'disputed' : 'verified',
        note: disputes && withdrawn ? 'The cited page says the proposal was withdrawn.' : 'The cited page supports the item.',
      };
    }),
  });
}

describe('final QA page reads through verifyProvider (LLM scans)', () => {
  let anthropic: FakeProvider;
  let perplexity: FakeProvider;
  let web: FakeProvider;
  let reader: FakeProvider;
  let t: TestApp;
  let baseUrl: string;
  let searchDelayMs = 0;

  beforeAll(async () => {
    web = await startFakeProvider('web', (request) => {
      const text = PAGES[request.path];
      return text === undefined
        ? undefined
        : {
            raw: `<html><head><title>${request.path}</title></head><body><p>${text}</p></body></html>`,
            headers: { 'content-type': 'text/html' },
          };
    });
    reader = await startFakeProvider(
      'reader',
      (request) => {
        const target = new URL(decodeURIComponent(request.path.slice(1)));
        const text = PAGES[target.pathname];
        return text === undefined
          ? { status: 404, raw: 'Not found', headers: { 'content-type': 'text/plain' } }
          : { text: `Read by the reader. ${text}` };
      },
      { apiKey: READER_KEY },
    );
    perplexity = await startFakeProvider('perplexity', () => ({
      // Slow enough for a test's progress stream to be open before the search phase ends.
      delayMs: searchDelayMs,
      results: ['/rules-a', '/rules-b', '/gone'].map((path) => ({
        url: `${web.baseUrl}${path}`,
        title: `Page ${path}`,
        snippet: 'Instant payments.',
      })),
    }));
    anthropic = await startFakeProvider('anthropic', (request) => {
      const system = systemOf(request);
      if (system.includes('regulatory-change analyst')) return { text: analystReply(promptOf(request), web.baseUrl) };
      if (system.includes('realist')) return { text: verdicts(promptOf(request), false) };
      if (system.includes('fact-checker')) return { text: verdicts(promptOf(request), true) };
      return undefined;
    });
    t = await bootTestAppWithEnv({
      ANTHROPIC_API_KEY: FAKE_API_KEY,
      ANTHROPIC_BASE_URL: anthropic.baseUrl,
      PERPLEXITY_API_KEY: FAKE_API_KEY,
      PERPLEXITY_BASE_URL: perplexity.baseUrl,
      READER_BASE_URL: reader.baseUrl,
      READER_API_KEY: READER_KEY,
      FETCH_ALLOW_PRIVATE_NETWORK: 'true',
    });
    await t.app.listen(0, '127.0.0.1');
    baseUrl = `http://127.0.0.1:${(t.app.getHttpServer().address() as { port: number }).port}`;
  });
  afterAll(async () => {
    await t.close();
    await Promise.all([anthropic, perplexity, web, reader].map((fake) => fake.close()));
  });

  const scan = async (body: object) => {
    const { apiKey } = await newAccount(t);
    const response = await t
      .http()
      .post('/v1/scans')
      .set('Authorization', `Bearer ${apiKey}`)
      .send({ jurisdictions: ['EU'], areas: ['Payments'], horizon: 24, model: 'anthropic-large', ...body })
      .expect(200);
    expect(response.body.status).toBe('completed');
    return response.body.snapshot;
  };
  type Pass = { pass: string; status: string; note: string; checked: { basis: string; pages: unknown[] } };
  type Item = { citations: Array<{ url: string }>; verification: { status: string; passes: Pass[] } };
  const byPath = (items: Item[], path: string) => items.find((item) => item.citations.some((c) => c.url.endsWith(path)))!;
  const verifierCalls = (since: number, kind: 'realist' | 'fact-checker') =>
    anthropic.requests.slice(since).filter((r) => systemOf(r).includes(kind));

  it('fetch-a: reads each cited page directly, gives the text to the realist and auditor models, and records what was read', async () => {
    const [webBefore, anthropicBefore] = [web.requests.length, anthropic.requests.length];
    const snapshot = await scan({ engine: 'v4.5-beta', auditor: true, fetchProvider: 'fetch-b', verifyProvider: 'fetch-a' });
    const items: Item[] = snapshot.data.items;
    expect(items).toHaveLength(3);

    // Page reads of the read phase went through the reader (fetchProvider); only the verification read the web directly.
    const gets = web.requests.slice(webBefore).map((r) => `${r.method} ${r.path}`);
    expect(new Set(gets)).toEqual(new Set(['GET /rules-a', 'GET /rules-b', 'GET /gone']));

    const [realist] = verifierCalls(anthropicBefore, 'realist');
    const [auditor] = verifierCalls(anthropicBefore, 'fact-checker');
    expect(realist.headers['x-api-key']).toBe(FAKE_API_KEY);
    // Realist: the analyst model; auditor: the medium tier of the analyst's provider.
    expect((realist.body as Body).model).toBe('claude-opus-4-1-20250805');
    expect((auditor.body as Body).model).toBe('claude-sonnet-4-5-20250929');
    for (const call of [realist, auditor]) {
      expect(promptOf(call)).toContain(PAGES['/rules-a']);
      expect(promptOf(call)).toContain(PAGES['/rules-b']);
    }

    const verified = byPath(items, '/rules-a').verification;
    expect(verified.status).toBe('verified');
    expect(verified.passes.map((p) => [p.pass, p.status])).toEqual([
      ['realist', 'verified'],
      ['auditor', 'verified'],
    ]);
    expect(verified.passes[0].checked).toMatchObject({
      basis: 'cited_pages',
      provider: 'fetch-a',
      pages: [{ url: `${web.baseUrl}/rules-a`, outcome: 'read' }],
    });

    const disputed = byPath(items, '/rules-b').verification;
    expect(disputed.status).toBe('disputed');
    expect(disputed.passes.find((p) => p.pass === 'auditor')).toMatchObject({
      status: 'disputed',
      note: expect.stringMatching(/withdrawn/),
    });

    const unreachable = byPath(items, '/gone').verification;
    expect(unreachable.status).toBe('unverified');
    for (const pass of unreachable.passes) {
      expect(pass).toMatchObject({ status: 'unverified', note: expect.stringMatching(/cited pages could be read.*HTTP 404/) });
      expect(pass.checked.pages).toEqual([{ url: `${web.baseUrl}/gone`, outcome: 'unreachable', detail: expect.stringMatching(/404/) }]);
    }
    expect(snapshot.data.auditor).toMatchObject({ ran: true, passes: ['realist', 'auditor'], verified_count: 1 });
    expect(snapshot.cost_cents).toBeGreaterThan(0);
  });

  it('fetch-b: reads the cited pages through the reader service with its key, and the models see the reader text', async () => {
    const [readerBefore, anthropicBefore] = [reader.requests.length, anthropic.requests.length];
    const snapshot = await scan({ engine: 'v4', realist: true, verifyProvider: 'fetch-b' });
    const reads = reader.requests.slice(readerBefore);
    for (const path of ['/rules-a', '/rules-b', '/gone']) {
      const read = reads.find((r) => r.path === `/${web.baseUrl}${path}`);
      expect(read).toMatchObject({ method: 'GET', headers: expect.objectContaining({ authorization: `Bearer ${READER_KEY}` }) });
    }
    const realistCalls = verifierCalls(anthropicBefore, 'realist');
    expect(realistCalls).toHaveLength(1);
    expect(promptOf(realistCalls[0])).toContain(`Read by the reader. ${PAGES['/rules-a']}`);
    expect(verifierCalls(anthropicBefore, 'fact-checker')).toHaveLength(0);

    const items: Item[] = snapshot.data.items;
    expect(byPath(items, '/rules-a').verification).toMatchObject({
      status: 'verified',
      passes: [{ pass: 'realist', status: 'verified', checked: { basis: 'cited_pages', provider: 'fetch-b' } }],
    });
    expect(byPath(items, '/gone').verification).toMatchObject({
      status: 'unverified',
      passes: [{ pass: 'realist', status: 'unverified', note: expect.stringMatching(/None of the item's cited pages could be read/) }],
    });
  });

  it('reports what each phase really did: queries run, pages read, items kept and checked', async () => {
    searchDelayMs = 400;
    try {
      const { apiKey } = await newAccount(t);
      const created = await t
        .http()
        .post('/v1/scans?mode=async')
        .set('Authorization', `Bearer ${apiKey}`)
        .send({
          jurisdictions: ['EU'],
          areas: ['Payments'],
          horizon: 24,
          model: 'anthropic-large',
          engine: 'v4.5-beta',
          auditor: true,
          fetchProvider: 'fetch-b',
          verifyProvider: 'fetch-a',
        })
        .expect(202);
      const stream = await openSse(baseUrl, created.body.stream_url, { Authorization: `Bearer ${apiKey}` });
      await stream.ended;
      const messages = Object.fromEntries(
        stream.events.filter((e) => e.type === 'progress').map((e) => [e.phase as string, e.message as string]),
      );
      expect(messages.search).toBe('Ran 1 search query with perplexity: 3 web sources');
      expect(messages.read).toBe('Read 2 of 3 web source pages through fetch-b (1 unreadable)');
      expect(messages.analyse).toBe('The analyst proposed 3 items: kept 3; grouped into 0 trends');
      expect(messages.verify).toBe(
        'Read 2 of 3 cited pages through fetch-a (1 unreachable); the realist and auditor passes checked 2 items against them: 1 of 3 items verified, 1 disputed',
      );
    } finally {
      searchDelayMs = 0;
    }
  });
});
