import fc from 'fast-check';
import { DataSource } from 'typeorm';
import { AccountsService } from '../src/modules/accounts/accounts.service';
import { BudgetService } from '../src/modules/budget/budget.service';
import { fuzzRoutes, type FuzzWorld } from './support/fuzz-routes';
import type { Probe } from './support/fuzz-values';
import { pollUntil } from './support/poll';
import { contractBreach, describeProbe, headBytes, NODE_MAX_HEADER_BYTES, type Reply } from './support/problem-contract';
import { bootTestAppWithEnv, newAccount, sessionCookie, sessionToken, type TestApp } from './support/test-app';

/**
 * Property-based probes of every route (issue #10): generated bodies, query strings, paths and headers must never
 * answer 5xx, and every error must be a valid problem document, except the spec's plain 400/413 for bodies that
 * cannot be read. CI runs FUZZ_RUNS (default 200) cases per property; `FUZZ_RUNS=5000 npm run fuzz` runs more, and
 * FUZZ_SEED replays a reported failure.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 200);
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);
const TIMEOUT_MS = 30_000 + RUNS * 300;
const LIMITS = {
  RATE_LIMIT_READS: '10000000',
  RATE_LIMIT_MUTATIONS: '10000000',
  RATE_LIMIT_SCANS: '10000000',
  RATE_LIMIT_EXPORTS: '10000000',
  RATE_LIMIT_KEYS: '10000000',
};

/** Filled in beforeAll; the generators read it only when cases run. */
const world: FuzzWorld = {
  accountId: '',
  apiKey: '',
  spareKeyId: '',
  cookie: '',
  scanId: '',
  snapshotId: '',
  exportId: '',
};

describe('fuzzing every route (fast-check)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await bootTestAppWithEnv(LIMITS);
    const account = await newAccount(t);
    world.accountId = account.accountId;
    world.apiKey = account.apiKey;
    world.cookie = account.cookie;
    world.spareKeyId = (await t.http().post('/v1/keys').set('Cookie', account.cookie).send({ name: 'spare' }).expect(201)).body.id;
    const auth = `Bearer ${account.apiKey}`;
    const scan = await t
      .http()
      .post('/v1/scans')
      .set('Authorization', auth)
      .send({ jurisdictions: ['EU'], areas: ['Payments'], horizon: 12 })
      .expect(200);
    world.scanId = scan.body.scan_id;
    world.snapshotId = scan.body.snapshot_id;
    const exported = await t
      .http()
      .post('/v1/exports')
      .set('Authorization', auth)
      .send({ snapshot_id: world.snapshotId, provider: 'internal-csv', artifact_type: 'csv' })
      .expect(202);
    world.exportId = exported.body.export_job_id;
    await pollUntil(
      async () => (await t.http().get(`/v1/exports/${world.exportId}`).set('Authorization', auth)).body.status === 'completed',
      20_000,
      50,
    );
    // An empty pool: every valid scan the generators make is refused with 402 before any work starts.
    const accountId = await t.app.get(AccountsService).ensureAccount(account.accountId);
    await t.app.get(BudgetService).setPool(accountId, 0, 'fuzz: no scan may start');
  }, 60_000);

  afterAll(async () => {
    // Nothing should have started; cancel whatever did, so no scan outlives the test.
    const running: Array<{ id: string }> = await t.app
      .get(DataSource)
      .query(`SELECT s.id FROM scans s JOIN accounts a ON a.id = s.account_id WHERE a.external_id = $1 AND s.status = 'running'`, [
        world.accountId,
      ]);
    for (const { id } of running) await t.http().post(`/v1/scans/${id}/cancel`).set('Authorization', `Bearer ${world.apiKey}`);
    await t.close();
    expect(running).toEqual([]);
  });

  async function send(probe: Probe): Promise<Reply> {
    let request = t.http()[probe.method.toLowerCase() as 'get'](probe.path).timeout(20_000);
    for (const [name, value] of Object.entries(probe.headers)) request = request.set(name, value);
    try {
      // A plain string keeps its bytes exactly as generated, unparseable ones included.
      const response = probe.body === undefined ? await request : await request.send(probe.body);
      return { status: response.status, headers: response.headers as Record<string, string>, text: response.text };
    } catch (error) {
      // Node answers 431 to a head over 16 KB and closes the socket while a body may still be on its way.
      const code = (error as NodeJS.ErrnoException).code;
      if (headBytes(probe) > NODE_MAX_HEADER_BYTES && (code === 'ECONNRESET' || code === 'EPIPE')) return { status: 431, headers: {} };
      throw error;
    }
  }

  /** Like fc.assert, but reports the shrunk request in a few lines (a generated body can be megabytes long). */
  async function check(arbitrary: fc.Arbitrary<Probe>): Promise<void> {
    const property = fc.asyncProperty(arbitrary, async (probe) => {
      const reply = await send(probe);
      const breach = contractBreach(probe, reply);
      if (breach)
        throw new Error(`${breach} (HTTP ${reply.status} ${reply.headers['content-type'] ?? ''}: ${(reply.text ?? '').slice(0, 300)})`);
    });
    const details = await fc.check(property, { numRuns: RUNS, ...(SEED === undefined ? {} : { seed: SEED }) });
    if (!details.failed) return;
    const [probe] = details.counterexample ?? [];
    const reason = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
    throw new Error(
      `${reason}\n${probe ? describeProbe(probe) : ''}\nreplay: FUZZ_SEED=${details.seed} (path ${details.counterexamplePath})`,
    );
  }

  const routes = fuzzRoutes(world);
  for (const [family, probes] of Object.entries(routes.families)) {
    it(`${family}: no 5xx, and every error is a problem document`, () => check(probes), TIMEOUT_MS);
  }

  it('unknown routes and methods: no 5xx, and every error is a problem document', () => check(routes.stray), TIMEOUT_MS);

  it(
    'sessions of any account: no 5xx on key management',
    async () => {
      const cookies = await Promise.all([1, 2, 3].map(async () => sessionCookie(await sessionToken())));
      await check(
        fc
          .tuple(fc.constantFrom(...cookies), routes.families.keys)
          .map(([cookie, probe]) => ({ ...probe, headers: { ...probe.headers, Cookie: cookie } })),
      );
    },
    TIMEOUT_MS,
  );
});
