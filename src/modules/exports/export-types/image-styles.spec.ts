import { DEFAULT_STYLE_SLUGS, findVisualStyle, IMAGE_STYLE_SETS, INFOGRAPHIC_CUSTOM_STYLES, SLIDE_WEB_STYLES, styleSlugs, TEARSHEET_DETAILED_STYLES, WITHDRAWN_STYLE_SLUGS } from './image-styles';

const HEX = /^#[0-9A-F]{6}$/;

describe('image styles', () => {
  it('offers 12 tearsheet-detailed and 21 infographic-custom styles per imagegen provider', () => {
    for (const sets of Object.values(IMAGE_STYLE_SETS)) {
      expect(sets['tearsheet-detailed']).toHaveLength(12);
      expect(sets['infographic-custom']).toHaveLength(21);
    }
  });

  it('uses unique slugs per list with palettes a renderer can draw', () => {
    for (const list of [TEARSHEET_DETAILED_STYLES, INFOGRAPHIC_CUSTOM_STYLES, SLIDE_WEB_STYLES]) {
      expect(new Set(styleSlugs(list)).size).toBe(list.length);
      for (const entry of list) {
        expect(entry.slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
        expect(entry.label).toBeTruthy();
        expect(Object.values(entry.palette).every((colour) => HEX.test(colour))).toBe(true);
      }
    }
  });

  it('picks defaults from each provider list', () => {
    for (const [provider, defaults] of Object.entries(DEFAULT_STYLE_SLUGS)) {
      const sets = IMAGE_STYLE_SETS[provider as keyof typeof IMAGE_STYLE_SETS];
      expect(styleSlugs(sets['tearsheet-detailed'])).toContain(defaults['tearsheet-detailed']);
      expect(styleSlugs(sets['infographic-custom'])).toContain(defaults['infographic-custom']);
    }
  });

  it('never offers a withdrawn slug', () => {
    const live = new Set([...styleSlugs(TEARSHEET_DETAILED_STYLES), ...styleSlugs(INFOGRAPHIC_CUSTOM_STYLES)]);
    for (const slug of WITHDRAWN_STYLE_SLUGS) {
      expect(live.has(slug)).toBe(false);
      expect(findVisualStyle(slug)).toBeUndefined();
    }
    expect(findVisualStyle('dark-editorial')?.layout).toBe('hero');
  });
});
