import * as fs from 'node:fs';
import { hideNodeFromPptxgenjs } from '../../../../test/support/inspect-artefact';
import { hardSnapshot, input, realisticSnapshot, sampleDrift, zhSnapshot } from '../../../../test/fixtures/snapshots';
import { bundledFont, documentFont, type FontKey, openFont, pickDocumentFont, svgFonts } from './fonts';
import { renderArtefact } from './index';

describe('bundled fonts', () => {
  it.each(['sans', 'serif', 'mono', 'sc', 'jp', 'arimo'] as FontKey[])('resolves %s (regular and bold) from node_modules', (key) => {
    const font = bundledFont(key);
    for (const file of [font.regular, font.bold]) {
      expect(file).toContain('node_modules');
      expect(fs.statSync(file).size).toBeGreaterThan(50_000);
      expect(file).toMatch(/\.(ttf|otf)$/);
    }
  });

  it('sets Latin text in the Latin family and CJK text in a CJK family', () => {
    expect(pickDocumentFont(['Regulation (EU) 2024/1624 — “quotes”, café, Ωμέγα, Жж'], 'en').key).toBe('sans');
    expect(pickDocumentFont(['反洗钱条例'], 'en').key).toBe('sc');
    expect(pickDocumentFont(['反洗钱条例'], 'zh').key).toBe('sc');
    expect(pickDocumentFont(['マネー・ローンダリング'], 'en').key).toBe('jp');
    expect(pickDocumentFont(['金融庁'], 'ja').key).toBe('jp');
    expect(pickDocumentFont(['plain English'], 'zh').key).toBe('sans');
  });

  it('adds the CJK family as a fallback for SVG only when needed', () => {
    expect(svgFonts(['plain'], 'en', 'serif')).toEqual({ primary: bundledFont('serif'), fallback: null });
    expect(svgFonts(['中文'], 'zh', 'mono').fallback?.key).toBe('sc');
  });
});

describe('fonts of a PDF document', () => {
  const file = bundledFont('sans').regular;

  it('share the tables the process has decoded but keep glyph objects of their own', () => {
    const shared = openFont(file);
    const own = documentFont(file);
    const tables = (font: object) => font as { GSUB: unknown; GPOS: unknown };
    expect(own).not.toBe(shared);
    expect(tables(own).GSUB).toBe(tables(shared).GSUB);
    expect(tables(own).GPOS).toBe(tables(shared).GPOS);
    expect(own.getGlyph(10)).not.toBe(shared.getGlyph(10));
    expect(own.layout('Payments').glyphs.map((glyph) => glyph.id)).toEqual(shared.layout('Payments').glyphs.map((glyph) => glyph.id));
  });

  it('make a PDF byte for byte the same whatever the process rendered before', async () => {
    const report = () => {
      const snapshot = realisticSnapshot();
      return { ...input(snapshot), drift: sampleDrift(snapshot) };
    };
    let fresh: Buffer | undefined;
    await jest.isolateModulesAsync(async () => {
      const isolated = (await import('./index')) as typeof import('./index');
      fresh = (await isolated.renderArtefact('pdf', report())).bytes;
    });
    hideNodeFromPptxgenjs();
    for (const type of ['slide-web', 'tearsheet-detailed', 'slide-deck', 'briefing-pdf'])
      await renderArtefact(type, input(realisticSnapshot()));
    await renderArtefact('pdf', input(hardSnapshot(30)));
    await renderArtefact('pdf', input(zhSnapshot(), {}, 'zh'));
    const after = (await renderArtefact('pdf', report())).bytes;
    expect(fresh?.length).toBeGreaterThan(10_000);
    expect(after.equals(fresh!)).toBe(true);
  }, 60_000);
});
