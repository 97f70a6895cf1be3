/**
 * Style vocabularies for the image and web-slide exports. This is data that changes: styles are
 * added and withdrawn over time, and the registry's `styleSlug` enums are built from these lists.
 * Palette and layout hints let an offline renderer draw a style without the image provider.
 */

export type StyleLayout = 'grid' | 'columns' | 'table' | 'list' | 'timeline' | 'radial' | 'cards' | 'map' | 'lanes' | 'hero';
export type StyleTypeface = 'sans' | 'serif' | 'mono';

export interface StylePalette {
  background: string;
  foreground: string;
  accent: string;
}

export interface VisualStyle {
  slug: string;
  label: string;
  palette: StylePalette;
  layout: StyleLayout;
  typeface: StyleTypeface;
}

export type ImagegenProvider = 'imagegen-a-infographic' | 'imagegen-b-infographic';
export type ImagegenArtifactType = 'tearsheet-detailed' | 'infographic-custom';

function style(slug: string, label: string, [background, foreground, accent]: [string, string, string], layout: StyleLayout, typeface: StyleTypeface): VisualStyle {
  return { slug, label, palette: { background, foreground, accent }, layout, typeface };
}

export const TEARSHEET_DETAILED_STYLES: readonly VisualStyle[] = [
  style('swiss-grid', 'Swiss grid', ['#FFFFFF', '#111111', '#E30613'], 'grid', 'sans'),
  style('editorial-mono', 'Editorial mono', ['#F7F5F0', '#1A1A1A', '#5C5C5C'], 'columns', 'serif'),
  style('boardroom-navy', 'Boardroom navy', ['#0B1F3A', '#F2F4F7', '#C9A227'], 'columns', 'sans'),
  style('ledger-green', 'Ledger green', ['#F4F7F2', '#1E2B1F', '#2E7D32'], 'table', 'mono'),
  style('slate-minimal', 'Slate minimal', ['#F5F6F8', '#2B2F36', '#4A6FA5'], 'list', 'sans'),
  style('harbour-blue', 'Harbour blue', ['#EAF2F8', '#102A43', '#1F77B4'], 'grid', 'sans'),
  style('graphite-amber', 'Graphite amber', ['#1E1E1E', '#EDEDED', '#FFB000'], 'columns', 'sans'),
  style('policy-paper', 'Policy paper', ['#FFFDF7', '#222222', '#8B1E3F'], 'columns', 'serif'),
  style('terminal-dark', 'Terminal dark', ['#0D1117', '#C9D1D9', '#58A6FF'], 'table', 'mono'),
  style('ivory-serif', 'Ivory serif', ['#FFFFF0', '#2C2C2C', '#7A5C2E'], 'columns', 'serif'),
  style('compliance-teal', 'Compliance teal', ['#F0FAF9', '#0F3B3A', '#12877F'], 'grid', 'sans'),
  style('regulator-red', 'Regulator red', ['#FFFFFF', '#1C1C1C', '#B22222'], 'timeline', 'sans'),
];

