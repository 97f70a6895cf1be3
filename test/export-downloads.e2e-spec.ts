import { mkdirSync, readdirSync, readlinkSync } from 'node:fs';
import { request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { DataSource } from 'typeorm';
import { Clock } from '../src/common/clock';
import { APP_CONFIG, type AppConfig } from '../src/config/app-config';
import { ARTEFACT_STORAGE, type ArtefactStorage } from '../src/infra/storage/storage.service';
import { pollUntil } from './support/poll';
import { bootTestApp, newAccount, type TestApp, downloadExport } from './support/test-app';

/** Download guarantees: the retention deadline, no file handle outliving its response, safe headers, missing bytes. */
describe('export downloads', () => {
  let t: TestApp;
  let auth: string;
  let snapshotId: string;
  let config: AppConfig;

  beforeAll(async () => {
    t = await bootTestApp();
    config = t.app.get<AppConfig>(APP_CONFIG);
    const owner = await newAccount(t);
    auth = `Bearer ${owner.apiKey}`;
    snapshotId = (
      await t
        .http()
        .post('/v1/scans')
        .set('Authorization', auth)
        .send({ jurisdictions: ['EU'], areas: ['Payments'], horizon: 12 })
        .expect(200)
    ).body.snapshot_id;
  });
  afterAll(() => t.close());

  const db = () => t.app.get(DataSource);
  const storage = () => t.app.get<ArtefactStorage>(ARTEFACT_STORAGE);
  const status = (id: string) => t.http().get(`/v1/exports/${id}`).set('Authorization', auth);
  /** For answers that are problem documents (parsed as JSON). */
  const attempt = (id: string) => t.http().get(`/v1/exports/${id}/download`).set('Authorization', auth);
  const download = (id: string) => downloadExport(t, id, auth);

  /** A completed export of the account's snapshot, and where its bytes live. */
  async function completedExport(provider: string, artifactType: string, options: Record<string, string> = {}) {
    const created = await t
      .http()
      .post('/v1/exports')
      .set('Authorization', auth)
      .send({ snapshot_id: snapshotId, provider, artifact_type: artifactType, options })
      .expect(202);
    const id: string = created.body.export_job_id;
    // Polled in the database: the reads bucket would not take a tight HTTP poll.
    const row = await pollUntil(
      async () => {
        const [found] = await db().query('SELECT status, storage_key FROM export_jobs WHERE id = $1', [id]);
        return found && !['queued', 'processing'].includes(found.status) ? (found as { status: string; storage_key: string }) : undefined;
      },
      30000,
      50,
    );
    expect(row.status).toBe('completed');
    const job = (await status(id).expect(200)).body;
    return { id, job, key: row.storage_key, path: resolve(config.storageDir, row.storage_key) };
  }

  /** Descriptors of this process (the test app runs in it) that point at `path`. */
  const openDescriptors = (path: string): number =>
    readdirSync('/proc/self/fd').filter((fd) => {
      try {
        return readlinkSync(`/proc/self/fd/${fd}`) === path;
      } catch {
        return false; // closed while we looked
      }
    }).length;

  it('keeps the retention promise: 410 gone from completed_at + EXPORT_RETENTION_SECONDS, whatever the sweep has done', async () => {
    const { id, job } = await completedExport('internal-csv', 'csv');
    const deadline = Date.parse(job.completed_at) + config.exportRetentionSeconds * 1000;
    const clock = t.app.get(Clock);
    const now = jest.spyOn(clock, 'now');
    try {
      now.mockReturnValue(deadline - 1000);
      await download(id).expect(200);
      expect((await status(id).expect(200)).body.download_url).toBe(`/v1/exports/${id}/download`);

      now.mockReturnValue(deadline);
      const gone = await attempt(id).expect(410);
      expect(gone.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(gone.body).toMatchObject({ code: 'gone', status: 410 });
      // The job stays completed; it just no longer offers a download.
      expect((await status(id).expect(200)).body).toMatchObject({ status: 'completed', download_url: null });
      const listed = await t.http().get(`/v1/exports?snapshot_id=${snapshotId}`).set('Authorization', auth).expect(200);
      expect(listed.body.data.find((entry: { id: string }) => entry.id === id)).toMatchObject({ download_url: null });
      // No sweep has run: the bytes are still on disk, yet they are not served.
      const [row] = await db().query('SELECT purged_at FROM export_jobs WHERE id = $1', [id]);
      expect(row.purged_at).toBeNull();
    } finally {
      now.mockRestore();
    }
  });

  it('stops offering download_url once the sweep has dropped the bytes', async () => {
    const { id } = await completedExport('internal-csv', 'csv');
    await db().query('UPDATE export_jobs SET purged_at = now() WHERE id = $1', [id]);
    expect((await status(id).expect(200)).body).toMatchObject({ status: 'completed', download_url: null });
    expect((await attempt(id).expect(410)).body.code).toBe('gone');
  });

  it('closes the artefact file when the client goes away mid-download', async () => {
    const { id, key, path } = await completedExport('internal-csv', 'csv');
    // Far more than the socket buffers hold, so the server is still reading when the client leaves.
    await storage().put(key, Buffer.alloc(48 * 1024 * 1024, 0x61));
    const server = t.app.getHttpServer() as Server;
    if (!server.listening) await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const { port } = server.address() as AddressInfo;

    const openWhileStreaming = await new Promise<number>((done, fail) => {
      const req = httpRequest({ host: '127.0.0.1', port, path: `/v1/exports/${id}/download`, headers: { authorization: auth } }, (res) => {
        if (res.statusCode !== 200) fail(new Error(`status ${res.statusCode}`));
        res.once('data', () => {
          const open = openDescriptors(path);
          req.destroy();
          done(open);
        });
      });
      req.on('error', () => undefined); // our own destroy
      req.end();
    });
    expect(openWhileStreaming).toBe(1);
    await pollUntil(async () => openDescriptors(path) === 0, 5000, 25);
  });

  it('sends nosniff on every download and sandboxes the HTML slides (scripts run, without the API origin)', async () => {
    const csv = await completedExport('internal-csv', 'csv');
    const csvFile = await download(csv.id).expect(200);
    expect(csvFile.headers['x-content-type-options']).toBe('nosniff');
    expect(csvFile.headers['content-security-policy']).toBeUndefined();

    const pdf = await completedExport('internal-pdf', 'pdf');
    const pdfFile = await download(pdf.id).expect(200);
    expect(pdfFile.headers['x-content-type-options']).toBe('nosniff');
    expect(pdfFile.headers['content-disposition']).toMatch(/^inline;/);
    // Inline as the spec says, and marked as a file so Swagger UI offers it as a download instead of printing bytes.
    expect(pdfFile.headers['content-description']).toBe('File Transfer');
    // PDFs are not sandboxed (docs/decisions.md, Exports; docs/security.md, Content we serve): the spec serves them inline, to the browser's PDF viewer.
    expect(pdfFile.headers['content-security-policy']).toBeUndefined();

    const slides = await completedExport('frontend-slides', 'slide-web');
    const html = await download(slides.id).expect(200);
    expect(html.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(html.headers['x-content-type-options']).toBe('nosniff');
    expect(html.headers['content-disposition']).toMatch(/^attachment;/);
    const policy = String(html.headers['content-security-policy']);
    expect(policy).toMatch(/(^|;\s*)sandbox allow-scripts(\s|;|$)/);
    expect(policy).not.toContain('allow-same-origin');
    expect(policy).toContain("default-src 'none'");
  });

  it('never serves a stored type that its artefact type does not allow (rows written before types were checked)', async () => {
    const { id } = await completedExport('internal-csv', 'csv');
    await db().query("UPDATE export_jobs SET result_mime = 'text/html' WHERE id = $1", [id]);
    const file = await download(id).expect(200);
    expect(file.headers['content-type']).toBe('application/octet-stream');
    expect(file.headers['content-disposition']).toMatch(/^attachment;/);
    expect(file.headers['x-content-type-options']).toBe('nosniff');
  });

  it('answers 410 gone with a problem document when the bytes of a retained export are missing', async () => {
    const { id, key } = await completedExport('internal-csv', 'csv');
    await storage().delete(key);
    const gone = await attempt(id).expect(410);
    expect(gone.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(gone.body.code).toBe('gone');
  });

  it('answers 410 gone, not a cut-off 200, when what storage holds is not a readable file', async () => {
    const { id, key, path } = await completedExport('internal-csv', 'csv');
    await storage().delete(key);
    mkdirSync(path); // stat succeeds, every read fails
    const gone = await attempt(id).expect(410);
    expect(gone.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(gone.body.code).toBe('gone');
  });
});
