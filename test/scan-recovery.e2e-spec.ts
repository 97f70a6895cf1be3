import { randomUUID } from 'node:crypto';
import { getQueueToken } from '@nestjs/bull';
import type { Queue } from 'bull';
import type { AddressInfo } from 'node:net';
import { DataSource } from 'typeorm';
import { SCANS_QUEUE } from '../src/infra/queues/queue-names';
import { scanJobId } from '../src/modules/scans/scans.jobs';
import { validateScanConfig } from '../src/modules/scans/validation/scan-config.validator';
import { APP_CONFIG } from '../src/config/app-config';
import { AccountsService } from '../src/modules/accounts/accounts.service';
import { BudgetService } from '../src/modules/budget/budget.service';
import { ScansProcessor } from '../src/modules/scans/scans.processor';
import { removeBuild, startWorkerProcess } from './support/api-process';
import { pollUntil } from './support/poll';
import { openSse } from './support/sse';
import { bootTestApp, newAccount, type TestApp } from './support/test-app';

const CONFIG = { jurisdictions: ['EU', 'UK'], areas: ['Capital Markets'], horizon: 36 };

// The in-test app only serves HTTP here; separate worker processes run the queue.
describe('scan recovery', () => {
  let t: TestApp;
  const role = process.env.APP_ROLE;
  const spawned: Array<{ kill(): Promise<void> }> = [];

  beforeAll(async () => {
    process.env.APP_ROLE = 'api';
    t = await bootTestApp();
  });
  afterAll(async () => {
    await Promise.all(spawned.map((child) => child.kill()));
    await t.close();
    process.env.APP_ROLE = role;
    removeBuild();
  });

  it('does not leave a scan running when its worker is killed mid-scan', async () => {
    const owner = await newAccount(t);
    const accountId = await t.app.get(AccountsService).ensureAccount(owner.accountId);
    const doomed = await startWorkerProcess({ OFFLINE_STEP_MS: '400', SCAN_JOB_LOCK_MS: '1500' });
    spawned.push(doomed);
    const { body } = await t.http().post('/v1/scans?mode=async').set('Authorization', `Bearer ${owner.apiKey}`).send(CONFIG).expect(202);
    // Polled in the database: the reads bucket would not take a tight HTTP poll.
    const stored = async () => (await t.app.get(DataSource).query('SELECT status, progress FROM scans WHERE id = $1', [body.scan_id]))[0];
    await pollUntil(async () => (await stored()).progress.percent > 0, 20000);
    const server = t.app.getHttpServer();
    if (!server.listening) server.listen(0);
    const stream = await openSse(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, `/v1/scans/${body.scan_id}/stream`, {
      Authorization: `Bearer ${owner.apiKey}`,
    });
    await doomed.kill();

    const rescuer = await startWorkerProcess({ OFFLINE_STEP_MS: '5', SCAN_JOB_LOCK_MS: '1500' });
    spawned.push(rescuer);
    try {
      await pollUntil(async () => (await stored()).status !== 'running', 30000, 200);
      const finished = (await t.http().get(`/v1/scans/${body.scan_id}`).set('Authorization', `Bearer ${owner.apiKey}`).expect(200)).body;
      // Bull hands the stalled job to the surviving worker once; had it stalled again, the scan would fail.
      expect(['completed', 'failed']).toContain(finished.status);
      if (finished.status === 'failed') expect(finished.error).toMatch(/worker/);
      expect((await t.app.get(BudgetService).view(accountId)).reserved_cents).toBe(0);
      // The stream's client is told why progress starts again from zero.
      await stream.ended;
      if (finished.status === 'completed') {
        expect(stream.events).toContainEqual(
          expect.objectContaining({ type: 'progress', percent: 0, message: expect.stringMatching(/interrupted/) }),
        );
      }
    } finally {
      await rescuer.stop();
    }
  }, 60_000);

  it('on SIGTERM a worker stops promptly and the scan goes back to the queue for another worker', async () => {
    const owner = await newAccount(t);
    const leaving = await startWorkerProcess({ OFFLINE_STEP_MS: '2000', SCAN_JOB_LOCK_MS: '1500' });
    spawned.push(leaving);
    const { body } = await t.http().post('/v1/scans?mode=async').set('Authorization', `Bearer ${owner.apiKey}`).send(CONFIG).expect(202);
    const stored = async () => (await t.app.get(DataSource).query('SELECT status, progress FROM scans WHERE id = $1', [body.scan_id]))[0];
    await pollUntil(async () => (await stored()).progress.percent > 0, 20000);
    const stopping = Date.now();
    await leaving.stop();
    expect(Date.now() - stopping).toBeLessThan(5000);
    expect((await stored()).status).toBe('running');

    const next = await startWorkerProcess({ OFFLINE_STEP_MS: '5', SCAN_JOB_LOCK_MS: '1500' });
    spawned.push(next);
    await pollUntil(async () => (await stored()).status === 'completed', 30000, 200);
    await next.stop();
  }, 60_000);

  const insertRunningScan = async (accountId: string) => {
    const scanId = randomUUID();
    await t.app.get(DataSource).transaction(async (manager) => {
      await t.app.get(BudgetService).reserve(accountId, { type: 'scan', id: scanId }, 40, manager);
      await manager.query(
        `INSERT INTO scans (id, account_id, status, progress, config, engine, mode, reserved_cents, fingerprint_key, updated_at)
         VALUES ($1, $2, 'running', '{"phase":"analyse","percent":55,"message":"…"}', $3, 'v4', 'async', 40, 'x', now() - interval '1 hour')`,
        [scanId, accountId, JSON.stringify(validateScanConfig(CONFIG, t.app.get(APP_CONFIG)).config)],
      );
    });
    return scanId;
  };

  it('re-queues a running scan whose job is gone (Redis restarted empty), and it completes and is charged once', async () => {
    const owner = await newAccount(t);
    const accountId = await t.app.get(AccountsService).ensureAccount(owner.accountId);
    const scanId = await insertRunningScan(accountId);
    // Any worker's reconciler may be the one that re-queues it; this call makes sure one has.
    await t.app.get(ScansProcessor).reconcile();
    const worker = await startWorkerProcess({ OFFLINE_STEP_MS: '5' });
    spawned.push(worker);
    try {
      const stored = async () => (await t.app.get(DataSource).query('SELECT status FROM scans WHERE id = $1', [scanId]))[0];
      await pollUntil(async () => (await stored()).status !== 'running', 30000, 200);
      const view = await t.http().get(`/v1/scans/${scanId}`).set('Authorization', `Bearer ${owner.apiKey}`).expect(200);
      expect(view.body).toMatchObject({ status: 'completed', snapshot_id: expect.any(String) });
      const budget = await t.app.get(BudgetService).view(accountId);
      expect(budget).toMatchObject({ reserved_cents: 0, spent_cents: view.body.cost_cents });
      expect(await t.app.get(BudgetService).ledgerTotals(accountId)).toMatchObject({ reserved: 0, spent: view.body.cost_cents });
    } finally {
      await worker.stop();
    }
  }, 60_000);

  it('fails a running scan whose job failed while its failure could not be written, and releases its hold', async () => {
    const owner = await newAccount(t);
    const accountId = await t.app.get(AccountsService).ensureAccount(owner.accountId);
    const scanId = await insertRunningScan(accountId);
    // A job Bull gave up on (its worker died twice) whose scan row still says running.
    const queue = t.app.get<Queue>(getQueueToken(SCANS_QUEUE));
    await queue.add({ scanId }, { jobId: scanJobId(scanId), attempts: 1 });
    // Taken as a worker would take it (no worker runs in this file now), then given up as Bull does.
    const job = await queue.getNextJob();
    expect(job?.id).toBe(scanJobId(scanId));
    await job!.moveToFailed({ message: 'job stalled more than allowable limit' }, true);
    await t.app.get(ScansProcessor).reconcile();
    const view = await t.http().get(`/v1/scans/${scanId}`).set('Authorization', `Bearer ${owner.apiKey}`).expect(200);
    expect(view.body).toMatchObject({ status: 'failed', error: expect.stringMatching(/worker/), cost_cents: 0 });
    expect(await t.app.get(BudgetService).view(accountId)).toMatchObject({ reserved_cents: 0, spent_cents: 0 });
  });

  it('closes a budget hold left open by a scan that reached its final state', async () => {
    const owner = await newAccount(t);
    const accountId = await t.app.get(AccountsService).ensureAccount(owner.accountId);
    const scanId = await insertRunningScan(accountId);
    // Finished by hand, as a process that died between the two writes of the old code would have left it.
    await t.app
      .get(DataSource)
      .query(`UPDATE scans SET status = 'completed', cost_cents = 16, completed_at = now() WHERE id = $1`, [scanId]);
    expect((await t.app.get(BudgetService).view(accountId)).reserved_cents).toBe(40);
    await t.app.get(ScansProcessor).reconcile();
    expect(await t.app.get(BudgetService).view(accountId)).toMatchObject({ reserved_cents: 0, spent_cents: 16 });
  });
});
