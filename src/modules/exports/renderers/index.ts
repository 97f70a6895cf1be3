/**
 * In-process export renderers: pure functions from a snapshot to bytes, dispatched by the export type's
 * `artifact_type` (see export-types.registry.ts). Each renderer's module comment says what it produces.
 *
 * | artifact_type      | renderer                     | output                                         |
 * | ------------------ | ---------------------------- | ---------------------------------------------- |
 * | pdf                | pdf.renderer.ts              | full A4 report (PDF)                           |
 * | csv                | csv.renderer.ts              | one row per item (RFC 4180, UTF-8 with BOM)    |
 * | briefing-pdf       | briefing-pdf.renderer.ts     | one- or two-page briefing (PDF)                |
 * | tearsheet          | tearsheet.renderer.ts        | one-page tearsheet (PDF)                       |
 * | slide-deck         | slide-deck.renderer.ts       | PowerPoint deck, sections over as many slides as they need (PPTX) |
 * | slide-web          | slide-web.renderer.ts        | self-contained HTML slides, 16:9, fonts embedded |
 * | tearsheet-detailed | image.renderer.ts            | PNG, 1240 × 1754                               |
 * | infographic-custom | image.renderer.ts            | PNG, 1080 × 1350                               |
 * | compliance-calendar| compliance-calendar.renderer | one-page calendar by month (PDF, A4 landscape)  |
 */
import { renderBriefingPdf } from './briefing-pdf.renderer';
import { renderComplianceCalendar } from './compliance-calendar.renderer';
import { renderCsv } from './csv.renderer';
import { renderImage } from './image.renderer';
import { renderPdf } from './pdf.renderer';
import { renderSlideDeck } from './slide-deck.renderer';
import { renderSlideWeb } from './slide-web.renderer';
import { renderTearsheet } from './tearsheet.renderer';
import type { RenderedArtefact, Renderer, RenderInput } from './types';

export type { RenderedArtefact, RenderInput, RenderSnapshot, RenderSnapshotConfig, Renderer } from './types';
export { IMAGE_SIZES } from './image.renderer';
export { slideSections } from './slide-sections';

const RENDERERS: Record<string, Renderer> = {
  pdf: renderPdf,
  csv: renderCsv,
  'briefing-pdf': renderBriefingPdf,
  tearsheet: renderTearsheet,
  'slide-deck': renderSlideDeck,
  'slide-web': renderSlideWeb,
  'tearsheet-detailed': (input) => renderImage('tearsheet-detailed', input),
  'infographic-custom': (input) => renderImage('infographic-custom', input),
  'compliance-calendar': renderComplianceCalendar,
};

const renderedTypes = Object.keys(RENDERERS);

/** The artifact types rendered in process. */
export const RENDERED_ARTIFACT_TYPES: readonly string[] = renderedTypes;

/** Adds an in-process renderer; `registerExportType` (../register-export-type.ts) calls it with the type's entry. */
export function addRenderer(artifactType: string, renderer: Renderer): void {
  if (hasRenderer(artifactType)) throw new Error(`artifact type ${artifactType} already has a renderer`);
  RENDERERS[artifactType] = renderer;
  renderedTypes.push(artifactType);
}

export function hasRenderer(artifactType: string): boolean {
  return Object.prototype.hasOwnProperty.call(RENDERERS, artifactType);
}

/** Renders a snapshot as the given artifact type; throws for a type with no in-process renderer. */
export async function renderArtefact(artifactType: string, input: RenderInput): Promise<RenderedArtefact> {
  const renderer = hasRenderer(artifactType) ? RENDERERS[artifactType] : undefined;
  if (!renderer) throw new Error(`No renderer for artifact type "${artifactType}"`);
  return renderer(input);
}

const WARM_UP_SNAPSHOT = {
  id: 'warm-up',
  title: 'Warm-up',
  created_at: '2026-01-01T00:00:00.000Z',
  config: { jurisdictions: ['EU'], areas: ['Payments'], horizon: 12, engine: 'offline' },
  data: {
    items: Array.from({ length: 12 }, (_, index) => ({
      id: `warm-up-${index}`,
      title: `Warm-up instrument ${index} on payment services, anti-money laundering and reporting`,
      jurisdiction: index % 2 === 0 ? 'EU' : 'UK',
      area: 'Payments',
      regulator: 'European Commission',
      instrument_type: 'regulation',
      stage: 'adopted' as const,
      key_date: `2026-0${(index % 9) + 1}-15`,
      date_confidence: 'confirmed' as const,
      impact: (['high', 'medium', 'low'] as const)[index % 3]!,
      summary:
        'The regulation obliges payment service providers to offer instant credit transfers at no higher price than standard ones, with a payee check and daily sanctions screening.',
      implications:
        'Firms should plan the changes to their payment systems and customer communications well ahead of the application date.',
      citations: [
        { id: index + 1, url: 'https://example.org/warm-up', title: 'Warm-up source', publisher: 'Publisher', published_at: '2026-01-01' },
      ],
      verification: { status: 'verified' as const, passes: [] },
    })),
    trends: [],
    executive_summary: {
      bottom_line: 'Warm-up bottom line with enough words to wrap over a couple of lines of text.',
      priorities: ['Warm-up priority.'],
    },
    executive_narrative: 'Warm-up narrative paragraph with enough words to wrap over a couple of lines of text. [[cite:1]]',
    auditor: { ran: false, passes: [], verified_count: 0, flagged_item_ids: [] },
    translations: {},
    _meta: {},
  },
};

/**
 * Renders a small document of the given types (default: the PDF report and the PPTX deck) and discards it, so
 * a worker can pay the one-off costs (module loading, font parsing, JIT) at start-up instead of on its first
 * export. Optional: renderers work without it.
 */
export async function warmUpRenderers(artifactTypes: readonly string[] = ['pdf', 'slide-deck']): Promise<void> {
  for (const artifactType of artifactTypes) await renderArtefact(artifactType, { snapshot: WARM_UP_SNAPSHOT, options: {}, locale: 'en' });
}
