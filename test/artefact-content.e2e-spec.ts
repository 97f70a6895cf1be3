/**
 * Issue 12 end to end: what a compliance team receives. A wide scan that the item cap trims, exported with the
 * full matched list; a second run of a scan whose artefact shows the drift; an artefact asked for in a language
 * the snapshot has no translation for; and the one-page compliance calendar.
 */
import { parse } from 'csv-parse/sync';
import { AREAS } from '../src/domain/vocabulary/areas';
import { JURISDICTIONS } from '../src/domain/vocabulary/jurisdictions';
import { pdfText, squash } from './support/inspect-artefact';
import { bootTestApp, downloadExport, finishedExport, newAccount, type TestApp } from './support/test-app';

describe('artefact content (issue 12)', () => {
  let t: TestApp;
  let auth: string;

  beforeAll(async () => {
    t = await bootTestApp();
    auth = `Bearer ${(await newAccount(t)).apiKey}`;
  });
  afterAll(() => t.close());

  const scan = (body: object) => t.http().post('/v1/scans').set('Authorization', auth).send(body).expect(200);
  const exported = async (body: object) => {
    const created = await t.http().post('/v1/exports').set('Authorization', auth).send(body).expect(202);
    const done = await finishedExport(t, created.body.export_job_id, auth);
    expect(done.status).toBe('completed');
    return { job: done, bytes: (await downloadExport(t, done.id, auth).expect(200)).body as Buffer };
  };

  describe('a scan the item cap trims', () => {
    let snapshotId: string;
    let meta: { matched_count: number; selected_count: number; capped: boolean };
    let titles: string[];

    beforeAll(async () => {
      const wide = await scan({ jurisdictions: JURISDICTIONS.map((j) => j.id), areas: AREAS.map((a) => a.id), horizon: 36 });
      snapshotId = wide.body.snapshot_id;
      meta = wide.body.snapshot.data._meta;
      titles = wide.body.snapshot.data.items.map((item: { title: string }) => item.title);
      expect(meta.capped).toBe(true);
    });

    it('keeps the matches it left out private: no read returns them', async () => {
      const read = await t.http().get(`/v1/snapshots/${snapshotId}`).set('Authorization', auth).expect(200);
      expect(read.body.data).not.toHaveProperty('_beyond_cap');
      expect(JSON.stringify(read.body)).not.toContain('_beyond_cap');
    });

    it('CSV with list=all_matched has one row per matching instrument, the selected ones first', async () => {
      const { job, bytes } = await exported({ snapshot_id: snapshotId, provider: 'internal-csv', artifact_type: 'csv', options: { list: 'all_matched' } });
      expect(job.options).toEqual({ list: 'all_matched' });
      const rows = parse(bytes, { bom: true, columns: true }) as Array<Record<string, string>>;
      expect(rows).toHaveLength(meta.matched_count);
      expect(new Set(rows.map((row) => row.item_id)).size).toBe(meta.matched_count);
      expect(rows.filter((row) => row.selection === 'selected')).toHaveLength(meta.selected_count);
      expect(rows.slice(meta.selected_count).every((row) => row.selection === 'beyond_cap' && row.source_url.startsWith('https://'))).toBe(true);
    });

    it('CSV without the option lists the selected items only', async () => {
      const { job, bytes } = await exported({ snapshot_id: snapshotId, provider: 'internal-csv', artifact_type: 'csv' });
      expect(job.options).toEqual({});
      expect(parse(bytes, { bom: true, columns: true })).toHaveLength(meta.selected_count);
    });

    it('the PDF report says "top N of M" and, with list=all_matched, lists the others too', async () => {
      const { bytes } = await exported({ snapshot_id: snapshotId, provider: 'internal-pdf', artifact_type: 'pdf', options: { list: 'all_matched' } });
      const { text } = await pdfText(bytes);
      expect(text).toContain(`Top ${meta.selected_count} of ${meta.matched_count} matching instruments`);
      expect(text).toContain(`Further matching instruments (${meta.matched_count - meta.selected_count} beyond the top ${meta.selected_count})`);
      for (const title of titles) expect(squash(text)).toContain(squash(title));
    });

    it('rejects an unknown list value with the option vocabulary', async () => {
      const response = await t
        .http()
        .post('/v1/exports')
        .set('Authorization', auth)
        .send({ snapshot_id: snapshotId, provider: 'internal-pdf', artifact_type: 'pdf', options: { list: 'everything' } })
        .expect(422);
      expect(response.body.errors).toContainEqual({ path: 'options.list', code: 'invalid_value', message: expect.stringContaining('all_matched') });
    });
  });

  it('an artefact not in the language asked for says so on its first page and in its file name', async () => {
    const { body } = await scan({ jurisdictions: ['EU'], areas: ['Payments'], horizon: 12 });
    const { job, bytes } = await exported({
      snapshot_id: body.snapshot_id,
      provider: 'internal-calendar',
      artifact_type: 'compliance-calendar',
      options: { targetLanguage: 'zh' },
    });
    expect(job).toMatchObject({ effective_locale: 'en', locale_provenance: 'fallback_missing_translation' });
    expect(job.result_filename).toMatch(/-calendar-en\.pdf$/);
    const { pageTexts } = await pdfText(bytes);
    expect(squash(pageTexts[0]!)).toContain(squash('Requested in Chinese; this snapshot has no Chinese translation, so this artefact is in English.'));
  });

  it('the compliance calendar of a second run shows what changed since the first, on one page', async () => {
    const config = { jurisdictions: ['EU', 'UK'], areas: ['AML / KYC', 'Payments'], horizon: 12 };
    await scan(config);
    const second = await scan(config);
    const { job, bytes } = await exported({ snapshot_id: second.body.snapshot_id, provider: 'internal-calendar', artifact_type: 'compliance-calendar' });
    expect(job.result_filename).toMatch(/-calendar\.pdf$/);
    const { text, pages } = await pdfText(bytes);
    expect(pages).toBe(1);
    expect(squash(text)).toMatch(/Sincethescanof\d+\w{3}\d{4}:0new,0removed,0changed,\d+unchanged\./);
    for (const item of second.body.snapshot.data.items as Array<{ title: string; jurisdiction: string }>)
      expect(squash(text)).toContain(squash(`[${item.jurisdiction}] ${item.title}`));
  });
});
