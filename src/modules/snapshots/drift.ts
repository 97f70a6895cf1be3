/**
 * The drift overlay (../shared/spec/decisions.md section 2): how a snapshot's items differ from those of the prior comparable
 * snapshot. Pure: the caller picks the baseline and passes both item lists already projected for reading
 * (citation markers stripped), so renumbered citations never show up as changed prose.
 *
 * Rules:
 * - Items are matched by `id` (the same real-world instrument keeps its id across snapshots). Items without a
 *   string id cannot be matched and are left out; when an id repeats within one snapshot the first wins.
 * - A matched item is `changed` when at least one of DRIFT_FIELDS differs (deep equality; a missing field reads
 *   as null), else `unchanged`. Citations, verification, jurisdiction and area are not compared.
 * - `added`: current items whose id the baseline lacks, in the current order. `removed`: baseline items whose id
 *   the current snapshot lacks, in the baseline order. `changed`: in the current order, fields in DRIFT_FIELDS order.
 * - `removed_reasons` says why each removed item is gone, judged against today's calendar and the current
 *   snapshot's scope and scan date: `dropped_by_cap` (it still matches, but the item cap kept others),
 *   `outside_scope` (still in the calendar, but outside this scan's jurisdictions, areas or window),
 *   `left_calendar` (no longer in the calendar), `not_found_again` (an item from web sources this run did not find).
 */

/** Item fields compared field by field, in the order `changed[].fields` lists them. */
export const DRIFT_FIELDS = [
  'title',
  'stage',
  'key_date',
  'date_confidence',
  'impact',
  'summary',
  'implications',
  'regulator',
  'instrument_type',
] as const;
export type DriftField = (typeof DRIFT_FIELDS)[number];

export type DriftItem = Record<string, unknown>;

export interface DriftFieldChange {
  field: DriftField;
  before: unknown;
  after: unknown;
}

export interface DriftChangedItem {
  item_id: string;
  title: unknown;
  fields: DriftFieldChange[];
}

export const REMOVAL_REASONS = ['dropped_by_cap', 'outside_scope', 'left_calendar', 'not_found_again'] as const;
export type RemovalReason = (typeof REMOVAL_REASONS)[number];

/** What the removed items are judged against: the calendar now, and what the current snapshot's scope matches in it. */
export interface RemovalContext {
  calendarIds: ReadonlySet<string>;
  /** Calendar ids the current snapshot's scope and window match, before the item cap. */
  matchedIds: ReadonlySet<string>;
}

export interface DriftComparison {
  summary: { added: number; removed: number; changed: number; unchanged: number };
  added: DriftItem[];
  removed: DriftItem[];
  changed: DriftChangedItem[];
  removed_reasons: Record<string, RemovalReason>;
}

export interface DriftBaseline {
  id: string;
  createdAt: Date;
}

export type DriftOverlay =
  ({ available: true; baseline_snapshot_id: string; baseline_created_at: string } & DriftComparison) | { available: false };

function isItem(value: unknown): value is DriftItem & { id: string } {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && typeof (value as DriftItem).id === 'string';
}

function byId(items: readonly unknown[]): Map<string, DriftItem> {
  const map = new Map<string, DriftItem>();
  for (const item of items) if (isItem(item) && !map.has(item.id)) map.set(item.id, item);
  return map;
}

/** JSON with object keys sorted, so key order never counts as a difference. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** Field-by-field differences of one matched item. */
export function itemChanges(before: DriftItem, after: DriftItem): DriftFieldChange[] {
  const changes: DriftFieldChange[] = [];
  for (const field of DRIFT_FIELDS) {
    const b = before[field] ?? null;
    const a = after[field] ?? null;
    if (canonical(b) !== canonical(a)) changes.push({ field, before: b, after: a });
  }
  return changes;
}

/** Why an item of the baseline is not in the current snapshot. */
export function removalReason(id: string, context: RemovalContext): RemovalReason {
  if (context.matchedIds.has(id)) return 'dropped_by_cap';
  if (context.calendarIds.has(id)) return 'outside_scope';
  return id.startsWith('web-') ? 'not_found_again' : 'left_calendar';
}

/** Compares the current snapshot's items with the baseline's (both lists as the API shows them). */
export function compareItems(current: readonly unknown[], baseline: readonly unknown[], context: RemovalContext): DriftComparison {
  const currentById = byId(current);
  const baselineById = byId(baseline);
  const added: DriftItem[] = [];
  const changed: DriftChangedItem[] = [];
  let unchanged = 0;
  for (const [id, item] of currentById) {
    const before = baselineById.get(id);
    if (!before) {
      added.push(item);
      continue;
    }
    const fields = itemChanges(before, item);
    if (fields.length === 0) unchanged++;
    else changed.push({ item_id: id, title: item.title ?? before.title ?? null, fields });
  }
  const removedIds = [...baselineById.keys()].filter((id) => !currentById.has(id));
  const removed = removedIds.map((id) => baselineById.get(id)!);
  const removed_reasons = Object.fromEntries(removedIds.map((id) => [id, removalReason(id, context)]));
  return { summary: { added: added.length, removed: removed.length, changed: changed.length, unchanged }, added, removed, changed, removed_reasons };
}

/** The overlay for a snapshot against its baseline, or `{available: false}` when there is none (a first run). */
export function driftOverlay(
  current: readonly unknown[],
  baseline: { snapshot: DriftBaseline; items: readonly unknown[] } | null,
  context: RemovalContext,
): DriftOverlay {
  if (!baseline) return { available: false };
  return {
    available: true,
    baseline_snapshot_id: baseline.snapshot.id,
    baseline_created_at: baseline.snapshot.createdAt.toISOString(),
    ...compareItems(current, baseline.items, context),
  };
}
