/**
 * Who drew an image export (`rendered_by` of the export job, column export_jobs.rendered_by): `openai` or `gemini`
 * when the vendor drew it, `offline` when the vendor was not configured and the local SVG renderer drew it instead.
 * Null for every other type and until the export completes.
 */
export const RENDERED_BY_VALUES = ['openai', 'gemini', 'offline'] as const;
export type RenderedBy = (typeof RENDERED_BY_VALUES)[number];
