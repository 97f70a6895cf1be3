import { createHash } from 'node:crypto';
import { type CalendarEntry, DATE_PRECISIONS } from '../calendar/calendar.types';
import type { Citation, DateConfidence, Impact, ItemStage, SnapshotItem } from '../envelope.types';
import { normalizeName, resolveArea, resolveJurisdiction } from '../analysis/matching';
import { IMPACT_RANK, type SelectedEntry } from '../analysis/selection';
import { ensureFinalStop } from '../analysis/text';
import { asEnum, asIsoDate, asList, asObject, asText, type JsonObject, sourceNumbers, stripReferences } from './parse';
import type { NumberedSource } from './prompts';

/**
 * The model's items are never trusted as they are. An item is dropped (and recorded in `_meta.llm.dropped`) when
 * its key date is not inside [scanDate, windowEnd], when its jurisdiction or area is not one of the requested
 * ones, or when it cites none of the sources it was given. Items grounded in a calendar candidate take that
 * entry's id, regulator and citations (stable ids for drift); items grounded only in web sources get
 * `web-<hash of title + jurisdiction>`.
 */

const STAGES: readonly ItemStage[] = ['proposed', 'consultation', 'adopted', 'in_force', 'applies'];
const CONFIDENCES: readonly DateConfidence[] = ['confirmed', 'expected', 'speculative'];
const IMPACTS: readonly Impact[] = ['high', 'medium', 'low'];

export interface DroppedItem {
  ref: string | null;
  title: string | null;
  reason: string;
}

/** Stable id of an instrument grounded only in web sources. */
export function webItemId(title: string, jurisdiction: string): string {
  const hash = createHash('sha256')
    .update(`${normalizeName(title)}|${normalizeName(jurisdiction)}`)
    .digest('hex');
  return `web-${hash.slice(0, 10)}`;
}

export interface GuardContext {
  candidates: readonly SelectedEntry[];
  sources: readonly NumberedSource[];
  scanDate: string;
  windowEnd: string;
  jurisdictionIds: string[];
  jurisdictionNames: string[];
  areaIds: string[];
  areaNames: string[];
}

export interface Guarded {
  items: SnapshotItem[];
  dropped: DroppedItem[];
  /** Model refs (and item ids / titles) -> kept item id, for trends. */
  refToId: Map<string, string>;
  entryById: Map<string, CalendarEntry>;
  /** Source number -> citation id (only sources some kept item cites). */
  citationBySource: Map<number, number>;
}

/** A requested name or id matching `value` (resolved ids, or exact case-insensitive text for unrecognised names). */
function matchRequested(
  value: string | undefined,
  resolve: (name: string) => string | null,
  ids: string[],
  names: string[],
): string | null {
  if (!value) return null;
  const id = resolve(value);
  if (id && ids.includes(id)) return id;
  const exact = names.find((n) => n.trim().toLowerCase() === value.trim().toLowerCase());
  if (exact) return resolve(exact) ?? exact;
  return null;
}

