import type { Browser, Page } from 'playwright-core';
import { APP_CONFIG, type AppConfig } from '../src/config/app-config';
import { authorize, launchChromium, openSwaggerUi, tryOperation, type TryItOut } from './support/swagger-ui';
import { bootTestApp, finishedExport, newAccount, type TestApp } from './support/test-app';

// What a reader of README's "open /docs, click Authorize, try any operation" does, in a real browser: every
// operation, as the document pre-fills it, succeeds. Only ids of the reader's own resources are typed in.
const SCAN = { jurisdictions: ['EU', 'UK'], areas: ['AML / KYC', 'Payments'], horizon: 12 };
const BOOT_MS = 120000;
const OPERATION_MS = 90000;

interface Fixtures {
  scanId: string;
  snapshotId: string;
  pdfExportId: string;
  doomedExportId: string;
  spareKeyId: string;
  webhookEndpointId: string;
  spareWebhookEndpointId: string;
  webhookDeliveryId: string;
}

/** Every operation of the document, with what the reader types in beyond Swagger's pre-filled values. */
const OPERATIONS: Record<string, (f: Fixtures) => TryItOut> = {
  'Health/getLiveness': () => ({}),
  'Health/getReadiness': () => ({}),
  'Discovery/listAreas': () => ({}),
  'Discovery/listEngines': () => ({}),
  'Discovery/listExportTypes': () => ({}),
  'Discovery/listJurisdictions': () => ({}),
  'Discovery/listModels': () => ({}),
  'Keys/createApiKey': () => ({}),
  'Keys/listApiKeys': () => ({}),
  'Keys/revokeApiKey': (f) => ({ path: { id: f.spareKeyId } }),
  'Scans/estimateScan': () => ({}),
  'Scans/createScan': () => ({}),
  'Scans/getScan': (f) => ({ path: { id: f.scanId } }),
  // A finished scan's stream replays its terminal event and closes, so Swagger can show it.
  'Scans/streamScan': (f) => ({ path: { id: f.scanId } }),
  'Snapshots/listSnapshots': () => ({}),
  'Snapshots/getSnapshot': (f) => ({ path: { id: f.snapshotId } }),
  'Snapshots/getSnapshotBriefing': (f) => ({ path: { id: f.snapshotId } }),
  'Snapshots/getSnapshotDrift': (f) => ({ path: { id: f.snapshotId } }),
  'Snapshots/getSnapshotExecutiveNarrative': (f) => ({ path: { id: f.snapshotId } }),
  'Snapshots/getSnapshotExecutiveSummary': (f) => ({ path: { id: f.snapshotId } }),
  'Snapshots/getSnapshotItems': (f) => ({ path: { id: f.snapshotId } }),
  'Snapshots/getSnapshotTrends': (f) => ({ path: { id: f.snapshotId } }),
  'Exports/createExport': (f) => ({ body: { snapshot_id: f.snapshotId } }),
  'Exports/listExports': () => ({}),
  'Exports/getExport': (f) => ({ path: { id: f.pdfExportId } }),
  'Exports/deleteExport': (f) => ({ path: { id: f.doomedExportId } }),
  'Usage/getUsage': () => ({}),
  'Usage/getBudget': () => ({}),
  'Webhooks/createWebhookEndpoint': () => ({}),
  'Webhooks/listWebhookEndpoints': () => ({}),
  'Webhooks/getWebhookEndpoint': (f) => ({ path: { id: f.webhookEndpointId } }),
  'Webhooks/updateWebhookEndpoint': (f) => ({ path: { id: f.webhookEndpointId } }),
  'Webhooks/rotateWebhookSecret': (f) => ({ path: { id: f.webhookEndpointId } }),
  'Webhooks/deleteWebhookEndpoint': (f) => ({ path: { id: f.spareWebhookEndpointId } }),
  'Webhooks/listWebhookDeliveries': (f) => ({ path: { id: f.webhookEndpointId } }),
  'Webhooks/getWebhookDelivery': (f) => ({ path: { id: f.webhookDeliveryId } }),
};

/**
 * Operations that cannot succeed when tried from Swagger UI, each with the reason. Empty today: revoke and delete get
 * spare resources, a finished scan's stream closes, and the two below have tests of their own.
 */
const NOT_FROM_THE_UI: Record<string, string> = {};
const OWN_TESTS = ['Scans/cancelScan', 'Exports/downloadExport'];

