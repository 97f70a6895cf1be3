import { costCents } from '../../domain/vocabulary/models';
import type { ResolvedScanConfig } from '../../domain/scan-config.types';
import type { BriefingBlock, SnapshotItem, SnapshotTrend } from '../envelope.types';
import { keyDate, makeCalendar, makeEntry } from '../../../test/fixtures/calendar.fixture';
import { selectEntries } from '../analysis/selection';
import { AnthropicAdapter } from '../../infra/providers/llm/anthropic.adapter';
import { FAKE_API_KEY, type FakeProvider, type RecordedRequest, startFakeProvider } from '../../../test/fakes/fake-provider-servers';
import { ReaderFetchAdapter } from '../../infra/providers/fetch/reader-fetch.adapter';
import { OpenAiAdapter } from '../../infra/providers/llm/openai.adapter';
import { PerplexityAdapter } from '../../infra/providers/llm/perplexity.adapter';
import type { LlmPort, SearchPort } from '../../infra/providers/ports';
import { type LlmAnalysisDeps, type LlmAnalysisInput, analyseWithLlm, webItemId } from './llm-analysis';
import { JSON_REMINDER } from './prompts';
import { MAX_VERIFY_PAGES } from './verify-pages';
import { EngineFailure } from '../../domain/failures';
import { ProviderTransientError } from '../../infra/providers/provider-errors';

const SCAN_DATE = '2026-12-01';

const config = (overrides: Partial<ResolvedScanConfig> = {}): ResolvedScanConfig => ({
  jurisdictions: ['EU'],
  areas: ['AML / KYC'],
  horizon: 12,
  engine: 'v4',
  model: 'anthropic-medium',
  searchModel: null,
  verificationMode: null,
  realist: false,
  auditor: false,
  auditorModel: 'medium',
  fetchProvider: null,
  searchProvider: null,
  verifyProvider: 'fetch-a',
  translationLanguages: [],
  ...overrides,
});

const calendar = makeCalendar([
  makeEntry({
    id: 'eu-amlr',
    title: 'Anti-Money Laundering Regulation (AMLR)',
    regulator: 'AMLA',
    impact: 'high',
    milestones: [keyDate('2027-07-10', 'confirmed', 'Application of the single rulebook')],
    sources: [{ url: 'https://eur-lex.example/amlr', title: 'Regulation (EU) 2024/1624', publisher: 'EUR-Lex' }],
  }),
]);

const input = (overrides: Partial<ResolvedScanConfig> = {}): LlmAnalysisInput => {
  const cfg = config(overrides);
  return {
    config: cfg,
    scanDate: SCAN_DATE,
    candidates: selectEntries(calendar, {
      jurisdictions: cfg.jurisdictions,
      areas: cfg.areas,
      horizonMonths: cfg.horizon,
      scanDate: SCAN_DATE,
    }),
    calendarVersion: calendar.version,
  };
};

