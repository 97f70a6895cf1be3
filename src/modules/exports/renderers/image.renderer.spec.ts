import { INFOGRAPHIC_CUSTOM_STYLES, TEARSHEET_DETAILED_STYLES } from '../export-types/image-styles';
import { pngHeader } from '../../../../test/support/inspect-artefact';
import { awkwardSnapshot, input, jaSnapshot, realisticSnapshot, syntheticSnapshot, zhSnapshot } from '../../../../test/fixtures/snapshots';
import { IMAGE_SIZES, renderImage, renderImageSvg } from './image.renderer';

describe('image renderers (tearsheet-detailed, infographic-custom)', () => {
  it('documents the sizes', () => {
    expect(IMAGE_SIZES['tearsheet-detailed']).toEqual({ width: 1240, height: 1754 });
    expect(IMAGE_SIZES['infographic-custom']).toEqual({ width: 1080, height: 1350 });
  });

  it.each([
    ['tearsheet-detailed', TEARSHEET_DETAILED_STYLES.map((style) => style.slug)],
    ['infographic-custom', INFOGRAPHIC_CUSTOM_STYLES.map((style) => style.slug)],
  ] as const)('%s renders a PNG of the stated size in every style', async (type, slugs) => {
    const snapshot = realisticSnapshot();
    for (const slug of slugs) {
      const out = await renderImage(type, input(snapshot, { styleSlug: slug }));
      expect(out.mime).toBe('image/png');
      expect(out.filename).toMatch(new RegExp(`^regulatory-horizon-eu-uk-2026-11-22-(tearsheet|infographic)-${slug}\\.png$`));
      const header = pngHeader(out.bytes);
      expect({ width: header.width, height: header.height }).toEqual(IMAGE_SIZES[type]);
    }
  });

  it('renders 100 items and CJK text', async () => {
    for (const [snapshot, locale] of [
      [syntheticSnapshot(100), 'en'],
      [zhSnapshot(), 'zh'],
      [jaSnapshot(), 'ja'],
    ] as const) {
      for (const type of ['tearsheet-detailed', 'infographic-custom'] as const) {
        const out = await renderImage(type, input(snapshot, {}, locale));
        expect(pngHeader(out.bytes).width).toBe(IMAGE_SIZES[type].width);
      }
    }
  });

  it('uses the bundled CJK family (and nothing else) for Chinese text', () => {
    const svg = renderImageSvg('tearsheet-detailed', input(zhSnapshot(), { styleSlug: 'ledger-green' }, 'zh'));
    expect(svg).toContain(`font-family="&#39;IBM Plex Mono&#39;, &#39;Noto Sans S Chinese&#39;"`);
    expect(svg).toContain('欧盟与英国反洗钱及支付监管展望');
  });

  it('escapes text for SVG', () => {
    const svg = renderImageSvg('tearsheet-detailed', input(awkwardSnapshot(), { styleSlug: 'swiss-grid' }));
    expect(svg).not.toContain('<script>');
    expect(svg).not.toContain('<b>');
    expect(svg).toContain('&lt;b&gt;');
    expect(svg).toContain('&quot;Quoted&quot;');
  });
});
