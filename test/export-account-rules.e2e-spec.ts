import type { Queue } from 'bull';
import { getQueueToken } from '@nestjs/bull';
import { DataSource } from 'typeorm';
import { runCli } from '../src/cli/run-cli';
import { EXPORTS_QUEUE } from '../src/infra/queues/queue-names';
import { AccountsService } from '../src/modules/accounts/accounts.service';
import { WebhooksService } from '../src/modules/webhooks/webhooks.service';
import { startFakeNotebookServer, type FakeNotebookServer } from './fakes/fake-media-servers';
import { pollUntil } from './support/poll';
import { bootTestAppWithEnv, downloadExport, finishedExport, newAccount, type TestApp } from './support/test-app';

async function cli(...argv: string[]) {
  let out = '';
  let err = '';
  const code = await runCli(argv, { out: (text) => (out += text), err: (text) => (err += text) });
  return { code, out: out.trim(), err };
}

interface Customer {
  externalId: string;
  accountId: string;
  auth: string;
  snapshotId: string;
}

// One export at a time, so what waits in the queue, and in which order it is served, can be observed.
describe('account export settings and operator cancel (issue #15, item 8)', () => {
  let t: TestApp;
  let notebook: FakeNotebookServer;

  beforeAll(async () => {
    // Loopback webhook URLs: an endpoint is registered only to see which export events are recorded.
    t = await bootTestAppWithEnv({ EXPORT_WORKER_CONCURRENCY: '1', WEBHOOK_ALLOW_LOOPBACK_URLS: 'true' });
    notebook = await startFakeNotebookServer({ pollsUntilDone: 1 });
  });
  afterAll(async () => {
    await t.close();
    await notebook.close();
  });

  const customer = async (): Promise<Customer> => {
    const owner = await newAccount(t);
    const auth = `Bearer ${owner.apiKey}`;
    const accountId = await t.app.get(AccountsService).ensureAccount(owner.accountId);
    await t.app.get(AccountsService).setIntegration(accountId, 'notebook', { apiKey: notebook.apiKey, baseUrl: notebook.baseUrl });
    const scan = await t
      .http()
      .post('/v1/scans')
      .set('Authorization', auth)
      .send({ jurisdictions: ['EU'], areas: ['Payments'], horizon: 24 })
      .expect(200);
    return { externalId: owner.accountId, accountId, auth, snapshotId: scan.body.snapshot_id };
  };
  const createExport = async (who: Customer, body: object) =>
    (
      await t
        .http()
        .post('/v1/exports')
        .set('Authorization', who.auth)
        .send({ snapshot_id: who.snapshotId, ...body })
        .expect(202)
    ).body.export_job_id as string;
  const status = async (id: string) => (await t.app.get(DataSource).query('SELECT status FROM export_jobs WHERE id = $1', [id]))[0]?.status;
  const submitted = (instructions: string) => notebook.jobs.find((job) => (job.request.options as Record<string, string>).instructions === instructions);
  /** Occupies the only export slot with a notebook job that runs until `release()`. */
  const occupyWorker = async (who: Customer) => {
    notebook.pollsUntilDone = 1_000_000;
    const before = notebook.jobs.length;
    const id = await createExport(who, { provider: 'notebook', artifact_type: 'video-explainer' });
    await pollUntil(async () => notebook.jobs.length > before, 20000, 50);
    return { id, job: notebook.jobs[before]!, release: () => (notebook.pollsUntilDone = 1) };
  };

  describe('instructions and the account default', () => {
    it('keeps the request instructions while customisation is on (the default)', async () => {
      const who = await customer();
      const id = await createExport(who, { provider: 'notebook', artifact_type: 'infographic', options: { instructions: 'Focus on AML' } });
      const done = await finishedExport(t, id, who.auth);
      expect(done).toMatchObject({ status: 'completed', options: { instructions: 'Focus on AML' } });
      expect(submitted('Focus on AML')?.kind).toBe('infographic');
    });

    it('replaces them by the account default while customisation is off, and shows what was used', async () => {
      const who = await customer();
      const set = await cli('customisation:set', '--account', who.externalId, '--free-text', 'off', '--default-instructions', 'House style: neutral');
      expect(set.code).toBe(0);
      expect(JSON.parse(set.out)).toEqual({ free_text_customisation: false, default_instructions: 'House style: neutral', export_lane: 'realtime' });

      const created = await t
        .http()
        .post('/v1/exports')
        .set('Authorization', who.auth)
        .send({ snapshot_id: who.snapshotId, provider: 'notebook', artifact_type: 'audio', options: { instructions: 'Be snarky' } })
        .expect(202);
      const done = await finishedExport(t, created.body.export_job_id, who.auth);
      expect(done).toMatchObject({ status: 'completed', options: { instructions: 'House style: neutral' } });
      expect(submitted('House style: neutral')?.kind).toBe('audio');
      expect(submitted('Be snarky')).toBeUndefined();
    });

    it('drops them while customisation is off and the account has no default', async () => {
      const who = await customer();
      await cli('customisation:set', '--account', who.externalId, '--free-text', 'off', '--default-instructions', 'temporary');
      const cleared = await cli('customisation:set', '--account', who.externalId, '--clear-default-instructions');
      expect(JSON.parse(cleared.out)).toMatchObject({ free_text_customisation: false, default_instructions: null });
      const before = notebook.jobs.length;
      const id = await createExport(who, { provider: 'notebook', artifact_type: 'slide-detailed', options: { instructions: 'Dropped text' } });
      const done = await finishedExport(t, id, who.auth);
      expect(done.status).toBe('completed');
      expect(done.options).not.toHaveProperty('instructions');
      const sent = notebook.jobs.slice(before).find((job) => job.kind === 'slide-detailed');
      expect(sent?.request.options).not.toHaveProperty('instructions');
      expect(notebook.requests.find((r) => r.method === 'POST' && r.path === '/v1/jobs')?.headers.authorization).toBe(`Bearer ${notebook.apiKey}`);
    });
  });

  describe('the export lane', () => {
    it("serves a batch-lane account's AI export after real-time work queued later; internal types are not held back", async () => {
      const batch = await customer();
      const realtime = await customer();
      const lane = await cli('export-lane:set', '--account', batch.externalId, '--lane', 'batch');
      expect(lane.code).toBe(0);
      expect(JSON.parse(lane.out)).toMatchObject({ export_lane: 'batch' });

      const blocker = await occupyWorker(realtime);
      const batchAi = await createExport(batch, { provider: 'notebook', artifact_type: 'infographic', options: { instructions: 'batch lane' } });
      const batchCsv = await createExport(batch, { provider: 'internal-csv', artifact_type: 'csv' });
      const realtimeAi = await createExport(realtime, { provider: 'notebook', artifact_type: 'audio', options: { instructions: 'realtime lane' } });

      const queue = t.app.get<Queue>(getQueueToken(EXPORTS_QUEUE));
      const priority = async (id: string) => (await queue.getJob(`export:${id}`))?.opts.priority;
      expect(await priority(batchAi)).toBeGreaterThan((await priority(realtimeAi))!);
      expect(await priority(batchCsv)).toBe(await priority(realtimeAi));

      blocker.release();
      for (const [id, who] of [
        [blocker.id, realtime],
        [batchAi, batch],
        [batchCsv, batch],
        [realtimeAi, realtime],
      ] as const)
        expect((await finishedExport(t, id, who.auth)).status).toBe('completed');
      const order = notebook.jobs.map((job) => (job.request.options as Record<string, string>).instructions);
      expect(order.indexOf('realtime lane')).toBeGreaterThan(-1);
      expect(order.indexOf('realtime lane')).toBeLessThan(order.indexOf('batch lane'));
    });
  });

  describe('operator cancel', () => {
    it('cancels a queued and a processing export: cancelled, the provider job is stopped, 409 on download, listed as cancelled', async () => {
      const who = await customer();
      await t.app.get(WebhooksService).create(who.accountId, { url: 'https://127.0.0.1:9/hooks', events: ['export.completed', 'export.failed'] });
      const blocker = await occupyWorker(who);
      const queued = await createExport(who, { provider: 'internal-csv', artifact_type: 'csv' });

      const cancelQueued = await cli('exports:cancel', '--export', queued);
      expect(cancelQueued.code).toBe(0);
      const shown = (await t.http().get(`/v1/exports/${queued}`).set('Authorization', who.auth).expect(200)).body;
      expect(shown).toMatchObject({ status: 'cancelled', download_url: null, error: expect.stringMatching(/operator/) });

      expect(await status(blocker.id)).toBe('processing');
      const cancelRunning = await cli('exports:cancel', '--export', blocker.id);
      expect(cancelRunning.code).toBe(0);
      // The worker notices, stops polling and withdraws the provider job (DELETE /v1/jobs/{id}).
      await pollUntil(async () => blocker.job.cancelled, 20000, 50);
      expect(notebook.requests.some((r) => r.method === 'DELETE' && r.path === `/v1/jobs/${blocker.job.id}`)).toBe(true);
      const pollsAtCancel = blocker.job.polls;
      blocker.release();
      // The next export runs (the slot is free again), and the cancelled job is never polled again.
      const after = await createExport(who, { provider: 'notebook', artifact_type: 'infographic' });
      expect((await finishedExport(t, after, who.auth)).status).toBe('completed');
      expect(blocker.job.polls).toBe(pollsAtCancel);
      expect(await status(blocker.id)).toBe('cancelled');
      expect(await status(queued)).toBe('cancelled');

      const download = await downloadExport(t, blocker.id, who.auth).expect(409);
      expect(download.body.toString()).toMatch(/not_ready/);
      const listed = await t.http().get('/v1/exports?status=cancelled').set('Authorization', who.auth).expect(200);
      expect(listed.body.data.map((job: { id: string }) => job.id).sort()).toEqual([queued, blocker.id].sort());

      // The hold of the cancelled notebook export is released: nothing charged.
      const ledger = await t.app
        .get(DataSource)
        .query(`SELECT kind FROM budget_ledger WHERE reference_type = 'export' AND reference_id = $1 ORDER BY id`, [blocker.id]);
      expect(ledger.map((row: { kind: string }) => row.kind)).toEqual(['reservation', 'release']);

      // Webhooks: the completed export is reported; neither cancelled one is (there is no export.cancelled event).
      const events = await t.app
        .get(DataSource)
        .query(`SELECT event_type, payload->'data'->>'export_job_id' AS export_id FROM webhook_deliveries WHERE account_id = $1`, [who.accountId]);
      expect(events).toEqual([{ event_type: 'export.completed', export_id: after }]);

      const again = await cli('exports:cancel', '--export', blocker.id);
      expect(again.code).toBe(1);
      expect(again.err).toMatch(/already cancelled/);
    });
  });

  describe('CLI validation', () => {
    it.each([
      ['free-text neither on nor off', ['customisation:set', '--account', 'a', '--free-text', 'maybe'], /--free-text: must be on or off/],
      [
        'a default over 2000 characters',
        ['customisation:set', '--account', 'a', '--default-instructions', '😀'.repeat(2001)],
        /--default-instructions: at most 2000 characters/,
      ],
      [
        'a default and its clearing together',
        ['customisation:set', '--account', 'a', '--default-instructions', 'x', '--clear-default-instructions'],
        /not both/,
      ],
      ['customisation:set without a change', ['customisation:set', '--account', 'a'], /nothing to change/],
      ['an unknown lane', ['export-lane:set', '--account', 'a', '--lane', 'slow'], /--lane: must be realtime or batch/],
      ['export-lane:set without --lane', ['export-lane:set', '--account', 'a'], /--lane is required/],
      ['an export id that is not a UUID', ['exports:cancel', '--export', 'not-a-uuid'], /--export: must be an export id \(a UUID\)/],
    ])('refuses %s with exit code 2', async (_label, argv, message) => {
      const result = await cli(...argv);
      expect(result.code).toBe(2);
      expect(result.err).toMatch(message);
    });

    it('exports:cancel of an unknown export fails with exit code 1', async () => {
      const result = await cli('exports:cancel', '--export', '5f0c7a1e-2b3d-4c5e-8f90-1a2b3c4d5e6f');
      expect(result.code).toBe(1);
      expect(result.err).toMatch(/not found/);
    });
  });
});
