import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { AccountsService } from '../src/modules/accounts/accounts.service';
import { BudgetService } from '../src/modules/budget/budget.service';
import { UsageRecorder } from '../src/modules/usage/usage-recorder.service';
import { uniqueName } from './setup/test-infra';
import { bootTestApp, newAccount, type TestApp } from './support/test-app';

describe('budget ledger', () => {
  let t: TestApp;
  let budget: BudgetService;
  let accounts: AccountsService;

  beforeAll(async () => {
    t = await bootTestApp();
    budget = t.app.get(BudgetService);
    accounts = t.app.get(AccountsService);
  });
  afterAll(() => t.close());

  const freshAccount = async (poolCents: number) => {
    const accountId = await accounts.ensureAccount(uniqueName('budget'));
    await budget.setPool(accountId, poolCents, 'test');
    return accountId;
  };

  it('opens a new account with the default pool, visible to bearer and dashboard callers', async () => {
    const account = await newAccount(t);
    const bearer = await t.http().get('/v1/usage/budget').set('Authorization', `Bearer ${account.apiKey}`).expect(200);
    expect(bearer.body).toEqual({
      currency: 'USD',
      pool_cents: 10000,
      spent_cents: 0,
      reserved_cents: 0,
      remaining_cents: 10000,
      updated_at: expect.any(String),
    });
    expect(bearer.headers['ratelimit-policy']).toBe('60;w=60');
    const dashboard = await t.http().get('/v1/usage/budget').set('Cookie', account.cookie).expect(200);
    expect(dashboard.body).toEqual(bearer.body);
    expect((await t.http().get('/v1/usage/budget').expect(401)).body.code).toBe('authentication_required');
  });

  it('100 concurrent reservations against a pool that covers 10 leave exactly 10 reserved, never below zero', async () => {
    const accountId = await freshAccount(1000);
    const results = await Promise.allSettled(
      Array.from({ length: 100 }, () => budget.reserve(accountId, { type: 'scan', id: randomUUID() }, 100)),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(10);
    const rejected = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(rejected).toHaveLength(90);
    for (const r of rejected) expect(r.reason).toMatchObject({ status: 402, code: 'budget_exhausted' });
    const view = await budget.view(accountId);
    expect(view).toMatchObject({ pool_cents: 1000, reserved_cents: 1000, spent_cents: 0, remaining_cents: 0 });
    expect(await budget.ledgerTotals(accountId)).toEqual({ pool: 1000, spent: 0, reserved: 1000 });
  });

  it('settles at actual cost (fractions allowed), releases without charge, and closes a reservation only once', async () => {
    const accountId = await freshAccount(500);
    const settled = { type: 'scan', id: randomUUID() };
    const released = { type: 'scan', id: randomUUID() };
    await budget.reserve(accountId, settled, 120);
    await budget.reserve(accountId, released, 80);
    expect(await budget.view(accountId)).toMatchObject({ reserved_cents: 200, remaining_cents: 300 });
    await budget.settle(accountId, settled, 97.25);
    await budget.release(accountId, released);
    await budget.settle(accountId, settled, 500); // already closed: no effect
    await budget.release(accountId, settled);
    expect(await budget.view(accountId)).toMatchObject({ pool_cents: 500, spent_cents: 97.25, reserved_cents: 0, remaining_cents: 402.75 });
    expect(await budget.ledgerTotals(accountId)).toEqual({ pool: 500, spent: 97.25, reserved: 0 });
  });

  it('refuses a reservation the remaining pool cannot cover; a re-run hold is placed once', async () => {
    const accountId = await freshAccount(100);
    await expect(budget.reserve(accountId, { type: 'scan', id: randomUUID() }, 101)).rejects.toMatchObject({ code: 'budget_exhausted' });
    const rerun = { type: 'export', id: randomUUID() };
    expect(await budget.reserveOnce(accountId, rerun, 60)).toBe(true);
    expect(await budget.reserveOnce(accountId, rerun, 60)).toBe(true); // the same job again: the hold exists
    expect(await budget.reserveOnce(accountId, { type: 'export', id: randomUUID() }, 60)).toBe(false);
    expect(await budget.view(accountId)).toMatchObject({ reserved_cents: 60, remaining_cents: 40 });
  });

  it('moves money at most once per piece of work: the database refuses a second hold, closing entry or charge', async () => {
    const accountId = await freshAccount(1000);
    const work = { type: 'export', id: randomUUID() };
    await budget.reserve(accountId, work, 100);
    await budget.settle(accountId, work, 70);
    const insert = (kind: string) =>
      t.app
        .get(DataSource)
        .query(`INSERT INTO budget_ledger (account_id, kind, amount_cents, reference_type, reference_id) VALUES ($1, $2, 1, $3, $4)`, [
          accountId,
          kind,
          work.type,
          work.id,
        ]);
    await expect(budget.reserve(accountId, work, 100)).rejects.toThrow(/ux_budget_ledger_reservation/);
    await expect(insert('release')).rejects.toThrow(/ux_budget_ledger_closure/);
    await expect(insert('settlement')).rejects.toThrow(/ux_budget_ledger_closure/);
    await insert('charge');
    await expect(insert('charge')).rejects.toThrow(/ux_budget_ledger_charge/);
    expect(await budget.view(accountId)).toMatchObject({ spent_cents: 70, reserved_cents: 0 });
  });
});

describe('usage', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await bootTestApp();
  });
  afterAll(() => t.close());

  it('counts every /v1 request of the account by day, key and endpoint, with cost from the ledger', async () => {
    const account = await newAccount(t);
    const auth = { Authorization: `Bearer ${account.apiKey}` };
    for (let i = 0; i < 3; i++) await t.http().get('/v1/meta/engines').set(auth).expect(200);
    await t.http().get('/v1/meta/areas').set(auth).expect(200);
    await t.http().post(`/v1/keys/${randomUUID()}/revoke`).set('Cookie', account.cookie).expect(404);
    const accountId = await t.app.get(AccountsService).ensureAccount(account.accountId);
    const reference = { type: 'scan', id: randomUUID(), apiKeyId: account.keyId };
    await t.app.get(BudgetService).reserve(accountId, reference, 50);
    await t.app.get(BudgetService).settle(accountId, reference, 42.5);
    await t.app.get(UsageRecorder).flush();

    const byEndpoint = await t.http().get('/v1/usage?group_by=endpoint').set(auth).expect(200);
    const rows = Object.fromEntries(byEndpoint.body.data.map((row: { group: string }) => [row.group, row]));
    expect(rows['GET /v1/meta/engines']).toMatchObject({ requests: 3, scans: 0, exports: 0, cost_cents: 0 });
    expect(rows['GET /v1/meta/areas']).toMatchObject({ requests: 1 });
    expect(rows['POST /v1/keys']).toMatchObject({ requests: 1 });
    expect(rows['POST /v1/keys/:id/revoke']).toMatchObject({ requests: 1 });
    expect(rows['POST /v1/scans']).toMatchObject({ requests: 0, cost_cents: 42.5 });

    const byKey = await t.http().get('/v1/usage?group_by=api_key').set(auth).expect(200);
    const keyRow = byKey.body.data.find((row: { group: string | null }) => row.group === account.keyId);
    // The 4 GETs and the endpoint report above; dashboard calls have no key.
    expect(keyRow).toMatchObject({ requests: 5, cost_cents: 42.5 });
    expect(byKey.body.data.find((row: { group: string | null }) => row.group === null)).toMatchObject({ requests: 2 });

    const byDay = await t.http().get('/v1/usage').set('Cookie', account.cookie).expect(200);
    expect(byDay.body.group_by).toBe('day');
    const today = new Date().toISOString().slice(0, 10);
    expect(byDay.body.data.map((row: { group: string }) => row.group)).toContain(today);
    // The usage call itself is counted after it answers; the earlier calls are all there.
    expect(byDay.body.totals).toMatchObject({ scans: 0, exports: 0, cost_cents: 42.5 });
    expect(byDay.body.totals.requests).toBeGreaterThanOrEqual(8);
    expect(Date.parse(byDay.body.to) - Date.parse(byDay.body.from)).toBe(30 * 24 * 3600 * 1000);
  });

  it('groups by week and month and honours from/to', async () => {
    const account = await newAccount(t);
    const auth = { Authorization: `Bearer ${account.apiKey}` };
    await t.http().get('/v1/meta/engines').set(auth).expect(200);
    await t.app.get(UsageRecorder).flush();
    const month = await t.http().get('/v1/usage?group_by=month').set(auth).expect(200);
    expect(month.body.data.map((row: { group: string }) => row.group)).toEqual([new Date().toISOString().slice(0, 7)]);
    const week = await t.http().get('/v1/usage?group_by=week').set(auth).expect(200);
    expect(new Date(`${week.body.data[0].group}T00:00:00Z`).getUTCDay()).toBe(1);
    const past = await t.http().get('/v1/usage?from=2020-01-01T00:00:00Z&to=2020-02-01T00:00:00Z').set(auth).expect(200);
    expect(past.body).toMatchObject({
      from: '2020-01-01T00:00:00.000Z',
      to: '2020-02-01T00:00:00.000Z',
      data: [],
      totals: { requests: 0, scans: 0, exports: 0, cost_cents: 0 },
    });
  });

  it("never shows another account's usage", async () => {
    const a = await newAccount(t);
    const b = await newAccount(t);
    for (let i = 0; i < 5; i++) await t.http().get('/v1/meta/engines').set('Authorization', `Bearer ${a.apiKey}`).expect(200);
    await t.app.get(UsageRecorder).flush();
    const response = await t.http().get('/v1/usage?group_by=api_key').set('Authorization', `Bearer ${b.apiKey}`).expect(200);
    expect(response.body.data.map((row: { group: string | null }) => row.group)).not.toContain(a.keyId);
  });

  it.each([
    ['from after to', '?from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z', 'from', 'invalid_range'],
    ['an unknown group_by', '?group_by=hour', 'group_by', 'invalid'],
    ['a malformed from', '?from=yesterday', 'from', 'invalid'],
    ['a repeated parameter', '?group_by=day&group_by=week', 'group_by', 'invalid'],
  ])('rejects %s with 422 validation_error', async (_label, query, path, code) => {
    const { apiKey } = await newAccount(t);
    const response = await t.http().get(`/v1/usage${query}`).set('Authorization', `Bearer ${apiKey}`).expect(422);
    expect(response.body.code).toBe('validation_error');
    expect(response.body.errors).toEqual([{ path, code, message: expect.any(String) }]);
  });

  it('ignores unknown query parameters', async () => {
    const { apiKey } = await newAccount(t);
    await t.http().get('/v1/usage?utm_source=newsletter').set('Authorization', `Bearer ${apiKey}`).expect(200);
  });
});
