import { DeleteObjectCommand } from '@aws-sdk/client-s3';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { freePort } from '../src/infra/embedded/free-port';
import { AccountsService } from '../src/modules/accounts/accounts.service';
import { ExportsProcessor } from '../src/modules/exports/exports.processor';
import { startFakeVoiceServer } from './fakes/fake-media-servers';
import { removeBuild, startWorkerProcess, type ServiceProcess } from './support/api-process';
import { startLoopbackS3, type LoopbackS3 } from './support/loopback-s3';
import { uniqueName } from './setup/test-infra';
import { bootTestAppWithEnv, downloadExport, finishedExport, newAccount, type TestApp } from './support/test-app';

const SCAN = { jurisdictions: ['EU'], areas: ['Payments'], horizon: 12 };

/** A directory the service would write artefacts to if it used the filesystem driver: it must stay empty. */
const emptyStorageDir = () => mkdtempSync(join(tmpdir(), 'rgs-unused-artefacts-'));

// STORAGE_DRIVER=s3 against a loopback S3-compatible server (s3rver). A Redis prefix of this file's own, so no app
// of another test file (filesystem driver) runs these exports.
describe('exports with the S3 storage driver', () => {
  let s3: LoopbackS3;
  let t: TestApp;
  let storageDir: string;
  let owner: Awaited<ReturnType<typeof newAccount>>;
  let auth: string;
  let snapshotId: string;
  const prefix = 'deployment-e2e/';

  beforeAll(async () => {
    s3 = await startLoopbackS3();
    storageDir = emptyStorageDir();
    t = await bootTestAppWithEnv({ ...s3.env({ S3_KEY_PREFIX: prefix }), STORAGE_DIR: storageDir, REDIS_PREFIX: uniqueName('s3_e2e') });
    owner = await newAccount(t);
    auth = `Bearer ${owner.apiKey}`;
    snapshotId = (await t.http().post('/v1/scans').set('Authorization', auth).send(SCAN).expect(200)).body.snapshot_id;
  });
  afterAll(async () => {
    await t?.close();
    await s3?.close();
    rmSync(storageDir, { recursive: true, force: true });
  });

  const db = () => t.app.get(DataSource);
  const createExport = async (body: object) => {
    const created = await t
      .http()
      .post('/v1/exports')
      .set('Authorization', auth)
      .send({ snapshot_id: snapshotId, ...body })
      .expect(202);
    const job = await finishedExport(t, created.body.export_job_id, auth);
    expect(job.status).toBe('completed');
    const [row] = await db().query('SELECT storage_key FROM export_jobs WHERE id = $1', [job.id]);
    return { job, objectKey: `${prefix}${row.storage_key as string}` };
  };
  const download = (id: string) => downloadExport(t, id, auth);

  it('writes the artefact to the bucket, under the key prefix, and serves it whole', async () => {
    const { job, objectKey } = await createExport({ provider: 'internal-csv', artifact_type: 'csv' });
    expect(objectKey).toMatch(new RegExp(`^${prefix}exports/[^/]+/${job.id}/[0-9a-f]{8}-.+\\.csv$`));
    expect(await s3.keys(`${prefix}exports/`)).toContain(objectKey);
    const whole = await download(job.id).expect(200);
    expect(whole.headers['content-length']).toBe(String(job.result_size_bytes));
    expect(whole.headers['content-disposition']).toContain(job.result_filename);
    expect((whole.body as Buffer).length).toBe(job.result_size_bytes);
    expect((whole.body as Buffer).subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf])); // the CSV's byte-order mark
    expect(readdirSync(storageDir)).toEqual([]);
  });

  it('answers byte ranges of an audio artefact from the bucket (206, Content-Range, exact bytes) and 416 past the end', async () => {
    const voice = await startFakeVoiceServer();
    try {
      const accounts = t.app.get(AccountsService);
      await accounts.setIntegration(await accounts.ensureAccount(owner.accountId), 'voicePodcast', {
        apiKey: voice.apiKey,
        baseUrl: voice.baseUrl,
      });
      const { job, objectKey } = await createExport({
        provider: 'voice-briefing',
        artifact_type: 'podcast-briefing',
        options: { voiceId: 'voice-123' },
      });
      expect(await s3.keys(objectKey)).toEqual([objectKey]);
      const whole = (await download(job.id).expect(200)).body as Buffer;
      const size = whole.length;
      expect(size).toBe(job.result_size_bytes);

      const first = await download(job.id).set('Range', 'bytes=0-99').expect(206);
      expect(first.headers['content-range']).toBe(`bytes 0-99/${size}`);
      expect(first.body).toEqual(whole.subarray(0, 100));
      const middle = await download(job.id).set('Range', 'bytes=150-249').expect(206);
      expect(middle.headers['content-range']).toBe(`bytes 150-249/${size}`);
      expect(middle.body).toEqual(whole.subarray(150, 250));
      const suffix = await download(job.id).set('Range', 'bytes=-64').expect(206);
      expect(suffix.headers['content-range']).toBe(`bytes ${size - 64}-${size - 1}/${size}`);
      expect(suffix.body).toEqual(whole.subarray(size - 64));

      const beyond = await t
        .http()
        .get(`/v1/exports/${job.id}/download`)
        .set('Authorization', auth)
        .set('Range', `bytes=${size}-`)
        .expect(416);
      expect(beyond.headers['content-range']).toBe(`bytes */${size}`);
      expect(beyond.body.code).toBe('range_not_satisfiable');
    } finally {
      await voice.close();
    }
  });

  it('removes the object when the export is deleted', async () => {
    const { job, objectKey } = await createExport({ provider: 'internal-csv', artifact_type: 'csv' });
    expect(await s3.keys(objectKey)).toEqual([objectKey]);
    await t.http().delete(`/v1/exports/${job.id}`).set('Authorization', auth).expect(204);
    expect(await s3.keys(objectKey)).toEqual([]);
  });

  it('removes the object when retention purges the export, and the download is then 410 gone', async () => {
    const { job, objectKey } = await createExport({ provider: 'internal-csv', artifact_type: 'csv' });
    expect(await s3.keys(objectKey)).toEqual([objectKey]);
    await db().query("UPDATE export_jobs SET completed_at = now() - interval '30 days' WHERE id = $1", [job.id]);
    expect(await t.app.get(ExportsProcessor).purgeExpired()).toBeGreaterThanOrEqual(1);
    expect(await s3.keys(objectKey)).toEqual([]);
    const gone = await t.http().get(`/v1/exports/${job.id}/download`).set('Authorization', auth).expect(410);
    expect(gone.body.code).toBe('gone');
  });

  it('answers 410 gone, not a 500, for a retained export whose object is missing from the bucket', async () => {
    const { job, objectKey } = await createExport({ provider: 'internal-csv', artifact_type: 'csv' });
    await s3.client.send(new DeleteObjectCommand({ Bucket: s3.bucket, Key: objectKey }));
    const gone = await t.http().get(`/v1/exports/${job.id}/download`).set('Authorization', auth).expect(410);
    expect(gone.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(gone.body).toMatchObject({ code: 'gone', status: 410 });
  });

  it('answers 503 transient_error, a problem document, while the S3 service is unreachable', async () => {
    const { job } = await createExport({ provider: 'internal-csv', artifact_type: 'csv' });
    // A second API process of the same deployment whose S3 endpoint refuses connections.
    const unreachable = await bootTestAppWithEnv({
      ...s3.env({ S3_ENDPOINT: `http://127.0.0.1:${await freePort()}`, S3_KEY_PREFIX: prefix }),
      APP_ROLE: 'api',
      STORAGE_DIR: storageDir,
    });
    try {
      const outage = await unreachable.http().get(`/v1/exports/${job.id}/download`).set('Authorization', auth).expect(503);
      expect(outage.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(outage.body).toMatchObject({ code: 'transient_error', status: 503 });
      expect(JSON.stringify(outage.body)).not.toMatch(/ECONNREFUSED|at .*\.js/);
    } finally {
      await unreachable.close();
    }
  });
});