// Sources: S1 is the calendar source of eu-amlr; S2-S4 are the fake perplexity hits (DEFAULT_FAKE_HITS).
const WEB_TITLE = 'Regulator final rules on customer due diligence';
const ANALYSIS = {
  items: [
    {
      ref: 'eu-amlr',
      title: 'AMLR (model wording)',
      jurisdiction: 'EU',
      area: 'AML',
      regulator: 'Someone else',
      instrument_type: 'regulation',
      stage: 'adopted',
      key_date: '2027-07-10',
      date_confidence: 'confirmed',
      impact: 'high',
      summary: 'The single rulebook applies [S1].',
      implications: 'Firms must update CDD.',
      source_numbers: [1],
    },
    {
      ref: 'S2',
      title: WEB_TITLE,
      jurisdiction: 'European Union',
      area: 'AML/KYC',
      regulator: 'EBA',
      instrument_type: 'guidance',
      stage: 'adopted',
      key_date: '2027-03-01',
      date_confidence: 'expected',
      impact: 'medium',
      summary: 'Final rules apply from March 2027.',
      implications: 'Firms must review onboarding.',
      source_numbers: ['S2', 3],
    },
    {
      ref: 'S4',
      title: 'Invented Past Rule',
      jurisdiction: 'EU',
      area: 'AML / KYC',
      key_date: '2026-06-01',
      stage: 'adopted',
      date_confidence: 'confirmed',
      impact: 'high',
      summary: 'Already happened.',
      implications: 'None.',
      source_numbers: [4],
    },
    {
      ref: 'S4',
      title: 'US Foreign Rule',
      jurisdiction: 'US',
      area: 'AML / KYC',
      key_date: '2027-02-01',
      source_numbers: [4],
    },
    { ref: 'X1', title: 'Unsourced Rule', jurisdiction: 'EU', area: 'AML / KYC', key_date: '2027-02-01', source_numbers: [] },
    { ref: 'X2', title: 'Bad Source Rule', jurisdiction: 'EU', area: 'AML / KYC', key_date: '2027-02-01', source_numbers: [99] },
  ],
  trends: [
    { title: 'AML rulebook goes live', description: 'The single rulebook lands [S1].', item_refs: ['eu-amlr', 'S2'], momentum: 'rising' },
    { title: 'Ghost trend', description: 'Only dropped items.', item_refs: ['X1'], momentum: 'rising' },
  ],
  executive_summary: {
    bottom_line: 'Two AML milestones fall due [S1].',
    priorities: ['Prepare for AMLR [S1]', 'Review Invented Past Rule'],
  },
  executive_narrative:
    'AMLR leads the window [S1]. Final CDD rules follow [S2, S3]. An unknown source is cited [S9].\n\nThe Invented Past Rule also matters [S4]. Plan now.',
};

const BRIEFING: BriefingBlock = {
  briefing_headline: 'AMLR heads two AML milestones',
  briefing_standfirst: 'Two instruments fall due within a year.',
  priorities: ['[EU] AMLR applies, 10 Jul 2027', 'untagged priority'],
  bottom_line_tight: 'Two due, one high impact.',
  pull_quote: 'The single rulebook arrives in July.',
  sentiment_label: 'Steady',
  sentiment_rationale: 'One high-impact item with a confirmed date.',
};

type Role = 'analyst' | 'writer' | 'auditor' | 'other';
function roleOf(request: RecordedRequest): Role {
  const body = request.body as { system?: string; messages: Array<{ role: string; content: string }> };
  const system = body.system ?? body.messages.find((m) => m.role === 'system')?.content ?? '';
  if (system.includes('regulatory-change analyst')) return 'analyst';
  if (system.includes('sub-editor')) return 'writer';
  if (system.includes('fact-checker')) return 'auditor';
  return 'other';
}

/** Wraps a port so the test can sum the usage it reported. */
function recording<T extends LlmPort>(port: T, usages: Array<{ inputTokens: number; outputTokens: number }>): LlmPort {
  return {
    provider: port.provider,
    async complete(request, signal) {
      const response = await port.complete(request, signal);
      usages.push(response.usage);
      return response;
    },
  };
}

