/** Artefact file names: safe ASCII, dated by the snapshot's scan. */
import type { RenderSnapshot } from './types';
import { slugify } from '../../../engine/analysis/text';
import { scanDateOf } from './render-dates';


/**
 * Safe ASCII file name: `regulatory-horizon-<jurisdictions>-<scan date>[-<suffix>].<ext>`,
 * e.g. regulatory-horizon-eu-uk-2026-11-22.pdf. Jurisdictions that have no ASCII letters are left out.
 */
export function artefactFilename(snapshot: RenderSnapshot, extension: string, suffix = ''): string {
  const parts = (snapshot.config?.jurisdictions ?? []).map((name) => slugify(name)).filter((part) => part.length > 0);
  let scope = parts.join('-');
  if (scope.length > 60) scope = scope.slice(0, 60).replace(/-[^-]*$/, '');
  const name = ['regulatory-horizon', scope || 'scan', scanDateOf(snapshot), slugify(suffix)].filter((part) => part.length > 0).join('-');
  return `${name}.${slugify(extension) || 'bin'}`;
}

/**
 * The file name with the language actually produced before the extension (`…-2026-11-22-en.pdf`), used whenever a
 * `targetLanguage` was asked for, so a file that fell back to English never passes for the language requested.
 */
export function withLocale(filename: string, locale: string): string {
  const suffix = `-${slugify(locale) || 'en'}`;
  const dot = filename.lastIndexOf('.');
  return dot > 0 ? `${filename.slice(0, dot)}${suffix}${filename.slice(dot)}` : `${filename}${suffix}`;
}
