import type { Browser } from 'playwright-core';
import type { Response } from 'supertest';
import { uniqueName } from './setup/test-infra';
import { launchChromium } from './support/swagger-ui';
import { bootTestAppWithEnv, newAccount, sessionCookie, sessionToken, type TestApp } from './support/test-app';

const BOARD = '/admin/queues';
const SCAN = { jurisdictions: ['EU', 'UK'], areas: ['AML / KYC', 'Payments'], horizon: 12 };

interface BoardQueue {
  name: string;
  counts: Record<string, number>;
  readOnlyMode: boolean;
  isPaused: boolean;
}

function expectProblem(response: Response, status: number, code: string): void {
  expect(response.status).toBe(status);
  expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(response.body).toMatchObject({ status, code });
}

/**
 * Each app has a Redis prefix of its own and the `api` role: nothing but this test enqueues into its queues and
 * no worker takes a job, so the board's counts are exact and pausing a queue touches no other test.
 */
function bootBoardApp(operators: string, extra: Record<string, string> = {}): Promise<TestApp> {
  return bootTestAppWithEnv({ REDIS_PREFIX: uniqueName('board'), APP_ROLE: 'api', DASHBOARD_OPERATORS: operators, ...extra });
}

async function boardQueues(t: TestApp, cookie: string): Promise<Map<string, BoardQueue>> {
  const response = await t.http().get(`${BOARD}/api/queues`).set('Cookie', cookie).expect(200);
  return new Map((response.body.queues as BoardQueue[]).map((queue) => [queue.name, queue]));
}

