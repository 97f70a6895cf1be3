import { DataSource } from 'typeorm';
import { runCli } from '../src/cli/run-cli';
import { uniqueName } from './setup/test-infra';
import { bootTestApp, sessionCookie, type TestApp } from './support/test-app';

async function cli(...argv: string[]) {
  let out = '';
  let err = '';
  const code = await runCli(argv, { out: (text) => (out += text), err: (text) => (err += text) });
  return { code, out: out.trim(), err };
}

describe('operator CLI', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await bootTestApp();
  });
  afterAll(() => t.close());

  it('session:token mints a dashboard session the API accepts, and keys:create a key that works', async () => {
    const account = uniqueName('cli');
    const token = await cli('session:token', '--account', account, '--user', 'alice', '--ttl', '600', '--email', 'alice@example.com');
    expect(token.code).toBe(0);
    const created = await t.http().post('/v1/keys').set('Cookie', sessionCookie(token.out)).send({ name: 'via session' }).expect(201);

    const minted = await cli('keys:create', '--account', account, '--name', 'bootstrap');
    expect(minted.code).toBe(0);
    expect(minted.out).toMatch(/^rgs_live_[0-9A-Za-z]{32}$/);
    await t.http().get('/v1/meta/engines').set('Authorization', `Bearer ${minted.out}`).expect(200);
    const listed = await t.http().get('/v1/keys').set('Cookie', sessionCookie(token.out)).expect(200);
    expect(listed.body.data.map((key: { id: string }) => key.id)).toContain(created.body.id);
    expect(listed.body.data).toHaveLength(2);
  });

  it('session:token --operator mints a session that opens the queue dashboard; without it, the dashboard refuses', async () => {
    const account = uniqueName('cli');
    const operator = await cli('session:token', '--account', account, '--user', 'ops', '--operator');
    expect(operator.code).toBe(0);
    await t.http().get('/admin/queues/api/queues').set('Cookie', sessionCookie(operator.out)).expect(200);
    const plain = await cli('session:token', '--account', account, '--user', 'ops');
    await t.http().get('/admin/queues/api/queues').set('Cookie', sessionCookie(plain.out)).expect(403);
  });

  it('webhooks:create registers an endpoint the API lists, webhooks:list shows it, webhooks:delete removes it', async () => {
    const account = uniqueName('cli');
    const created = await cli(
      'webhooks:create',
      '--account',
      account,
      '--url',
      'https://hooks.example.com/rgs',
      '--events',
      'scan.completed,export.failed',
    );
    expect(created.code).toBe(0);
    const endpoint = JSON.parse(created.out);
    expect(endpoint).toMatchObject({ url: 'https://hooks.example.com/rgs', events: ['scan.completed', 'export.failed'], enabled: true });
    expect(endpoint.secret).toMatch(/^whsec_/);
    const token = await cli('session:token', '--account', account, '--user', 'alice');
    const listed = await t.http().get('/v1/webhooks/endpoints').set('Cookie', sessionCookie(token.out)).expect(200);
    expect(listed.body.data.map((e: { id: string }) => e.id)).toEqual([endpoint.id]);
    const fromCli = await cli('webhooks:list', '--account', account);
    expect(JSON.parse(fromCli.out)).toEqual([{ ...endpoint, secret: undefined }].map((e) => JSON.parse(JSON.stringify(e))));
    const rotated = await cli('webhooks:rotate-secret', '--account', account, '--id', endpoint.id);
    expect(rotated.code).toBe(0);
    const withNewSecret = JSON.parse(rotated.out);
    expect(withNewSecret).toMatchObject({ id: endpoint.id, secret: expect.stringMatching(/^whsec_/) });
    expect(withNewSecret.secret).not.toBe(endpoint.secret);
    expect(Date.parse(withNewSecret.previous_secret_expires_at)).toBeGreaterThan(Date.now());
    expect((await cli('webhooks:delete', '--account', account, '--id', endpoint.id)).code).toBe(0);
    expect(JSON.parse((await cli('webhooks:list', '--account', account)).out)).toEqual([]);
    expect((await cli('webhooks:rotate-secret', '--account', account, '--id', endpoint.id)).code).toBe(1);
    expect((await cli('webhooks:delete', '--account', account, '--id', endpoint.id)).code).toBe(1);
  });

  it.each([
    [
      ['webhooks:create', '--account', 'a', '--url', 'https://hooks.example.com', '--events', 'scan.exploded'],
      /--events: unknown event "scan.exploded"/,
    ],
    [['webhooks:create', '--account', 'a', '--url', 'https://10.0.0.1/x', '--events', 'scan.completed'], /url must reach a public address/],
    [
      ['webhooks:create', '--account', 'a', '--url', 'https://hooks.example.com', '--events', 'scan.completed', '--secret', 'x'],
      /--secret: /,
    ],
    [['webhooks:create', '--account', 'a', '--url', 'https://hooks.example.com'], /--events is required/],
  ])('webhooks:create %j is refused', async (argv, message) => {
    const result = await cli(...argv);
    expect(result.code).not.toBe(0);
    expect(result.err).toMatch(message);
  });

  it('budget:set and budget:add change the pool through the ledger', async () => {
    const account = uniqueName('cli');
    const set = await cli('budget:set', '--account', account, '--cents', '2500');
    expect(set.code).toBe(0);
    expect(JSON.parse(set.out)).toMatchObject({ pool_cents: 2500, remaining_cents: 2500, spent_cents: 0, reserved_cents: 0 });
    const added = await cli('budget:add', '--account', account, '--cents=-500');
    expect(JSON.parse(added.out)).toMatchObject({ pool_cents: 2000 });
    const rows = await t.app
      .get(DataSource)
      .query(
        'SELECT l.kind, l.amount_cents::float AS cents FROM budget_ledger l JOIN accounts a ON a.id = l.account_id WHERE a.external_id = $1 ORDER BY l.id',
        [account],
      );
    // The new account opened with the default pool; set and add appended corrections.
    expect(rows).toEqual([
      { kind: 'credit', cents: 10000 },
      { kind: 'credit', cents: -7500 },
      { kind: 'credit', cents: -500 },
    ]);
  });

  it('integrations:set and integrations:clear manage an account integration', async () => {
    const account = uniqueName('cli');
    expect((await cli('integrations:set', '--account', account, '--integration', 'notebook', '--config', '{"project":"p1"}')).code).toBe(0);
    const [row] = await t.app
      .get(DataSource)
      .query('SELECT i.integration, i.config FROM account_integrations i JOIN accounts a ON a.id = i.account_id WHERE a.external_id = $1', [
        account,
      ]);
    expect(row).toEqual({ integration: 'notebook', config: { project: 'p1' } });
    const cleared = await cli('integrations:clear', '--account', account, '--integration', 'notebook');
    expect(cleared.out).toContain('cleared');
  });

  it.each([
    [['nope'], /unknown command "nope"/],
    [['keys:create', '--account', 'a'], /--name is required/],
    [['budget:set', '--account', 'a', '--cents', '12.5'], /--cents: expected a whole number/],
    [['budget:set', '--account', 'a', '--cents=-1'], /--cents: must be between 0/],
    [
      ['integrations:set', '--account', 'a', '--integration', 'fax', '--config', '{}'],
      /--integration: must be one of notebook, voicePodcast/,
    ],
    [['integrations:set', '--account', 'a', '--integration', 'notebook', '--config', '{oops'], /--config: not valid JSON/],
    [
      ['integrations:set', '--account', 'a', '--integration', 'notebook', '--config', '{"kind":"notebooklm-enterprise","project":"p"}'],
      /--config: the notebook integration \(NotebookLM Enterprise\) needs serviceAccountKey or accessToken/,
    ],
    [
      ['integrations:set', '--account', 'a', '--integration', 'notebook', '--config', '{"kind":"notebooklm","project":"p"}'],
      /--config: kind must be "jobs" or "notebooklm-enterprise"/,
    ],
    [['session:token', '--account', 'a', '--user', 'u', '--bogus', 'x'], /Unknown option '--bogus'/],
    [['session:token', '--account', 'a', '--user', 'u', '--operator=yes'], /--operator/],
    [['session:token', '--account', 'a', '--user', 'u', '--ttl', '0'], /--ttl: must be between 1/],
  ])('%j exits 2 with a clear message', async (argv, message) => {
    const result = await cli(...(argv as string[]));
    expect(result.code).toBe(2);
    expect(result.err).toMatch(message);
    expect(result.err).toContain('Usage: npm run cli');
  });

  it('reports a failed command with exit code 1', async () => {
    const account = uniqueName('cli');
    for (let i = 0; i < 10; i++) expect((await cli('keys:create', '--account', account, '--name', `k${i}`)).code).toBe(0);
    const eleventh = await cli('keys:create', '--account', account, '--name', 'k10');
    expect(eleventh.code).toBe(1);
    expect(eleventh.err).toMatch(/10 active API keys/);
  });
});