describe('analyseWithLlm', () => {
  let anthropic: FakeProvider;
  let openai: FakeProvider;
  let perplexity: FakeProvider;
  let reader: FakeProvider;
  let analystReplies: string[];
  let writerReply: string;
  let auditorReply: string;
  const phases: Array<{ name: string; message: string; cost: number }> = [];
  const hooks = {
    phase: async (name: string, message: string, cost: number) => {
      phases.push({ name, message, cost });
    },
  };

  beforeEach(async () => {
    phases.length = 0;
    analystReplies = [JSON.stringify(ANALYSIS)];
    writerReply = JSON.stringify(BRIEFING);
    auditorReply = JSON.stringify({ items: [] });
    anthropic = await startFakeProvider('anthropic', (request) => {
      const role = roleOf(request);
      if (role === 'analyst') return { text: analystReplies.length > 1 ? analystReplies.shift()! : analystReplies[0] };
      if (role === 'writer') return { text: writerReply };
      return undefined;
    });
    openai = await startFakeProvider('openai', (request) => (roleOf(request) === 'auditor' ? { text: auditorReply } : undefined));
    perplexity = await startFakeProvider('perplexity');
    reader = await startFakeProvider('reader');
  });
  afterEach(async () => {
    await Promise.all([anthropic, openai, perplexity, reader].map((fake) => fake.close()));
  });

  const deps = (extra: Partial<LlmAnalysisDeps> = {}): LlmAnalysisDeps => ({
    analyst: {
      port: new AnthropicAdapter({ apiKey: FAKE_API_KEY, baseUrl: anthropic.baseUrl }),
      modelId: 'anthropic-medium',
      vendorModel: 'claude-sonnet-4-5-20250929',
    },
    search: {
      port: new PerplexityAdapter({ apiKey: FAKE_API_KEY, baseUrl: perplexity.baseUrl }),
      modelId: 'perplexity-sonar',
      vendorModel: 'sonar',
    },
    fetch: new ReaderFetchAdapter({ baseUrl: reader.baseUrl }),
    ...extra,
  });
  const auditorDep = () => ({
    port: new OpenAiAdapter({ apiKey: FAKE_API_KEY, baseUrl: openai.baseUrl }),
    modelId: 'openai-auditor',
    vendorModel: 'gpt-5-mini-2025-08-07',
  });

  it('runs search, read, analyse, sub-edit and builds items from calendar candidates and search sources', async () => {
    const { envelope } = await analyseWithLlm(deps(), input(), hooks);
    const items = envelope.items as SnapshotItem[];
    const webId = webItemId(WEB_TITLE, 'EU');
    expect(items.map((i) => i.id)).toEqual(['eu-amlr', webId]);

    const [amlr, web] = items;
    // Calendar-grounded: id, title, regulator and citations from the calendar entry.
    expect(amlr).toMatchObject({
      title: 'Anti-Money Laundering Regulation (AMLR)',
      regulator: 'AMLA',
      jurisdiction: 'EU',
      area: 'AML / KYC',
    });
    expect(amlr.citations).toEqual([
      { id: 1, url: 'https://eur-lex.example/amlr', title: 'Regulation (EU) 2024/1624', publisher: 'EUR-Lex', published_at: null, kind: 'official' },
    ]);
    expect(amlr.summary).toBe('The single rulebook applies.');
    // Web-grounded: resolved names, citations from the numbered search sources.
    expect(web).toMatchObject({ jurisdiction: 'EU', area: 'AML / KYC', regulator: 'EBA', key_date: '2027-03-01', stage: 'adopted' });
    expect(web.citations.map((c) => [c.id, c.url])).toEqual([
      [2, 'https://regulator.example/press/2025-01'],
      [3, 'https://journal.example/l/2024-1624'],
    ]);
    expect(web.citations[0].published_at).toBe('2025-01-15');

    const trends = envelope.trends as SnapshotTrend[];
    expect(trends).toEqual([
      {
        id: 'trend-aml-rulebook-goes-live',
        title: 'AML rulebook goes live',
        description: 'The single rulebook lands.',
        item_ids: ['eu-amlr', webId],
        jurisdictions: ['EU'],
        areas: ['AML / KYC'],
        momentum: 'rising',
      },
    ]);
    expect(envelope.executive_summary).toEqual({ bottom_line: 'Two AML milestones fall due.', priorities: ['Prepare for AMLR'] });
    expect(envelope._briefing).toEqual({ ...BRIEFING, priorities: ['[EU] AMLR applies, 10 Jul 2027'], sentiment_label: 'steady' });
    expect(envelope.auditor).toEqual({ ran: false, passes: [], verified_count: 0, flagged_item_ids: [] });
    expect(envelope._meta).toMatchObject({
      engine_mode: 'llm',
      engine: 'v4',
      analyst_model: 'anthropic-medium',
      search_provider: 'perplexity',
      calendar_version: '2026-11-22',
      scan_date: SCAN_DATE,
      horizon_months: 12,
      window_end: '2027-12-01',
      sources_count: 4,
    });
    expect((envelope._meta as { llm: { pages_read: number; briefing: string } }).llm).toMatchObject({ pages_read: 3, briefing: 'writer' });

    // One search query per jurisdiction x area, the top pages read, the page excerpts in the analyst prompt.
    expect(perplexity.requests).toHaveLength(1);
    expect(JSON.stringify(perplexity.requests[0].body)).toContain('AML / KYC regulation EU upcoming deadlines 2026-2027');
    expect(reader.requests).toHaveLength(3);
    const analystPrompt = JSON.stringify(anthropic.requests.find((r) => roleOf(r) === 'analyst')!.body);
    expect(analystPrompt).toContain('id eu-amlr');
    expect(analystPrompt).toContain('[S2] Regulator publishes final rules');
    expect(analystPrompt).toContain('This Regulation applies from 1 July 2026.');
    expect(phases.map((p) => p.name)).toEqual(['search', 'read', 'analyse', 'verify', 'sub-edit']);
  });

  it('drops past-dated, foreign, unsourced items and records why; never narrates them', async () => {
    const { envelope } = await analyseWithLlm(deps(), input(), hooks);
    const meta = envelope._meta as {
      dropped: { count: number; items: Array<{ title: string; reason: string }> };
      llm: { dropped: unknown };
    };
    expect(meta.dropped.count).toBe(4);
    expect(meta.dropped.items.map((d) => [d.title, d.reason])).toEqual([
      ['Invented Past Rule', 'key date before the scan date (2026-06-01)'],
      ['US Foreign Rule', 'jurisdiction not requested (US)'],
      ['Unsourced Rule', 'cites no provided source'],
      ['Bad Source Rule', 'cites no provided source'],
    ]);
    expect(meta.llm.dropped).toEqual(meta.dropped);
    expect(envelope.executive_narrative).not.toContain('Invented Past Rule');
    expect(JSON.stringify(envelope.executive_summary)).not.toContain('Invented');
  });

  it('rewrites [S<n>] references into [[cite:N]] markers and drops unknown ones', async () => {
    const { envelope } = await analyseWithLlm(deps(), input(), hooks);
    expect(envelope.executive_narrative).toBe(
      'AMLR leads the window [[cite:1]]. Final CDD rules follow [[cite:2]][[cite:3]]. An unknown source is cited.\n\nPlan now.',
    );
  });

  it('runs the realist and auditor passes and fills the sidecar and private diagnostics', async () => {
    const webId = webItemId(WEB_TITLE, 'EU');
    auditorReply = JSON.stringify({
      items: [
        { id: 'eu-amlr', status: 'verified', note: 'The official journal confirms the date.' },
        { id: webId, status: 'disputed', note: 'The source gives July 2026, not March 2027.' },
      ],
    });
    const { envelope } = await analyseWithLlm(deps({ auditor: auditorDep() }), input({ realist: true, auditor: true }), hooks);
    const [amlr, web] = envelope.items as SnapshotItem[];
    expect(amlr.verification).toEqual({
      status: 'verified',
      passes: [
        expect.objectContaining({ pass: 'realist', status: 'verified' }),
        {
          pass: 'auditor',
          status: 'verified',
          note: 'The official journal confirms the date.',
          // Without a verifyProvider no page is read for verification, and the pass says so.
          checked: expect.objectContaining({ basis: 'source_snippets', pages: [], description: expect.stringMatching(/no page was read/) }),
        },
      ],
    });
    expect(web.verification.status).toBe('disputed');
    expect(web.verification.passes[0]).toMatchObject({ pass: 'realist', status: 'unverified' });
    expect(envelope.auditor).toEqual({ ran: true, passes: ['realist', 'auditor'], verified_count: 1, flagged_item_ids: [webId] });
    const priv = envelope._auditor_private as { items: Array<{ item_id: string; passes: Array<{ checks: unknown[] }> }> };
    expect(priv.items.map((i) => i.item_id)).toEqual(['eu-amlr', webId]);
    expect(priv.items[0].passes[0].checks.length).toBeGreaterThan(1);
    const auditorRequest = openai.requests.find((r) => roleOf(r) === 'auditor')!;
    expect(JSON.stringify(auditorRequest.body)).toContain(webId);
  });

  it('marks items unverified when the auditor returns nothing usable', async () => {
    auditorReply = 'I cannot do that.';
    const { envelope } = await analyseWithLlm(deps({ auditor: auditorDep() }), input({ auditor: true }), hooks);
    const items = envelope.items as SnapshotItem[];
    expect(items.every((i) => i.verification.status === 'unverified')).toBe(true);
    expect(envelope.auditor).toMatchObject({ ran: true, verified_count: 0, flagged_item_ids: items.map((i) => i.id) });
    expect((envelope._meta as { llm: { auditor_error?: string } }).llm.auditor_error).toBe('the auditor model returned no usable JSON');
    expect(openai.requests.filter((r) => roleOf(r) === 'auditor')).toHaveLength(2);
  });

  it('retries once on malformed analyst JSON and then succeeds', async () => {
    analystReplies = ['Here is the analysis: {"items": [oops', `\`\`\`json\n${JSON.stringify(ANALYSIS)}\n\`\`\``];
    const { envelope } = await analyseWithLlm(deps({ search: undefined, fetch: undefined }), input(), hooks);
    const analystRequests = anthropic.requests.filter((r) => roleOf(r) === 'analyst');
    expect(analystRequests).toHaveLength(2);
    const retry = analystRequests[1].body as { messages: Array<{ role: string; content: string }> };
    expect(retry.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(retry.messages[2].content).toBe(JSON_REMINDER);
    // Without search only the calendar source exists: the web item cites nothing provided and is dropped.
    expect((envelope.items as SnapshotItem[]).map((i) => i.id)).toEqual(['eu-amlr']);
    expect((envelope._meta as { llm: { analyst_attempts: number } }).llm.analyst_attempts).toBe(2);
  });

  it('fails with EngineFailure when the analyst JSON is still malformed after the retry', async () => {
    analystReplies = ['not json at all'];
    await expect(analyseWithLlm(deps(), input(), hooks)).rejects.toThrow(new EngineFailure('the analyst model returned no usable JSON'));
    expect(anthropic.requests.filter((r) => roleOf(r) === 'analyst')).toHaveLength(2);
  });

  it('falls back to a rule-built briefing when the writer output is malformed', async () => {
    writerReply = '{"briefing_headline": "only this"}';
    const { envelope } = await analyseWithLlm(deps(), input(), hooks);
    const briefing = envelope._briefing as BriefingBlock;
    expect(briefing.priorities[0]).toMatch(/^\[EU\] AMLR/);
    expect((envelope._meta as { llm: { briefing: string; briefing_note: string } }).llm).toMatchObject({
      briefing: 'rule',
      briefing_note: expect.stringContaining('rule-built briefing'),
    });
  });

  it('propagates a 429 from the analyst as ProviderTransientError', async () => {
    anthropic.failNext(429, 3);
    await expect(analyseWithLlm(deps({ search: undefined, fetch: undefined }), input(), hooks)).rejects.toBeInstanceOf(
      ProviderTransientError,
    );
  });

  it('propagates a 429 from the search provider as ProviderTransientError', async () => {
    perplexity.failNext(429, 3);
    await expect(analyseWithLlm(deps(), input(), hooks)).rejects.toBeInstanceOf(ProviderTransientError);
  });

  it('sums the cost of every call (tokens and search requests)', async () => {
    const analystUsage: Array<{ inputTokens: number; outputTokens: number }> = [];
    const auditorUsage: Array<{ inputTokens: number; outputTokens: number }> = [];
    const searchUsage: Array<{ requests: number; inputTokens?: number; outputTokens?: number }> = [];
    const base = deps();
    const searchPort: SearchPort = {
      provider: 'perplexity',
      async search(query, options, signal) {
        const result = await base.search!.port.search(query, options, signal);
        searchUsage.push(result.usage);
        return result;
      },
    };
    const auditor = auditorDep();
    const { costCents: total } = await analyseWithLlm(
      {
        ...base,
        analyst: { ...base.analyst, port: recording(base.analyst.port, analystUsage) },
        search: { ...base.search!, port: searchPort },
        auditor: { ...auditor, port: recording(auditor.port, auditorUsage) },
      },
      input({ jurisdictions: ['EU', 'UK'], auditor: true }),
      hooks,
    );
    expect(searchUsage).toHaveLength(2);
    expect(analystUsage).toHaveLength(2); // analyse + sub-edit (the writer defaults to the analyst)
    expect(auditorUsage).toHaveLength(1);
    const expected =
      analystUsage.reduce((sum, u) => sum + costCents('anthropic-medium', u), 0) +
      auditorUsage.reduce((sum, u) => sum + costCents('openai-auditor', u), 0) +
      searchUsage.reduce((sum, u) => sum + costCents('perplexity-sonar', u), 0);
    expect(total).toBeCloseTo(expected, 10);
    expect(total).toBeGreaterThan(2 * 0.5); // two search requests alone cost 0.5 cents each
    expect(phases[phases.length - 1].cost).toBeCloseTo(total, 10);
  });

  describe('final QA page reads (verifyFetch)', () => {
    let pages: FakeProvider;
    beforeEach(async () => {
      // The reader fake answers for every page; the calendar source's page is down (a 503 from the reader).
      pages = await startFakeProvider('reader', (request) =>
        request.path.includes('eur-lex.example')
          ? { status: 503, json: { code: 503, message: 'upstream down' } }
          : { text: `Page text of ${request.path.slice(1)}: applies from 1 March 2027.` },
      );
    });
    afterEach(() => pages.close());

    it('reads each cited page once, gives the text to both passes, charges them from usage, and leaves unreadable items unverified', async () => {
      const webId = webItemId(WEB_TITLE, 'EU');
      auditorReply = JSON.stringify({ items: [{ id: webId, status: 'verified', note: 'The page gives 1 March 2027.' }] });
      const realistReply = JSON.stringify({ items: [{ id: webId, status: 'verified', note: 'The date is announced.' }] });
      const analystUsage: Array<{ inputTokens: number; outputTokens: number }> = [];
      const auditorUsage: Array<{ inputTokens: number; outputTokens: number }> = [];
      const searchUsage: Array<{ requests: number; inputTokens?: number; outputTokens?: number }> = [];
      const base = deps();
      const searchPort: SearchPort = {
        provider: 'perplexity',
        async search(query, options, signal) {
          const result = await base.search!.port.search(query, options, signal);
          searchUsage.push(result.usage);
          return result;
        },
      };
      const auditor = auditorDep();
      const realistAware = await startFakeProvider('anthropic', (request) => {
        const role = roleOf(request);
        const body = request.body as { system?: string };
        if (body.system?.includes('realist')) return { text: realistReply };
        if (role === 'analyst') return { text: JSON.stringify(ANALYSIS) };
        if (role === 'writer') return { text: writerReply };
        return undefined;
      });
      try {
        const analystPort = new AnthropicAdapter({ apiKey: FAKE_API_KEY, baseUrl: realistAware.baseUrl });
        const { envelope, costCents: total } = await analyseWithLlm(
          {
            ...base,
            analyst: { ...base.analyst, port: recording(analystPort, analystUsage) },
            search: { ...base.search!, port: searchPort },
            auditor: { ...auditor, port: recording(auditor.port, auditorUsage) },
            verifyFetch: new ReaderFetchAdapter({ baseUrl: pages.baseUrl }),
          },
          input({ realist: true, auditor: true }),
          hooks,
        );
        const [amlr, web] = envelope.items as SnapshotItem[];
        // Each cited URL read once (eur-lex, and the web item's two sources).
        const read = pages.requests.map((r) => r.path).sort();
        expect(read).toEqual(
          ['/https://eur-lex.example/amlr', '/https://journal.example/l/2024-1624', '/https://regulator.example/press/2025-01'].sort(),
        );
        const realistCall = realistAware.requests.find((r) => (r.body as { system?: string }).system?.includes('realist'))!;
        const auditorCall = openai.requests.find((r) => roleOf(r) === 'auditor')!;
        for (const call of [realistCall, auditorCall]) {
          expect(JSON.stringify(call.body)).toContain('Page text of https://regulator.example/press/2025-01: applies from 1 March 2027.');
          // The unreadable item is not put to the models.
          expect(JSON.stringify(call.body)).not.toContain('id eu-amlr');
        }
        expect(web.verification.status).toBe('verified');
        expect(web.verification.passes.map((p) => p.checked?.pages.map((page) => page.outcome))).toEqual([
          ['read', 'read'],
          ['read', 'read'],
        ]);
        expect(amlr.verification.status).toBe('unverified');
        for (const pass of amlr.verification.passes) {
          expect(pass.note).toMatch(/None of the item's cited pages could be read \(https:\/\/eur-lex\.example\/amlr: fetch-b HTTP 503/);
          expect(pass.checked).toMatchObject({ basis: 'cited_pages', provider: 'fetch-b', pages: [{ outcome: 'unreachable' }] });
        }
        expect(phases.find((p) => p.name === 'verify')!.message).toBe(
          'Read 2 of 3 cited pages through fetch-b (1 unreachable); the realist and auditor passes checked 1 item against them: 1 of 2 items verified, 0 disputed',
        );
        expect((envelope._meta as { verify_provider: string }).verify_provider).toBe('fetch-b');
        // analyse + realist + sub-edit on the analyst; the auditor once.
        expect(analystUsage).toHaveLength(3);
        expect(auditorUsage).toHaveLength(1);
        const expected =
          analystUsage.reduce((sum, u) => sum + costCents('anthropic-medium', u), 0) +
          auditorUsage.reduce((sum, u) => sum + costCents('openai-auditor', u), 0) +
          searchUsage.reduce((sum, u) => sum + costCents('perplexity-sonar', u), 0);
        expect(total).toBeCloseTo(expected, 10);
      } finally {
        await realistAware.close();
      }
    });

    it('reads at most MAX_VERIFY_PAGES pages per scan and records the rest as not read', async () => {
      const hits = Array.from({ length: 14 }, (_, n) => ({ url: `https://site${n}.example/p`, title: `Page ${n}`, snippet: 'AML.' }));
      // Five hits per query (RESULTS_PER_QUERY), different for each of the three queries.
      let query = 0;
      const search = await startFakeProvider('perplexity', () => ({ results: hits.slice(5 * query, 5 * ++query) }));
      try {
        // One web item per hit, each citing its own page (S1 is the calendar source).
        const items = hits.map((_, n) => ({ ...ANALYSIS.items[1], ref: `S${n + 2}`, title: `${WEB_TITLE} ${n}`, source_numbers: [n + 2] }));
        analystReplies = [JSON.stringify({ ...ANALYSIS, items })];
        const { envelope } = await analyseWithLlm(
          {
            ...deps({
              search: {
                port: new PerplexityAdapter({ apiKey: FAKE_API_KEY, baseUrl: search.baseUrl }),
                modelId: 'perplexity-sonar',
                vendorModel: 'sonar',
              },
            }),
            verifyFetch: new ReaderFetchAdapter({ baseUrl: pages.baseUrl }),
          },
          input({ realist: true, areas: ['AML / KYC', 'Payments', 'Prudential'] }),
          hooks,
        );
        const kept = envelope.items as SnapshotItem[];
        const outcomes = kept.flatMap((i) => i.verification.passes[0].checked!.pages.map((p) => p.outcome));
        expect(pages.requests).toHaveLength(MAX_VERIFY_PAGES);
        expect(outcomes.filter((o) => o === 'read')).toHaveLength(MAX_VERIFY_PAGES);
        expect(outcomes.filter((o) => o === 'not_read')).toHaveLength(kept.length - MAX_VERIFY_PAGES);
      } finally {
        await search.close();
      }
    });
  });
});