describe('queue dashboard (read-only, the default)', () => {
  let t: TestApp;
  const opsAccount = uniqueName('ops');
  const wholeAccount = uniqueName('ops-team');
  let operator: string;

  beforeAll(async () => {
    t = await bootBoardApp(` ${opsAccount}:alice , ${wholeAccount}:* `, { RATE_LIMIT_READS: '3' });
    operator = sessionCookie(await sessionToken({ accountId: opsAccount, subject: 'alice' }));
  });
  afterAll(() => t.close());

  it('answers 401 without a session, for the page, its API and its static files', async () => {
    const paths = [
      BOARD,
      `${BOARD}/`,
      `${BOARD}/queue/scans`,
      `${BOARD}/api/queues`,
      `${BOARD}/static/favicon-32x32.png`,
      '/ADMIN/Queues/api/queues',
    ];
    for (const path of paths) {
      expectProblem(await t.http().get(path), 401, 'authentication_required');
    }
    expectProblem(await t.http().put(`${BOARD}/api/queues/scans/pause`), 401, 'authentication_required');
  });

  it('is not opened by an API key, valid or not, nor by an invalid or expired session', async () => {
    const { apiKey } = await newAccount(t);
    expectProblem(await t.http().get(`${BOARD}/api/queues`).set('Authorization', `Bearer ${apiKey}`), 401, 'authentication_required');
    expectProblem(await t.http().get(BOARD).set('Authorization', `Bearer ${apiKey}`), 401, 'authentication_required');
    expectProblem(await t.http().get(BOARD).set('Cookie', sessionCookie('not-a-jwt')), 401, 'authentication_invalid');
    const expired = await sessionToken({ accountId: opsAccount, subject: 'alice', expiresIn: Math.floor(Date.now() / 1000) - 60 });
    expectProblem(await t.http().get(BOARD).set('Cookie', sessionCookie(expired)), 401, 'authentication_invalid');
    const forged = await sessionToken({ accountId: opsAccount, subject: 'alice', secret: 'another-secret-0123456789-abcdefghijkl' });
    expectProblem(await t.http().get(BOARD).set('Cookie', sessionCookie(forged)), 401, 'authentication_invalid');
  });

  it('answers 403 to a session whose user is not an operator, everywhere under the board', async () => {
    const sameAccountOtherUser = sessionCookie(await sessionToken({ accountId: opsAccount, subject: 'bob' }));
    const otherAccountSameUser = sessionCookie(await sessionToken({ accountId: uniqueName('acct'), subject: 'alice' }));
    for (const cookie of [sameAccountOtherUser, otherAccountSameUser]) {
      for (const path of [BOARD, `${BOARD}/api/queues`, `${BOARD}/static/favicon-32x32.png`]) {
        expectProblem(await t.http().get(path).set('Cookie', cookie), 403, 'permission_denied');
      }
    }
    const claimNotTrue = sessionCookie(await sessionToken({ claims: { operator: 'true' } }));
    expectProblem(await t.http().get(BOARD).set('Cookie', claimNotTrue), 403, 'permission_denied');
  });

  it('serves the board to an operator of DASHBOARD_OPERATORS: the page, its assets, unframeable and uncached', async () => {
    const page = await t.http().get(BOARD).set('Cookie', operator).expect(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.text).toContain(`<base href="${BOARD}/"`);
    expect(page.headers['x-powered-by']).toBeUndefined();
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.headers['content-security-policy']).toBe("frame-ancestors 'none'");
    expect(page.headers['cache-control']).toBe('no-store');

    const scripts = [...page.text.matchAll(/<script defer src="([^"]+)"/g)].map((match) => match[1]!);
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) {
      const asset = await t.http().get(`${BOARD}/${script}`).set('Cookie', operator).expect(200);
      expect(asset.headers['content-type']).toMatch(/javascript/);
    }
    // A client-side route of the board is the same page.
    expect((await t.http().get(`${BOARD}/queue/scans`).set('Cookie', operator).expect(200)).text).toContain('__UI_CONFIG__');
  });

  it('lists every registered queue (scans, exports, webhooks) with their real job counts, and shows a queued job', async () => {
    const { apiKey } = await newAccount(t);
    const before = await boardQueues(t, operator);
    expect([...before.keys()].sort()).toEqual(['exports', 'scans', 'webhooks']);

    const scan = await t.http().post('/v1/scans?mode=async').set('Authorization', `Bearer ${apiKey}`).send(SCAN).expect(202);
    const after = await boardQueues(t, operator);
    expect(after.get('scans')!.counts.waiting).toBe((before.get('scans')!.counts.waiting ?? 0) + 1);
    expect(after.get('exports')!.counts).toMatchObject({ waiting: 0, active: 0, failed: 0 });
    for (const queue of after.values()) expect(queue).toMatchObject({ readOnlyMode: true, isPaused: false });

    const job = await t
      .http()
      .get(`${BOARD}/api/queues/scans/${encodeURIComponent(`scan:${scan.body.scan_id}`)}`)
      .set('Cookie', operator)
      .expect(200);
    expect(job.body.job).toMatchObject({ id: `scan:${scan.body.scan_id}`, data: { scanId: scan.body.scan_id } });
    expect(job.headers['cache-control']).toBe('no-store');
  });

  it('lets in every user of an account listed as account:*, and a session carrying operator: true', async () => {
    const teamMember = sessionCookie(await sessionToken({ accountId: wholeAccount }));
    await t.http().get(`${BOARD}/api/queues`).set('Cookie', teamMember).expect(200);
    const claimed = sessionCookie(await sessionToken({ claims: { operator: true } }));
    await t.http().get(`${BOARD}/api/queues`).set('Cookie', claimed).expect(200);
  });

  it('refuses every mutating call while read-only, and nothing changes', async () => {
    const calls = [
      t.http().put(`${BOARD}/api/queues/scans/pause`),
      t.http().put(`${BOARD}/api/queues/pause`),
      t.http().put(`${BOARD}/api/queues/scans/clean/waiting`),
      t.http().put(`${BOARD}/api/queues/scans/retry/failed`),
      t.http().put(`${BOARD}/api/queues/scans/empty`),
      t.http().post(`${BOARD}/api/queues/scans/add`).send({ name: 'x', data: {} }),
    ];
    const waiting = (await boardQueues(t, operator)).get('scans')!.counts.waiting;
    for (const call of calls) {
      const refused = await call.set('Cookie', operator);
      expectProblem(refused, 403, 'permission_denied');
      expect(refused.body.detail).toContain('QUEUE_DASHBOARD_READ_ONLY');
    }
    const scans = (await boardQueues(t, operator)).get('scans')!;
    expect(scans).toMatchObject({ isPaused: false });
    expect(scans.counts.waiting).toBe(waiting);
  });

  it('is not rate limited like an API route: the board polls more often than the reads bucket allows', async () => {
    // RATE_LIMIT_READS is 3 per minute in this app.
    for (let i = 0; i < 8; i++) await t.http().get(`${BOARD}/api/queues`).set('Cookie', operator).expect(200);
  });

  it('stays out of the OpenAPI document', async () => {
    const document = await t.http().get('/openapi.json').expect(200);
    expect(Object.keys(document.body.paths).filter((path) => path.startsWith('/admin'))).toEqual([]);
  });
});

