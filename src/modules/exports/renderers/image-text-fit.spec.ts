/**
 * Text on the images: measured as resvg draws it (mixed CJK and Latin lines are set wholly in the CJK family),
 * wrapped and shrunk but never cut, and broken between CJK characters only where a line may break.
 */
import { renderAsync } from '@resvg/resvg-js';
import { squash } from '../../../../test/support/inspect-artefact';
import { bundledFont } from './fonts';
import { stack } from './image-blocks';
import { Svg } from './svg';

function zhSvg(width = 1600, height = 120): Svg {
  return new Svg(width, height, { primary: bundledFont('sans'), fallback: bundledFont('sc') });
}

/** Right-most dark pixel of the SVG as resvg rasterises it with the bundled fonts. */
async function inkRight(svg: Svg): Promise<number> {
  const files = [bundledFont('sans').regular, bundledFont('sans').bold, bundledFont('sc').regular, bundledFont('sc').bold];
  const image = await renderAsync(svg.toString(), {
    font: { loadSystemFonts: false, fontFiles: files, defaultFontFamily: 'Source Sans 3' },
  });
  const { pixels, width, height } = image;
  let right = 0;
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) if (pixels[(y * width + x) * 4]! < 128) right = Math.max(right, x);
  return right;
}

describe('image text', () => {
  it.each([false, true])('measures a line mixing Chinese and Latin as wide as resvg draws it (bold: %s)', async (bold) => {
    const text = '欧盟 regulatory horizon: AML / KYC, payments, sanctions and digital identity';
    const svg = zhSvg();
    svg.rect(0, 0, svg.width, svg.height, '#FFFFFF');
    svg.text(10, 70, text, { size: 40, bold, fill: '#000000' });
    const measured = svg.measure(text, 40, bold);
    const drawn = (await inkRight(svg)) - 10;
    expect(drawn).toBeLessThanOrEqual(measured + 2);
    expect(drawn).toBeGreaterThan(measured * 0.95);
  });

  it('sets CJK text in the CJK family first, so bold CJK is drawn bold', () => {
    const svg = zhSvg();
    svg.text(0, 40, '支付服务 PSD3', { size: 20, bold: true, fill: '#000' });
    svg.text(0, 80, 'Latin only', { size: 20, bold: true, fill: '#000' });
    const markup = svg.toString();
    expect(markup).toContain(`font-family="&#39;Noto Sans S Chinese&#39;, &#39;Source Sans 3&#39;" font-size="20" font-weight="700"`);
    expect(markup).toContain(`font-family="&#39;Source Sans 3&#39;, &#39;Noto Sans S Chinese&#39;" font-size="20" font-weight="700"`);
  });

  it('wraps and shrinks a long title but never cuts it', () => {
    const svg = zhSvg();
    const title =
      'Regulation on instant credit transfers, verification of payee, sanctions screening, safeguarding of client funds and operational resilience of critical third-party providers';
    const fitted = svg.fit(title, { size: 24, minSize: 16, maxWidth: 300, maxLines: 3, bold: true });
    expect(fitted.fits).toBe(false);
    expect(fitted.size).toBe(16);
    expect(squash(fitted.lines.join(' '))).toBe(squash(title));
    expect(fitted.lines.join(' ')).not.toContain('…');
    const shrunk = svg.fit(title, { size: 24, minSize: 14, maxWidth: 500, maxLines: 3, bold: true });
    expect(shrunk).toEqual(expect.objectContaining({ fits: true }));
    expect(shrunk.size).toBeLessThan(24);
    for (const line of shrunk.lines) expect(svg.measure(line, shrunk.size, true)).toBeLessThanOrEqual(500);
  });

  it('shrinks a single line to its width instead of cutting it', () => {
    const svg = zhSvg();
    const size = svg.text(0, 40, 'Items, of 240 matching instruments', { size: 24, fill: '#000' }, 200);
    expect(size).toBeLessThan(24);
    expect(svg.toString()).toContain('>Items, of 240 matching instruments<');
  });

  it('does not start a line with closing punctuation or end one with an opening bracket', () => {
    const svg = zhSvg();
    const text = '该条例将支付服务指令拆分为一项指令和一项直接适用的条例，并对收款人核验、欺诈赔付和数据共享（含开放银行）提出新的要求。';
    for (const width of [90, 130, 170, 210, 250]) {
      const { lines } = svg.wrap(text, 20, width);
      expect(lines.join('')).toBe(text);
      for (const line of lines) {
        expect(line).not.toMatch(/^[，。、）]/u);
        expect(line).not.toMatch(/（$/u);
      }
    }
  });

  it('keeps the leading whole sentences of prose that does not fit, or leaves it out', () => {
    const svg = zhSvg();
    const prose = 'First short sentence. A second sentence that is a good deal longer than the first one and will not fit.';
    const two = stack(svg, [{ text: prose, size: 20, maxLines: 1, fill: '#000', overflow: 'sentences' }], 400);
    expect(two.height).toBeGreaterThan(0);
    const none = stack(
      svg,
      [
        {
          text: 'One sentence far too long to fit a single short line of this box.',
          size: 20,
          maxLines: 1,
          fill: '#000',
          overflow: 'sentences',
        },
      ],
      100,
    );
    expect(none.height).toBe(0);
    two.draw(0, 0);
    expect(svg.toString()).toContain('>First short sentence.<');
  });

  it('cutting prose to whole sentences never breaks "Basel 3.1", "72.5 %" or "U.S." into sentences of their own', () => {
    const svg = zhSvg();
    const prose = 'Basel 3.1 phases the U.S. floor in to 72.5 % by 2030. A second sentence far too long to fit on the one short line this box allows.';
    const block = stack(svg, [{ text: prose, size: 20, maxLines: 2, fill: '#000', overflow: 'sentences' }], 420);
    block.draw(0, 0);
    const drawn = svg.toString();
    expect(drawn).toContain('Basel 3.1');
    expect(drawn).toContain('72.5 %');
    expect(drawn).not.toMatch(/3\. 1|U\. S\.|72\.</);
    expect(drawn).not.toContain('A second sentence');
  });
});