// The point of object storage: processes on different hosts share artefacts through the bucket, not a volume.
describe('an API process and a worker process sharing only the bucket', () => {
  let s3: LoopbackS3;
  let api: TestApp;
  let worker: ServiceProcess;
  const apiDir = emptyStorageDir();
  const workerDir = emptyStorageDir();

  beforeAll(async () => {
    s3 = await startLoopbackS3('shared-artefacts');
    const redisPrefix = uniqueName('s3_split');
    api = await bootTestAppWithEnv({ ...s3.env(), STORAGE_DIR: apiDir, APP_ROLE: 'api', REDIS_PREFIX: redisPrefix });
    worker = await startWorkerProcess({ ...s3.env(), STORAGE_DIR: workerDir, REDIS_PREFIX: redisPrefix, OFFLINE_STEP_MS: '5' });
  }, 60_000);
  afterAll(async () => {
    await worker?.kill();
    await api?.close();
    await s3?.close();
    removeBuild();
    rmSync(apiDir, { recursive: true, force: true });
    rmSync(workerDir, { recursive: true, force: true });
  });

  it('serves from the API process the artefact the worker process wrote', async () => {
    const owner = await newAccount(api);
    const auth = `Bearer ${owner.apiKey}`;
    const snapshotId = (await api.http().post('/v1/scans').set('Authorization', auth).send(SCAN).expect(200)).body.snapshot_id;
    const created = await api
      .http()
      .post('/v1/exports')
      .set('Authorization', auth)
      .send({ snapshot_id: snapshotId, provider: 'internal-pdf', artifact_type: 'pdf' })
      .expect(202);
    const job = await finishedExport(api, created.body.export_job_id, auth);
    expect(job.status).toBe('completed');

    expect(await s3.keys(`exports/`)).toEqual([expect.stringContaining(`/${job.id}/`)]);
    const served = await downloadExport(api, job.id, auth).expect(200);
    expect((served.body as Buffer).length).toBe(job.result_size_bytes);
    expect((served.body as Buffer).subarray(0, 5).toString()).toBe('%PDF-');
    // Neither process wrote to its own disk.
    expect(readdirSync(apiDir)).toEqual([]);
    expect(readdirSync(workerDir)).toEqual([]);
  }, 60_000);
});
