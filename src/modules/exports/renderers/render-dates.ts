/** Dates as the artefacts print them, and the scan window of a snapshot. */
import { formatLongDate as formatLongCalendarDate, formatShortDate, isIsoDate } from '../../../engine/analysis/dates';
import type { RenderSnapshot } from './types';

/** "31 Dec 2026"; the date part of a timestamp is used, and anything else is returned as is. */
export function formatDate(iso: string | null | undefined): string {
  const day = (iso ?? '').slice(0, 10);
  return isIsoDate(day) ? formatShortDate(day) : (iso ?? '');
}

/** "31 December 2026". */
export function formatLongDate(iso: string | null | undefined): string {
  const day = (iso ?? '').slice(0, 10);
  return isIsoDate(day) ? formatLongCalendarDate(day) : (iso ?? '');
}

/** The scan date (YYYY-MM-DD): the engine's `_meta.scan_date` when present, else the snapshot's creation date. */
export function scanDateOf(snapshot: RenderSnapshot): string {
  const meta = snapshot.data?._meta as Record<string, unknown> | undefined;
  const fromMeta = typeof meta?.scan_date === 'string' ? meta.scan_date.slice(0, 10) : '';
  if (isIsoDate(fromMeta)) return fromMeta;
  const created = (snapshot.created_at ?? '').slice(0, 10);
  return isIsoDate(created) ? created : new Date(0).toISOString().slice(0, 10);
}

/** Last day of the horizon (`_meta.window_end` when present). */
export function windowEndOf(snapshot: RenderSnapshot): string | null {
  const meta = snapshot.data?._meta as Record<string, unknown> | undefined;
  const end = typeof meta?.window_end === 'string' ? meta.window_end.slice(0, 10) : '';
  return isIsoDate(end) ? end : null;
}

export function horizonText(snapshot: RenderSnapshot): string {
  const months = snapshot.config?.horizon;
  const end = windowEndOf(snapshot);
  const base = typeof months === 'number' ? `${months} month${months === 1 ? '' : 's'}` : '';
  return end ? `${base} (to ${formatDate(end)})`.trim() : base;
}
