import { getQueueToken } from '@nestjs/bull';
import type { Queue } from 'bull';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { APP_CONFIG } from '../src/config/app-config';
import { SCANS_QUEUE } from '../src/infra/queues/queue-names';
import { AccountsService } from '../src/modules/accounts/accounts.service';
import { BudgetService } from '../src/modules/budget/budget.service';
import { scanJobOptions } from '../src/modules/scans/scans.jobs';
import { validateScanConfig } from '../src/modules/scans/validation/scan-config.validator';
import { pollUntil } from './support/poll';
import { bootTestApp, bootTestAppWithEnv, newAccount, type TestApp } from './support/test-app';

const finished = async (t: TestApp, apiKey: string, scanId: string) => {
  await pollUntil(
    async () => (await t.app.get(DataSource).query('SELECT status FROM scans WHERE id = $1', [scanId]))[0]?.status !== 'running',
    60000,
    100,
  );
  return (await t.http().get(`/v1/scans/${scanId}`).set('Authorization', `Bearer ${apiKey}`).expect(200)).body;
};

describe('scans that must finish cleanly whatever their configuration', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await bootTestApp();
  });
  afterAll(() => t.close());

  it('completes a council scan of 20 jurisdictions x 20 areas of maximum length with 7 translations', async () => {
    const owner = await newAccount(t);
    const body = {
      engine: 'council',
      horizon: 36,
      jurisdictions: Array.from({ length: 20 }, (_, i) => `Jurisdiction ${i} `.padEnd(100, 'x')),
      areas: Array.from({ length: 20 }, (_, i) => `Area ${i} `.padEnd(200, 'y')),
      translationLanguages: ['fr', 'de', 'es', 'it', 'zh', 'ja', 'pt'],
    };
    const created = await t.http().post('/v1/scans?mode=async').set('Authorization', `Bearer ${owner.apiKey}`).send(body).expect(202);
    const scan = await finished(t, owner.apiKey, created.body.scan_id);
    expect(scan).toMatchObject({ status: 'completed', error: null });
    const snapshot = await t.http().get(`/v1/snapshots/${scan.snapshot_id}`).set('Authorization', `Bearer ${owner.apiKey}`).expect(200);
    expect(snapshot.body.title).toMatch(/^Regulatory horizon: Jurisdiction 0 .* and \d+ more · .* — council$/);
  }, 90_000);
});

describe('the running cost ceiling', () => {
  let t: TestApp;

  beforeAll(async () => {
    // The strictest ceiling there is: a scan may not cost more than it reserved.
    t = await bootTestAppWithEnv({ SCAN_COST_CEILING_PERCENT: '100', SCAN_COST_HEADROOM_CENTS: '0' });
  });
  afterAll(() => t.close());

  it('stops a scan whose cost passes its ceiling, with a clear error, and charges nothing', async () => {
    const owner = await newAccount(t);
    const accountId = await t.app.get(AccountsService).ensureAccount(owner.accountId);
    const spentBefore = (await t.app.get(BudgetService).view(accountId)).spent_cents;
    // Reserved 3 cents; the offline engine spends 2 cents a phase, so the second phase passes the ceiling.
    const scanId = randomUUID();
    const config = validateScanConfig({ jurisdictions: ['EU'], areas: ['Payments'], horizon: 12 }, t.app.get(APP_CONFIG)).config;
    await t.app.get(DataSource).transaction(async (manager) => {
      await t.app.get(BudgetService).reserve(accountId, { type: 'scan', id: scanId }, 3, manager);
      await manager.query(
        `INSERT INTO scans (id, account_id, status, progress, config, engine, mode, reserved_cents, fingerprint_key)
         VALUES ($1, $2, 'running', '{"phase":"queued","percent":0,"message":"Queued"}', $3, 'v4', 'async', 3, 'x')`,
        [scanId, accountId, JSON.stringify(config)],
      );
    });
    await t.app.get<Queue>(getQueueToken(SCANS_QUEUE)).add({ scanId }, scanJobOptions(scanId));
    const scan = await finished(t, owner.apiKey, scanId);
    expect(scan).toMatchObject({ status: 'failed', cost_cents: 0 });
    expect(scan.error).toMatch(/^The scan stopped: its cost reached 4 cents, past its ceiling of 3 cents .*no charge was made$/);
    expect(await t.app.get(BudgetService).view(accountId)).toMatchObject({ reserved_cents: 0, spent_cents: spentBefore });
  });
});
