import { parse } from 'csv-parse/sync';
import { EXPORT_TYPES } from '../export-types/export-types.registry';
import { hideNodeFromPptxgenjs, pdfText, slideFiles, squash, unzip } from '../../../../test/support/inspect-artefact';
import { input, realisticSnapshot, syntheticSnapshot, zhSnapshot } from '../../../../test/fixtures/snapshots';
import { type ImageArtifactType, renderImageSvg } from './image.renderer';
import { hasRenderer, RENDERED_ARTIFACT_TYPES, renderArtefact, warmUpRenderers } from './index';
import type { RenderSnapshot } from './types';

/** The text a reader sees in an artefact: PDF text, CSV, HTML, slide XML, or the SVG an image is drawn from. */
async function artefactText(artifactType: string, snapshot: RenderSnapshot): Promise<string> {
  if (artifactType === 'tearsheet-detailed' || artifactType === 'infographic-custom') {
    return renderImageSvg(artifactType as ImageArtifactType, input(snapshot)).replace(/<[^>]+>/g, ' ');
  }
  const out = await renderArtefact(artifactType, input(snapshot));
  if (out.mime === 'application/pdf') return (await pdfText(out.bytes)).text;
  if (out.mime.includes('presentationml')) {
    const zip = await unzip(out.bytes);
    const xml = await Promise.all(slideFiles(zip).map((name) => zip.file(name)!.async('string')));
    return xml.join(' ').replace(/<[^>]+>/g, '');
  }
  return out.bytes.toString('utf8');
}

const IN_PROCESS = EXPORT_TYPES.filter((entry) => entry.requires_provider === null);

function defaults(options: Record<string, { default?: string }>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(options).flatMap(([name, option]) => (option.default !== undefined ? [[name, option.default]] : [])),
  );
}

beforeAll(hideNodeFromPptxgenjs);

describe('renderArtefact', () => {
  it('has a renderer for every export type that needs no integration', () => {
    expect(IN_PROCESS.length).toBeGreaterThanOrEqual(10);
    for (const entry of IN_PROCESS) expect(hasRenderer(entry.artifact_type)).toBe(true);
    expect([...RENDERED_ARTIFACT_TYPES].sort()).toEqual([...new Set(IN_PROCESS.map((entry) => entry.artifact_type))].sort());
  });

  it.each(IN_PROCESS.map((entry) => [entry.key, entry] as const))(
    '%s renders with its default options, the registry mime and a safe name',
    async (_key, entry) => {
      const out = await renderArtefact(entry.artifact_type, input(realisticSnapshot(), defaults(entry.options_schema)));
      expect(out.bytes.length).toBeGreaterThan(500);
      expect(out.mime).toBe(entry.result.mime);
      expect(out.filename).toMatch(/^[a-z0-9][a-z0-9-]*\.[a-z0-9]+$/);
      expect(out.filename.endsWith(`.${entry.result.extension}`)).toBe(true);
      expect(out.filename.startsWith('regulatory-horizon-eu-uk-2026-11-22')).toBe(true);
    },
  );

  it.each([...new Set(IN_PROCESS.map((entry) => entry.artifact_type))].map((type) => [type] as const))(
    '%s labels every secondary source it names as such',
    async (artifactType) => {
      const snapshot = realisticSnapshot();
      for (const item of snapshot.data.items) {
        item.citations = item.citations.map((c, i) => (i === 0 ? { ...c, publisher: 'Quill & Partners LLP', kind: 'secondary' as const } : c));
      }
      if (artifactType === 'csv') {
        // A spreadsheet keeps the publisher as published and says what kind of source it is in citation_kinds.
        const rows = parse(await artefactText(artifactType, snapshot), { bom: true, columns: true }) as Record<string, string>[];
        expect(rows.length).toBeGreaterThan(0);
        for (const row of rows) {
          const item = snapshot.data.items.find((i) => i.id === row.item_id)!;
          expect(row.citation_kinds.split('; ')).toEqual(item.citations.map((c) => c.kind));
          expect(row.citation_kinds.split('; ')[0]).toBe('secondary');
        }
        return;
      }
      const text = squash(await artefactText(artifactType, snapshot)).replace(/&amp;/g, '&');
      const named = text.split('Quill&PartnersLLP').length - 1;
      const labelled = text.split('Quill&PartnersLLP(secondarysource)').length - 1;
      expect(named).toBeGreaterThan(0);
      expect(labelled).toBe(named);
    },
  );

  it('warms up without a snapshot of the caller', async () => {
    await expect(warmUpRenderers()).resolves.toBeUndefined();
    // A worker warms every in-process type at start: each must take the warm-up snapshot.
    await expect(warmUpRenderers(RENDERED_ARTIFACT_TYPES)).resolves.toBeUndefined();
  });

  it('throws for an unknown artifact type', async () => {
    await expect(renderArtefact('hologram', input(realisticSnapshot()))).rejects.toThrow('No renderer for artifact type "hologram"');
    await expect(renderArtefact('toString', input(realisticSnapshot()))).rejects.toThrow('No renderer');
  });

  it('renders a zh snapshot into a PDF whose text has the Chinese characters', async () => {
    const { text } = await pdfText((await renderArtefact('pdf', input(zhSnapshot(), {}, 'zh'))).bytes);
    expect(squash(text)).toContain('支付服务指令第三版（PSD3）与支付服务条例');
  });

  it('keeps file names ASCII for non-Latin jurisdictions', async () => {
    const snapshot = realisticSnapshot();
    snapshot.config.jurisdictions = ['中国', 'Côte d’Ivoire'];
    const out = await renderArtefact('csv', input(snapshot));
    expect(out.filename).toBe('regulatory-horizon-cote-d-ivoire-2026-11-22-items.csv');
  });

  it('prints render times for a 100-item snapshot (not asserted; bench/render.js measures properly)', async () => {
    const snapshot = syntheticSnapshot(100);
    const times: string[] = [];
    for (const type of ['pdf', 'slide-deck']) {
      await renderArtefact(type, input(snapshot)); // warm-up: module and font loading
      const start = process.hrtime.bigint();
      await renderArtefact(type, input(snapshot));
      times.push(`${type} ${(Number(process.hrtime.bigint() - start) / 1e6).toFixed(0)} ms`);
    }
    console.log(`100-item render times under jest: ${times.join(', ')}`);
  });
});