export const INFOGRAPHIC_CUSTOM_STYLES: readonly VisualStyle[] = [
  style('timeline-horizon', 'Horizon timeline', ['#FFFFFF', '#1B1F3B', '#3D5AFE'], 'timeline', 'sans'),
  style('radial-hub', 'Radial hub', ['#F8F9FB', '#22223B', '#F2545B'], 'radial', 'sans'),
  style('bento-cards', 'Bento cards', ['#F3F4F6', '#111827', '#10B981'], 'cards', 'sans'),
  style('isometric-blocks', 'Isometric blocks', ['#EEF2FF', '#1E1B4B', '#6366F1'], 'grid', 'sans'),
  style('flat-icons', 'Flat icons', ['#FFFFFF', '#263238', '#FF7043'], 'grid', 'sans'),
  style('blueprint', 'Blueprint', ['#0A3D62', '#E8F1F8', '#F6E58D'], 'grid', 'mono'),
  style('data-journalism', 'Data journalism', ['#FFFFFF', '#121212', '#D7263D'], 'columns', 'serif'),
  style('magazine-spread', 'Magazine spread', ['#FBF8F3', '#1D1D1D', '#C0392B'], 'hero', 'serif'),
  style('risk-heatmap', 'Risk heatmap', ['#FFFFFF', '#1F2937', '#DC2626'], 'table', 'sans'),
  style('world-map-pins', 'World map pins', ['#EFF6FF', '#0F172A', '#F97316'], 'map', 'sans'),
  style('pastel-soft', 'Pastel soft', ['#FDF6F0', '#3D3D3D', '#A0C4FF'], 'cards', 'sans'),
  style('high-contrast', 'High contrast', ['#000000', '#FFFFFF', '#FFD600'], 'list', 'sans'),
  style('monochrome-print', 'Monochrome print', ['#FFFFFF', '#000000', '#666666'], 'columns', 'serif'),
  style('sunset-gradient', 'Sunset gradient', ['#2D1B4E', '#FFF3E6', '#FF8C42'], 'hero', 'sans'),
  style('corporate-clean', 'Corporate clean', ['#FFFFFF', '#1F2A44', '#0072CE'], 'grid', 'sans'),
  style('swiss-grid', 'Swiss grid', ['#FFFFFF', '#111111', '#E30613'], 'grid', 'sans'),
  style('boardroom-navy', 'Boardroom navy', ['#0B1F3A', '#F2F4F7', '#C9A227'], 'columns', 'sans'),
  style('editorial-mono', 'Editorial mono', ['#F7F5F0', '#1A1A1A', '#5C5C5C'], 'columns', 'serif'),
  style('chalkboard', 'Chalkboard', ['#2F3B35', '#F0F0E8', '#F4D35E'], 'list', 'mono'),
  style('kanban-lanes', 'Kanban lanes', ['#F5F7FA', '#202124', '#7C4DFF'], 'lanes', 'sans'),
  style('metro-lines', 'Metro lines', ['#FFFFFF', '#1A1A1A', '#00A651'], 'timeline', 'sans'),
];

export const IMAGE_STYLE_SETS: Readonly<Record<ImagegenProvider, Readonly<Record<ImagegenArtifactType, readonly VisualStyle[]>>>> = {
  'imagegen-a-infographic': { 'tearsheet-detailed': TEARSHEET_DETAILED_STYLES, 'infographic-custom': INFOGRAPHIC_CUSTOM_STYLES },
  'imagegen-b-infographic': { 'tearsheet-detailed': TEARSHEET_DETAILED_STYLES, 'infographic-custom': INFOGRAPHIC_CUSTOM_STYLES },
};

export const DEFAULT_STYLE_SLUGS: Readonly<Record<ImagegenProvider, Readonly<Record<ImagegenArtifactType, string>>>> = {
  'imagegen-a-infographic': { 'tearsheet-detailed': 'swiss-grid', 'infographic-custom': 'timeline-horizon' },
  'imagegen-b-infographic': { 'tearsheet-detailed': 'boardroom-navy', 'infographic-custom': 'bento-cards' },
};

/** Slugs that used to be offered; requests naming them get `invalid_value` with a clearer message. */
export const WITHDRAWN_STYLE_SLUGS: readonly string[] = ['neon-noir', 'retro-80s', 'blueprint-classic', 'glassmorphism'];

export const SLIDE_WEB_STYLES: readonly VisualStyle[] = [
  style('dark-editorial', 'Dark editorial', ['#111418', '#F1F3F5', '#E0B341'], 'hero', 'serif'),
  style('light-consulting', 'Light consulting', ['#FFFFFF', '#1F2A44', '#0072CE'], 'columns', 'sans'),
];
export const DEFAULT_SLIDE_WEB_STYLE = 'dark-editorial';

export function styleSlugs(styles: readonly VisualStyle[]): string[] {
  return styles.map((entry) => entry.slug);
}

export function findVisualStyle(slug: string): VisualStyle | undefined {
  return [...TEARSHEET_DETAILED_STYLES, ...INFOGRAPHIC_CUSTOM_STYLES, ...SLIDE_WEB_STYLES].find((entry) => entry.slug === slug);
}
