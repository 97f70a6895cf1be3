/**
 * Who drew an image export (`rendered_by` of the export job): `openai` or `gemini` when the vendor drew it, `offline`
 * when the vendor was not configured and the local SVG renderer drew it instead. Null for every other type and
 * until the export completes.
 *
 * Kept in the job's `options` JSON under a reserved key (RENDERED_BY_OPTION) until export_jobs has a column for it
 * (that needs a migration): the API strips reserved keys from `options` and shows the value as `rendered_by`.
 */
export const RENDERED_BY_OPTION = '_rendered_by';
export const RENDERED_BY_VALUES = ['openai', 'gemini', 'offline'] as const;
export type RenderedBy = (typeof RENDERED_BY_VALUES)[number];

/** The options as the client sees them: without the reserved `_` keys the service keeps there. */
export function publicOptions(options: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(options ?? {}).filter(([key]) => !key.startsWith('_')));
}

export function renderedByOf(options: Record<string, string>): RenderedBy | null {
  const value = options?.[RENDERED_BY_OPTION];
  return (RENDERED_BY_VALUES as readonly string[]).includes(value ?? '') ? (value as RenderedBy) : null;
}
