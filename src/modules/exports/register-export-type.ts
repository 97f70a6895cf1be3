import { addExportType, findExportType, type ExportTypeEntry } from './export-types/export-types.registry';
import { addRenderer, type Renderer } from './renderers';

/** An export type rendered in process: its registry entry and the renderer that produces its bytes. */
export interface RenderedExportType extends Omit<ExportTypeEntry, 'key' | 'requires_provider'> {
  render: Renderer;
}

/**
 * The one registration an in-process export type needs (docs/extending.md): GET /v1/meta/export-types lists it,
 * POST /v1/exports validates its options against `options_schema`, the export worker renders it with `render`,
 * and downloads serve it as `result.mime`. Call it before the app serves requests (at import or in a module's
 * constructor); a key or artifact type already taken throws.
 */
export function registerExportType(type: RenderedExportType): void {
  const { render, ...entry } = type;
  if (findExportType(entry.provider, entry.artifact_type)) throw new Error(`export type ${entry.provider}:${entry.artifact_type} is already registered`);
  addRenderer(entry.artifact_type, render);
  addExportType({ ...entry, key: `${entry.provider}:${entry.artifact_type}`, requires_provider: null });
}
