import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { AccountsService } from '../src/modules/accounts/accounts.service';
import { BudgetService } from '../src/modules/budget/budget.service';
import { ExportsProcessor } from '../src/modules/exports/exports.processor';
import { startFakeNotebookServer } from './fakes/fake-media-servers';
import { removeBuild, startWorkerProcess, type ServiceProcess } from './support/api-process';
import { pollUntil } from './support/poll';
import { bootTestApp, newAccount, type TestApp } from './support/test-app';
import type { Queue } from 'bull';
import { getQueueToken } from '@nestjs/bull';
import { EXPORTS_QUEUE } from '../src/infra/queues/queue-names';

const WORKER_ENV = { OFFLINE_STEP_MS: '5', EXPORT_JOB_LOCK_MS: '1500', RECONCILE_INTERVAL_MS: '500' };

// Separate worker processes run the queue, so they can be killed mid-export; the in-test app only serves HTTP.
describe('export recovery and money under worker loss', () => {
  let t: TestApp;
  let notebook: Awaited<ReturnType<typeof startFakeNotebookServer>>;
  let owner: Awaited<ReturnType<typeof newAccount>>;
  let accountId: string;
  let snapshotId: string;
  const role = process.env.APP_ROLE;
  const workers: ServiceProcess[] = [];
  const worker = async () => {
    const started = await startWorkerProcess(WORKER_ENV);
    workers.push(started);
    return started;
  };

  beforeAll(async () => {
    process.env.APP_ROLE = 'api';
    t = await bootTestApp();
    notebook = await startFakeNotebookServer();
    owner = await newAccount(t);
    accountId = await t.app.get(AccountsService).ensureAccount(owner.accountId);
    await t.app.get(AccountsService).setIntegration(accountId, 'notebook', { apiKey: notebook.apiKey, baseUrl: notebook.baseUrl });
    const scanner = await worker();
    snapshotId = (
      await t
        .http()
        .post('/v1/scans')
        .set('Authorization', `Bearer ${owner.apiKey}`)
        .send({ jurisdictions: ['EU'], areas: ['Payments'], horizon: 24 })
        .expect(200)
    ).body.snapshot_id;
    await scanner.stop();
  }, 60_000);
  afterAll(async () => {
    await Promise.all(workers.map((w) => w.kill()));
    await t.close();
    await notebook.close();
    process.env.APP_ROLE = role;
    removeBuild();
  });

  const createExport = async () =>
    (
      await t
        .http()
        .post('/v1/exports')
        .set('Authorization', `Bearer ${owner.apiKey}`)
        .send({ snapshot_id: snapshotId, provider: 'notebook', artifact_type: 'infographic' })
        .expect(202)
    ).body.export_job_id as string;
  const ledger = async (exportId: string) =>
    (
      await t.app
        .get(DataSource)
        .query(
          `SELECT kind, amount_cents::float AS amount FROM budget_ledger WHERE reference_type = 'export' AND reference_id = $1 ORDER BY id`,
          [exportId],
        )
    ).map((row: { kind: string; amount: number }) => `${row.kind}:${row.amount}`);
  const status = async (exportId: string) =>
    (await t.app.get(DataSource).query('SELECT status, error FROM export_jobs WHERE id = $1', [exportId]))[0];
  const submissions = () => notebook.jobs.length;

  it('a worker killed mid-export: another worker finishes it, and it is charged exactly once', async () => {
    notebook.pollsUntilDone = 100_000;
    const before = submissions();
    const first = await worker();
    const exportId = await createExport();
    await pollUntil(async () => submissions() > before && (await ledger(exportId)).length === 1, 20000, 50);
    await first.kill();

    notebook.pollsUntilDone = 1;
    await worker();
    await pollUntil(async () => (await status(exportId)).status !== 'processing', 40000, 100);
    expect(await status(exportId)).toMatchObject({ status: 'completed' });
    // One hold, placed by the first run and reused by the second; one settlement at the provider's cost.
    expect(await ledger(exportId)).toEqual(['reservation:20', 'settlement:37']);
    expect((await t.app.get(BudgetService).view(accountId)).reserved_cents).toBe(0);
  }, 90_000);

  it('a worker killed twice mid-export: the export is given up as cancelled, its hold is released, nothing is charged', async () => {
    for (const running of workers.splice(0)) await running.kill();
    notebook.pollsUntilDone = 100_000;
    const spentBefore = (await t.app.get(BudgetService).view(accountId)).spent_cents;
    const exportId = await createExport();
    for (let round = 1; round <= 2; round++) {
      const before = submissions();
      const doomed = await worker();
      await pollUntil(async () => submissions() > before, 30000, 50);
      await doomed.kill();
    }
    await worker();
    await pollUntil(async () => (await status(exportId)).status !== 'processing', 40000, 100);
    expect(await status(exportId)).toMatchObject({ status: 'cancelled', error: expect.stringMatching(/workers .* given up/) });
    expect(await ledger(exportId)).toEqual(['reservation:20', 'release:0']);
    const budget = await t.app.get(BudgetService).view(accountId);
    expect(budget).toMatchObject({ reserved_cents: 0, spent_cents: spentBefore });
    expect(await t.app.get(BudgetService).ledgerTotals(accountId)).toEqual({
      pool: budget.pool_cents,
      spent: budget.spent_cents,
      reserved: 0,
    });
  }, 120_000);

  it('cancels an export whose job Bull gave up (stalled past the limit) while that could not be written; the list shows it', async () => {
    for (const running of workers.splice(0)) await running.kill();
    const exportId = randomUUID();
    await t.app.get(DataSource).query(
      `INSERT INTO export_jobs (id, account_id, snapshot_id, provider, artifact_type, options, status, updated_at)
       VALUES ($1, $2, $3, 'internal-csv', 'csv', '{}', 'processing', now() - interval '1 hour')`,
      [exportId, accountId, snapshotId],
    );
    const queue = t.app.get<Queue>(getQueueToken(EXPORTS_QUEUE));
    await queue.add({ exportId }, { jobId: `export:${exportId}`, attempts: 1 });
    // Taken as a worker would take it (no worker runs now), then given up as Bull does.
    const job = await queue.getNextJob();
    expect(job?.id).toBe(`export:${exportId}`);
    await job!.moveToFailed({ message: 'job stalled more than allowable limit' }, true);
    await t.app.get(ExportsProcessor).reconcile();
    const auth = `Bearer ${owner.apiKey}`;
    const shown = (await t.http().get(`/v1/exports/${exportId}`).set('Authorization', auth).expect(200)).body;
    expect(shown).toMatchObject({ status: 'cancelled', error: expect.stringMatching(/given up/), download_url: null });
    const listed = await t.http().get('/v1/exports?status=cancelled').set('Authorization', auth).expect(200);
    expect(listed.body.data.map((j: { id: string }) => j.id)).toContain(exportId);
    expect((await t.http().get(`/v1/exports/${exportId}/download`).set('Authorization', auth).expect(409)).body.code).toBe('not_ready');
  });

  it('re-queues an export whose job vanished (Redis restarted empty), and it completes', async () => {
    notebook.pollsUntilDone = 1;
    const exportId = randomUUID();
    await t.app.get(DataSource).query(
      `INSERT INTO export_jobs (id, account_id, snapshot_id, provider, artifact_type, options, status, updated_at)
       VALUES ($1, $2, $3, 'internal-csv', 'csv', '{}', 'queued', now() - interval '1 hour')`,
      [exportId, accountId, snapshotId],
    );
    await t.app.get(ExportsProcessor).reconcile();
    if (!workers.some((w) => w.child.exitCode === null)) await worker();
    await pollUntil(async () => (await status(exportId)).status === 'completed', 30000, 100);
  }, 60_000);
});
