/**
 * The council's deterministic merge (docs/decisions.md, "Council with real seats"): two seats' guarded items are
 * reconciled item by item (matched by item id: calendar ids, or `web-<hash of title + jurisdiction>`).
 *
 * - An item both seats report with the same stage, key date, date confidence and impact is `agreed`.
 * - An item both report that differs on any of those fields is `disputed`: the item keeps both seats' values in its
 *   `council.disputes` sidecar, and the composite takes the cautious reading of each field: the earlier key date
 *   (with that seat's milestone and precision), the higher impact, the lower date confidence and the earlier
 *   lifecycle stage. The composite never claims a later deadline, a lower impact, more certainty or a more
 *   advanced instrument than either seat reported.
 * - An item only one seat reports is kept as `single_seat`, naming its seat.
 *
 * Prose fields (title, summary, implications, regulator) come from seat A, the first seat in preference order, for
 * items both report. Citations are renumbered snapshot-wide in the composite's order (by URL), so ids stay unique.
 * Items are ranked like every engine: impact, key date, id.
 */
import type { Citation, DateConfidence, Impact, ItemStage, SnapshotItem, SnapshotTrend } from '../envelope.types';
import { IMPACT_RANK } from '../analysis/selection';

export type SeatName = 'A' | 'B';
export const DISPUTED_FIELDS = ['stage', 'key_date', 'date_confidence', 'impact'] as const;
export type DisputedField = (typeof DISPUTED_FIELDS)[number];

export interface CouncilDispute {
  field: DisputedField;
  seat_a: string;
  seat_b: string;
  composite: string;
  rule: string;
}

/** `council` on each composite item: how the seats' reports of it were reconciled. */
export interface CouncilItemSidecar {
  agreement: 'agreed' | 'disputed' | 'single_seat';
  seats: SeatName[];
  disputes: CouncilDispute[];
}

export type CouncilItem = SnapshotItem & { council: CouncilItemSidecar };

export interface CouncilMerge {
  items: CouncilItem[];
  trends: SnapshotTrend[];
  counts: { agreed: number; disputed: number; single_seat: number };
}

const STAGE_ORDER: readonly ItemStage[] = ['proposed', 'consultation', 'adopted', 'in_force', 'applies'];
const CONFIDENCE_ORDER: readonly DateConfidence[] = ['speculative', 'expected', 'confirmed'];

const RULES: Record<DisputedField, string> = {
  key_date: 'earlier key date',
  impact: 'higher impact',
  date_confidence: 'lower date confidence',
  stage: 'earlier lifecycle stage',
};

/** Which seat's value of `field` the composite takes: true for seat A (ties go to seat A). */
function seatAWins(field: DisputedField, a: SnapshotItem, b: SnapshotItem): boolean {
  switch (field) {
    case 'key_date':
      return a.key_date <= b.key_date;
    case 'impact':
      return IMPACT_RANK[a.impact] <= IMPACT_RANK[b.impact];
    case 'date_confidence':
      return CONFIDENCE_ORDER.indexOf(a.date_confidence) <= CONFIDENCE_ORDER.indexOf(b.date_confidence);
    case 'stage':
      return STAGE_ORDER.indexOf(a.stage) <= STAGE_ORDER.indexOf(b.stage);
  }
}

function reconcile(a: SnapshotItem, b: SnapshotItem): CouncilItem {
  const merged: SnapshotItem = { ...a, citations: [...a.citations, ...b.citations] };
  const disputes: CouncilDispute[] = [];
  for (const field of DISPUTED_FIELDS) {
    if (a[field] === b[field]) continue;
    const winner = seatAWins(field, a, b) ? a : b;
    if (field === 'key_date') {
      merged.key_date = winner.key_date;
      merged.milestone = winner.milestone;
      merged.key_date_precision = winner.key_date_precision;
    } else if (field === 'impact') merged.impact = winner.impact as Impact;
    else if (field === 'date_confidence') merged.date_confidence = winner.date_confidence;
    else merged.stage = winner.stage;
    disputes.push({ field, seat_a: a[field], seat_b: b[field], composite: winner[field], rule: RULES[field] });
  }
  return { ...merged, council: { agreement: disputes.length ? 'disputed' : 'agreed', seats: ['A', 'B'], disputes } };
}

/** Citations numbered 1..n in the items' order, one id per URL; each item's list deduplicated. */
function renumberCitations(items: CouncilItem[]): void {
  const byUrl = new Map<string, Citation>();
  for (const item of items) {
    const seen = new Set<string>();
    const citations: Citation[] = [];
    for (const citation of item.citations) {
      if (seen.has(citation.url)) continue;
      seen.add(citation.url);
      let numbered = byUrl.get(citation.url);
      if (!numbered) {
        numbered = { ...citation, id: byUrl.size + 1 };
        byUrl.set(citation.url, numbered);
      }
      citations.push({ ...numbered });
    }
    item.citations = citations;
  }
}

/** Both seats' trends (seat A's first), restricted to composite items; a trend id or an emptied trend is dropped. */
function mergeTrends(a: readonly SnapshotTrend[], b: readonly SnapshotTrend[], items: readonly CouncilItem[]): SnapshotTrend[] {
  const byId = new Map(items.map((item) => [item.id, item]));
  const out: SnapshotTrend[] = [];
  for (const trend of [...a, ...b]) {
    if (out.some((t) => t.id === trend.id)) continue;
    const members = trend.item_ids.filter((id) => byId.has(id));
    if (members.length === 0) continue;
    out.push({
      ...trend,
      item_ids: members,
      jurisdictions: [...new Set(members.map((id) => byId.get(id)!.jurisdiction))],
      areas: [...new Set(members.map((id) => byId.get(id)!.area))],
    });
  }
  return out;
}

export function mergeSeats(
  seatA: { items: readonly SnapshotItem[]; trends: readonly SnapshotTrend[] },
  seatB: { items: readonly SnapshotItem[]; trends: readonly SnapshotTrend[] },
): CouncilMerge {
  const bById = new Map(seatB.items.map((item) => [item.id, item]));
  const aIds = new Set(seatA.items.map((item) => item.id));
  const items: CouncilItem[] = [];
  for (const a of seatA.items) {
    const b = bById.get(a.id);
    items.push(b ? reconcile(a, b) : { ...a, council: { agreement: 'single_seat', seats: ['A'], disputes: [] } });
  }
  for (const b of seatB.items) {
    if (!aIds.has(b.id)) items.push({ ...b, council: { agreement: 'single_seat', seats: ['B'], disputes: [] } });
  }
  items.sort((x, y) => IMPACT_RANK[x.impact] - IMPACT_RANK[y.impact] || x.key_date.localeCompare(y.key_date) || x.id.localeCompare(y.id));
  renumberCitations(items);
  const counts = { agreed: 0, disputed: 0, single_seat: 0 };
  for (const item of items) counts[item.council.agreement]++;
  return { items, trends: mergeTrends(seatA.trends, seatB.trends, items), counts };
}
