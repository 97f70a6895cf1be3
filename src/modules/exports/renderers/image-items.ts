/**
 * What an image says about one item, as measured runs: where and when (the key date with its precision and
 * milestone), the whole title, the source, and optionally the first sentences of the summary.
 */
import type { SnapshotItem } from '../../../engine/envelope.types';
import { IMPACT_LABELS, label, STAGE_LABELS } from './item-labels';
import { dateWithMilestone, keyDateLabel, shortSource } from './render-facts';
import { stripCites } from './render-text';
import type { Run } from './image-blocks';
import type { Look } from './image-types';

export interface ItemTextSizes {
  /** Title size and the smallest it may shrink to. */
  title: number;
  titleMin: number;
  /** Lines before the title shrinks (it takes more when it must, to stay whole). */
  titleLines: number;
  meta: number;
  /** Summary size and lines; 0 lines leaves the summary out. */
  summary?: number;
  summaryLines?: number;
}

export function sourceText(item: SnapshotItem): string {
  return shortSource(item) ?? 'Source: none cited';
}

/** "High impact · Proposed". */
export function impactStage(item: SnapshotItem): string {
  return `${label(IMPACT_LABELS, item.impact)} impact · ${label(STAGE_LABELS, item.stage)}`;
}

export function titleRun(item: SnapshotItem, look: Look, sizes: ItemTextSizes, gap = 0): Run {
  return {
    text: item.title,
    size: sizes.title,
    minSize: sizes.titleMin,
    maxLines: sizes.titleLines,
    bold: true,
    fill: look.fg,
    leading: 1.22,
    overflow: 'whole',
    gap,
  };
}

export function sourceRun(item: SnapshotItem, look: Look, size: number, gap = 6): Run {
  return { text: sourceText(item), size, minSize: Math.max(11, size - 3), maxLines: 2, fill: look.muted, overflow: 'whole', gap };
}

export function summaryRun(item: SnapshotItem, look: Look, sizes: ItemTextSizes): Run | null {
  if (!sizes.summary || !sizes.summaryLines) return null;
  return {
    text: stripCites(item.summary),
    size: sizes.summary,
    minSize: sizes.summary - 1,
    maxLines: sizes.summaryLines,
    fill: look.muted,
    overflow: 'sentences',
    gap: 8,
  };
}

/**
 * A card's runs: "EU · expected H2 2026 — milestone" (accent), the title, "High impact · Proposed · Source: …"
 * and the summary's leading sentences when asked for.
 */
export function itemRuns(item: SnapshotItem, look: Look, sizes: ItemTextSizes, metaFill = look.accent): Run[] {
  const runs: Array<Run | null> = [
    {
      text: `${item.jurisdiction} · ${dateWithMilestone(item)}`,
      size: sizes.meta,
      minSize: Math.max(12, sizes.meta - 3),
      maxLines: 3,
      bold: true,
      fill: metaFill,
      overflow: 'whole',
    },
    titleRun(item, look, sizes, 8),
    sourceRun(item, look, Math.max(13, sizes.meta - 2), 8),
    summaryRun(item, look, sizes),
  ];
  return runs.filter((run): run is Run => run !== null);
}

/** The key date label with its period kept on one line ("expected" may stand above "1 Dec 2026"). */
export function unbrokenDate(item: SnapshotItem): string {
  return keyDateLabel(item)
    .replace(/ /g, '\u00A0')
    .replace(/^(expected|estimated)\u00A0/, '$1 ');
}

/** The date column of a list row: "expected H2 2026" (bold) over the jurisdiction. */
export function dateRuns(item: SnapshotItem, look: Look, size: number, fill = look.fg): Run[] {
  return [
    { text: unbrokenDate(item), size, minSize: size - 3, maxLines: 2, bold: true, fill, overflow: 'whole' },
    { text: item.jurisdiction, size: size - 4, minSize: size - 6, maxLines: 2, fill: look.muted, overflow: 'whole', gap: 4 },
  ];
}

/** The text column of a list row: the title, then "milestone · Source: …". */
export function rowTextRuns(item: SnapshotItem, look: Look, sizes: ItemTextSizes): Run[] {
  const milestone = (item.milestone ?? '').trim();
  return [
    titleRun(item, look, sizes),
    {
      text: [milestone, sourceText(item)].filter(Boolean).join(' · '),
      size: sizes.meta,
      minSize: Math.max(11, sizes.meta - 3),
      maxLines: 3,
      fill: look.muted,
      overflow: 'whole',
      gap: 5,
    },
  ];
}

/** Items by key date (none last), for layouts that read as a calendar. */
export function byDate(items: readonly SnapshotItem[]): SnapshotItem[] {
  return [...items].sort((a, b) => (a.key_date || '9999').localeCompare(b.key_date || '9999'));
}