export function applyGuardrails(raw: JsonObject, ctx: GuardContext): Guarded {
  const candidateById = new Map(ctx.candidates.map((c) => [c.entry.id.toLowerCase(), c]));
  const sourceByNumber = new Map(ctx.sources.map((s) => [s.number, s]));
  const dropped: DroppedItem[] = [];
  const kept: Array<{ item: SnapshotItem; sourceNumbers: number[]; refs: string[]; entry?: CalendarEntry }> = [];
  const seen = new Set<string>();

  for (const value of asList(raw.items)) {
    const record = asObject(value);
    const ref = asText(record?.ref) ?? null;
    const rawTitle = asText(record?.title) ?? null;
    const drop = (reason: string) => dropped.push({ ref, title: rawTitle, reason });
    if (!record) {
      drop('not an object');
      continue;
    }
    const candidate = ref
      ? (candidateById.get(ref.toLowerCase()) ?? candidateById.get(ref.toLowerCase().replace(/^cal(endar)?[:\s-]*/, '')))
      : undefined;
    const entry = candidate?.entry;
    const title = entry?.title ?? rawTitle;
    if (!title) {
      drop('no title');
      continue;
    }

    // Key date: inside [scanDate, windowEnd].
    const keyDate = asIsoDate(record.key_date) ?? (asText(record.key_date) ? undefined : candidate?.nextKeyDate.date);
    if (!keyDate) {
      drop(`no valid key date (${String(record.key_date ?? 'missing')})`);
      continue;
    }
    if (keyDate < ctx.scanDate) {
      drop(`key date before the scan date (${keyDate})`);
      continue;
    }
    if (keyDate > ctx.windowEnd) {
      drop(`key date after the window end (${keyDate})`);
      continue;
    }

    // Jurisdiction and area: among the requested ones.
    const jurisdiction = entry
      ? matchRequested(entry.jurisdiction, resolveJurisdiction, ctx.jurisdictionIds, ctx.jurisdictionNames)
      : matchRequested(asText(record.jurisdiction), resolveJurisdiction, ctx.jurisdictionIds, ctx.jurisdictionNames);
    if (!jurisdiction) {
      drop(`jurisdiction not requested (${entry?.jurisdiction ?? asText(record.jurisdiction) ?? 'missing'})`);
      continue;
    }
    let area = matchRequested(asText(record.area), resolveArea, ctx.areaIds, ctx.areaNames);
    if (entry) {
      if (!area || !entry.areas.includes(area)) area = candidate!.area;
    }
    if (!area) {
      drop(`area not requested (${asText(record.area) ?? 'missing'})`);
      continue;
    }

    // Sources: calendar items cite their entry's sources; web items the valid numbered sources they list.
    let numbers: number[];
    if (entry) {
      numbers = entry.sources.map((s) => ctx.sources.find((n) => n.url === s.url)?.number).filter((n): n is number => n !== undefined);
    } else {
      const listed = sourceNumbers(record.source_numbers ?? record.sources);
      const fromRef = ref ? sourceNumbers(ref) : [];
      numbers = [...new Set([...listed, ...fromRef])].filter((n) => sourceByNumber.has(n));
    }
    if (numbers.length === 0) {
      drop('cites no provided source');
      continue;
    }

    const id = entry ? entry.id : webItemId(title, jurisdiction);
    if (seen.has(id)) {
      drop(`duplicate of ${id}`);
      continue;
    }
    seen.add(id);
    const calendarDate = entry?.milestones.find((k) => k.date === keyDate);
    const item: SnapshotItem = {
      id,
      title,
      jurisdiction,
      area,
      regulator: entry?.regulator ?? asText(record.regulator) ?? 'Not stated',
      instrument_type: entry?.instrument_type ?? asText(record.instrument_type)?.toLowerCase() ?? 'regulation',
      stage: asEnum(record.stage, STAGES) ?? entry?.stage ?? 'proposed',
      key_date: keyDate,
      date_confidence: asEnum(record.date_confidence, CONFIDENCES) ?? calendarDate?.confidence ?? 'speculative',
      key_date_precision: asEnum(record.key_date_precision, DATE_PRECISIONS) ?? calendarDate?.precision ?? 'day',
      milestone: asText(record.milestone) ?? calendarDate?.event ?? 'Key date',
      impact: asEnum(record.impact, IMPACTS) ?? entry?.impact ?? 'medium',
      summary: ensureFinalStop(stripReferences(asText(record.summary) ?? entry?.summary ?? title)),
      implications: ensureFinalStop(
        stripReferences(asText(record.implications) ?? entry?.implications ?? 'Assess the impact on the firm.'),
      ),
      citations: [],
      verification: { status: 'unverified', passes: [] },
    };
    kept.push({ item, sourceNumbers: numbers, refs: [ref, rawTitle, id].filter((r): r is string => !!r), entry });
  }

  // Rank like the offline engine (impact, date, id), then number citations snapshot-wide in that order.
  kept.sort(
    (a, b) =>
      IMPACT_RANK[a.item.impact] - IMPACT_RANK[b.item.impact] ||
      a.item.key_date.localeCompare(b.item.key_date) ||
      a.item.id.localeCompare(b.item.id),
  );
  const citationBySource = new Map<number, number>();
  const citations = new Map<number, Citation>();
  for (const { item, sourceNumbers: numbers } of kept) {
    for (const n of numbers) {
      if (!citationBySource.has(n)) {
        const source = sourceByNumber.get(n)!;
        const id = citationBySource.size + 1;
        citationBySource.set(n, id);
        citations.set(id, {
          id,
          url: source.url,
          title: source.title,
          publisher: source.publisher,
          published_at: source.publishedAt,
          ...(source.kind ? { kind: source.kind } : {}),
        });
      }
      item.citations.push({ ...citations.get(citationBySource.get(n)!)! });
    }
  }
  const refToId = new Map<string, string>();
  for (const { item, refs } of kept) for (const ref of refs) if (!refToId.has(ref.toLowerCase())) refToId.set(ref.toLowerCase(), item.id);
  const entryById = new Map<string, CalendarEntry>();
  for (const { item, entry } of kept) if (entry) entryById.set(item.id, entry);
  return { items: kept.map((k) => k.item), dropped, refToId, entryById, citationBySource };
}