describe('Swagger UI in a browser', () => {
  let t: TestApp;
  let config: AppConfig;
  let browser: Browser;
  let page: Page;
  let auth: string;
  const fixtures = {} as Fixtures;

  beforeAll(async () => {
    browser = await launchChromium();
    t = await bootTestApp();
    await t.app.listen(0, '127.0.0.1');
    const baseUrl = `http://127.0.0.1:${(t.app.getHttpServer().address() as { port: number }).port}`;
    config = t.app.get(APP_CONFIG);
    // No DASHBOARD_ORIGINS entry: /docs is the API's own origin, which the CSRF check accepts.
    expect(config.dashboard.origins).not.toContain(baseUrl);
    const owner = await newAccount(t);
    auth = `Bearer ${owner.apiKey}`;
    const spare = await t.http().post('/v1/keys').set('Cookie', owner.cookie).send({ name: 'to revoke' }).expect(201);
    // Registered before the scan, so the scan's completion leaves a delivery to read.
    const endpoint = (url: string) =>
      t.http().post('/v1/webhooks/endpoints').set('Cookie', owner.cookie).send({ url, events: ['scan.completed'] }).expect(201);
    const hook = await endpoint('https://hooks.example.com/regscan');
    const spareHook = await endpoint('https://hooks.example.com/to-delete');
    const scan = await t.http().post('/v1/scans').set('Authorization', auth).send(SCAN).expect(200);
    const deliveries = await t.http().get(`/v1/webhooks/endpoints/${hook.body.id}/deliveries`).set('Cookie', owner.cookie).expect(200);
    const exportOf = async (body: object) =>
      (
        await t
          .http()
          .post('/v1/exports')
          .set('Authorization', auth)
          .send({ snapshot_id: scan.body.snapshot_id, ...body })
          .expect(202)
      ).body.export_job_id as string;
    Object.assign(fixtures, {
      scanId: scan.body.scan_id,
      snapshotId: scan.body.snapshot_id,
      spareKeyId: spare.body.id,
      webhookEndpointId: hook.body.id,
      spareWebhookEndpointId: spareHook.body.id,
      webhookDeliveryId: deliveries.body.data[0].id,
      pdfExportId: await exportOf({ provider: 'internal-pdf', artifact_type: 'pdf' }),
      doomedExportId: await exportOf({ provider: 'internal-csv', artifact_type: 'csv' }),
    });
    await finishedExport(t, fixtures.pdfExportId, auth);
    await finishedExport(t, fixtures.doomedExportId, auth);

    page = await browser.newPage();
    await openSwaggerUi(page, baseUrl);
    await authorize(page, { bearer: owner.apiKey, dashboard: owner.cookie.replace(/^dashboard_session=/, '') });
  }, BOOT_MS);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('tries every operation of the document, or says here why it cannot', async () => {
    const document = (await t.http().get('/openapi.json').expect(200)).body as {
      paths: Record<string, Record<string, { operationId?: string; tags?: string[] }>>;
    };
    const documented = Object.values(document.paths).flatMap((item) =>
      Object.values(item).flatMap((operation) => (operation.operationId ? [`${operation.tags?.[0]}/${operation.operationId}`] : [])),
    );
    expect([...Object.keys(OPERATIONS), ...Object.keys(NOT_FROM_THE_UI), ...OWN_TESTS].sort()).toEqual(documented.sort());
  });

  it.each(Object.keys(OPERATIONS))(
    '%s succeeds as pre-filled, without an Idempotency-Key nobody typed',
    async (name) => {
      const [tag, operationId] = name.split('/');
      const outcome = await tryOperation(page, tag, operationId, OPERATIONS[name](fixtures));
      const { request } = outcome;
      const exchange = `${request.method()} ${request.url()} ${request.postData() ?? ''} -> ${outcome.status} ${outcome.responseText}`;
      expect({ exchange, idempotencyKey: await request.headerValue('idempotency-key') }).toEqual({
        exchange: expect.stringMatching(/ -> 2\d\d /),
        idempotencyKey: null,
      });
    },
    OPERATION_MS,
  );

  it(
    'cancels a running scan',
    async () => {
      const defaultStep = config.offlineStepMs;
      // Slow steps keep the scan running while the reader types its id.
      config.offlineStepMs = 2000;
      try {
        const running = await t.http().post('/v1/scans?mode=async').set('Authorization', auth).send(SCAN).expect(202);
        const outcome = await tryOperation(page, 'Scans', 'cancelScan', { path: { id: running.body.scan_id } });
        expect({ status: outcome.status, shown: outcome.responseText }).toEqual({
          status: '200',
          shown: expect.stringContaining('cancelled'),
        });
      } finally {
        config.offlineStepMs = defaultStep;
      }
    },
    OPERATION_MS,
  );

  it(
    'shows a downloaded artefact as a file to save, not as text',
    async () => {
      const outcome = await tryOperation(page, 'Exports', 'downloadExport', { path: { id: fixtures.pdfExportId } });
      expect(outcome.status).toBe('200');
      expect(outcome.responseText).not.toContain('displaying content as text');
      expect(outcome.downloadLinks).toEqual(['Download file']);
    },
    OPERATION_MS,
  );
});