describe('queue dashboard with QUEUE_DASHBOARD_READ_ONLY=false', () => {
  let t: TestApp;
  const opsAccount = uniqueName('ops');
  let operator: string;
  const paused = async () => (await boardQueues(t, operator)).get('scans')!.isPaused;

  beforeAll(async () => {
    t = await bootBoardApp(`${opsAccount}:alice`, { QUEUE_DASHBOARD_READ_ONLY: 'false' });
    operator = sessionCookie(await sessionToken({ accountId: opsAccount, subject: 'alice' }));
  });
  afterAll(() => t.close());

  it('lets an operator pause and resume a queue, from the same origin, a DASHBOARD_ORIGINS origin or a tool', async () => {
    expect((await boardQueues(t, operator)).get('scans')!.readOnlyMode).toBe(false);
    const host = 'board.example.test:8443';
    await t
      .http()
      .put(`${BOARD}/api/queues/scans/pause`)
      .set('Host', host)
      .set('Cookie', operator)
      .set('Origin', `http://${host}`)
      .expect(200);
    expect(await paused()).toBe(true);
    await t
      .http()
      .put(`${BOARD}/api/queues/scans/resume`)
      .set('Cookie', operator)
      .set('Origin', 'https://dashboard.example.com')
      .expect(200);
    expect(await paused()).toBe(false);
    await t.http().put(`${BOARD}/api/queues/scans/pause`).set('Cookie', operator).expect(200);
    expect(await paused()).toBe(true);
    await t.http().put(`${BOARD}/api/queues/scans/resume`).set('Cookie', operator).expect(200);
    expect(await paused()).toBe(false);
  });

  it('refuses a cross-site mutation (CSRF) and a non-operator, and the queue stays as it was', async () => {
    const pause = () => t.http().put(`${BOARD}/api/queues/scans/pause`).set('Host', 'board.example.test').set('Cookie', operator);
    expectProblem(await pause().set('Origin', 'https://evil.example'), 403, 'permission_denied');
    expectProblem(await pause().set('Origin', 'https://board.example.test'), 403, 'permission_denied');
    const notOperator = sessionCookie(await sessionToken({ accountId: opsAccount, subject: 'mallory' }));
    expectProblem(await t.http().put(`${BOARD}/api/queues/scans/pause`).set('Cookie', notOperator), 403, 'permission_denied');
    expectProblem(await t.http().put(`${BOARD}/api/queues/scans/pause`), 401, 'authentication_required');
    expect(await paused()).toBe(false);
  });
});

describe('queue dashboard in a browser', () => {
  let t: TestApp;
  let browser: Browser;
  let baseUrl: string;
  const opsAccount = uniqueName('ops');

  beforeAll(async () => {
    browser = await launchChromium();
    t = await bootBoardApp(`${opsAccount}:alice`);
    await t.app.listen(0, '127.0.0.1');
    baseUrl = `http://127.0.0.1:${(t.app.getHttpServer().address() as { port: number }).port}`;
  }, 60000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('renders the board for an operator in Chromium, with every request of the page answered', async () => {
    const context = await browser.newContext();
    const token = await sessionToken({ accountId: opsAccount, subject: 'alice' });
    await context.addCookies([{ name: 'dashboard_session', value: token, url: baseUrl }]);
    const page = await context.newPage();
    // The board's stylesheet asks Google Fonts for its typeface: not ours to load in a test.
    await page.route(
      (url) => !url.href.startsWith(baseUrl),
      (route) => route.abort(),
    );
    const refused: string[] = [];
    page.on('response', (response) => {
      if (response.url().startsWith(baseUrl) && response.status() >= 400) refused.push(`${response.status()} ${response.url()}`);
    });
    await page.goto(`${baseUrl}${BOARD}`, { waitUntil: 'domcontentloaded' });
    await page.getByText('scans', { exact: true }).first().waitFor({ timeout: 30000 });
    await page.getByText('exports', { exact: true }).first().waitFor({ timeout: 30000 });
    expect(refused).toEqual([]);
    await context.close();
  });
});
