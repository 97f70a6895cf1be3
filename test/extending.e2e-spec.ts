import { registerExportType } from '../src/modules/exports/register-export-type';
import type { RenderInput } from '../src/modules/exports/renderers';
import { bootTestApp, downloadExport, finishedExport, newAccount, type TestApp } from './support/test-app';

// docs/extending.md, "Add an export type": the one registerExportType call, and every place that must pick it up.
const ITEM_LIST = {
  label: 'Item list (plain text)',
  provider: 'internal-text',
  artifact_type: 'item-list',
  group: 'data' as const,
  provider_label: 'Built in',
  options_schema: {
    order: { type: 'string' as const, enum: ['rank', 'date'], default: 'rank', description: 'Rank order or key-date order.' },
  },
  result: { mime: 'text/plain; charset=utf-8', extension: 'txt' },
  render: async ({ snapshot, options }: RenderInput) => {
    const items = [...snapshot.data.items];
    if (options.order === 'date') items.sort((a, b) => a.key_date.localeCompare(b.key_date));
    const lines = items.map((item) => `${item.key_date}  ${item.jurisdiction}  ${item.title}`);
    return { bytes: Buffer.from(`${lines.join('\n')}\n`), mime: 'text/plain; charset=utf-8', filename: `items-${snapshot.id}.txt` };
  },
};

describe('extending: a registered export type', () => {
  let t: TestApp;
  let auth: string;
  let snapshotId: string;
  let keyDates: string[];

  beforeAll(async () => {
    registerExportType(ITEM_LIST);
    t = await bootTestApp();
    const owner = await newAccount(t);
    auth = `Bearer ${owner.apiKey}`;
    const scan = await t.http().post('/v1/scans').set('Authorization', auth).send({ jurisdictions: ['EU'], areas: ['Payments'], horizon: 24 }).expect(200);
    snapshotId = scan.body.snapshot_id;
    keyDates = scan.body.snapshot.data.items.map((item: { key_date: string }) => item.key_date);
  });
  afterAll(() => t.close());

  it('is listed by GET /v1/meta/export-types with its public option schema', async () => {
    const types = await t.http().get('/v1/meta/export-types').set('Authorization', auth).expect(200);
    const listed = (types.body.data ?? types.body).find((type: { key: string }) => type.key === 'internal-text:item-list');
    expect(listed).toMatchObject({
      key: 'internal-text:item-list',
      provider: 'internal-text',
      artifact_type: 'item-list',
      group: 'data',
      requires_provider: null,
      has_options: true,
      options_schema: { order: { type: 'string', enum: ['rank', 'date'], default: 'rank' } },
    });
  });

  it('has its options validated by POST /v1/exports', async () => {
    const bad = await t
      .http()
      .post('/v1/exports')
      .set('Authorization', auth)
      .send({ snapshot_id: snapshotId, provider: 'internal-text', artifact_type: 'item-list', options: { order: 'alphabetical', colour: 'red' } })
      .expect(422);
    expect(bad.body.code).toBe('validation_error');
    expect(bad.body.errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: 'options.order', code: 'invalid_value' }),
        expect.objectContaining({ path: 'options.colour', code: 'unknown_option' }),
      ]),
    );
  });

  it('is rendered by the export worker and downloaded with its media type', async () => {
    const created = await t
      .http()
      .post('/v1/exports')
      .set('Authorization', auth)
      .send({ snapshot_id: snapshotId, provider: 'internal-text', artifact_type: 'item-list', options: { order: 'date' } })
      .expect(202);
    const id = created.body.export_job_id;
    expect(await finishedExport(t, id, auth)).toMatchObject({ status: 'completed', options: { order: 'date' }, result_mime: 'text/plain; charset=utf-8' });
    const download = await downloadExport(t, id, auth).expect(200);
    expect(download.headers['content-type']).toBe('text/plain; charset=utf-8');
    const dates = Buffer.from(download.body).toString('utf8').trim().split('\n').map((line) => line.slice(0, 10));
    expect(dates).toEqual([...keyDates].sort());
  });

  it('needs no change to the OpenAPI document: export types are open strings described by the meta endpoint', async () => {
    const document = (await t.http().get('/openapi.json').expect(200)).body;
    const body = document.components.schemas.CreateExportDto;
    expect(body.properties.provider).toMatchObject({ type: 'string', description: expect.stringContaining('GET /v1/meta/export-types') });
    expect(body.properties.artifact_type).toMatchObject({ type: 'string' });
    expect(body.properties.provider.enum).toBeUndefined();
    expect(body.properties.artifact_type.enum).toBeUndefined();
  });
});
