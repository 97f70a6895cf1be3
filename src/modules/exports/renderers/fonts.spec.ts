import * as fs from 'node:fs';
import { bundledFont, type FontKey, pickDocumentFont, svgFonts } from './fonts';

describe('bundled fonts', () => {
  it.each(['sans', 'serif', 'mono', 'sc', 'jp'] as FontKey[])('resolves %s (regular and bold) from node_modules', (key) => {
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
