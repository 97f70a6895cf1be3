/** Artefact file names: safe ASCII, dated by the snapshot's scan. */
import type { RenderSnapshot } from './types';
import { scanDateOf } from './render-dates';

function asciiSlug(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/**
 * Safe ASCII file name: `regulatory-horizon-<jurisdictions>-<scan date>[-<suffix>].<ext>`,
 * e.g. regulatory-horizon-eu-uk-2026-11-22.pdf. Jurisdictions that have no ASCII letters are left out.
 */
export function artefactFilename(snapshot: RenderSnapshot, extension: string, suffix = ''): string {
  const parts = (snapshot.config?.jurisdictions ?? []).map(asciiSlug).filter((part) => part.length > 0);
  let scope = parts.join('-');
  if (scope.length > 60) scope = scope.slice(0, 60).replace(/-[^-]*$/, '');
  const name = ['regulatory-horizon', scope || 'scan', scanDateOf(snapshot), asciiSlug(suffix)].filter((part) => part.length > 0).join('-');
  return `${name}.${asciiSlug(extension) || 'bin'}`;
}
