/**
 * What every artefact says about a snapshot besides its items, written once so that every format says it the
 * same way: how the items were selected ("Top 40 of 93"), how certain a key date is ("expected H2 2026"), where
 * the scan came from and what was checked (the disclaimer), which language was produced, the numbered
 * references, and the drift against the previous comparable snapshot.
 */
import type { Citation, SnapshotItem } from '../../../engine/envelope.types';
import { formatPeriod, isIsoDate, shownPrecision } from '../../../engine/analysis/dates';
import { isFirmMilestone } from '../../../engine/analysis/selection';
import { formatDate } from './render-dates';
import type { RenderDrift, RenderInput, RenderSnapshot } from './types';

/* Dates ------------------------------------------------------------------------------------------------------- */

/**
 * The period a key date stands for: "10 Jul 2027", "Jul 2027", "Q3 2027", "H2 2027" or "2027"; an estimate is
 * never printed as a day (its month instead).
 */
export function keyDatePeriod(item: Pick<SnapshotItem, 'key_date' | 'key_date_precision'> & { date_confidence?: string }): string | null {
  const iso = (item.key_date ?? '').slice(0, 10);
  return isIsoDate(iso) ? formatPeriod(iso, shownPrecision(item.date_confidence, item.key_date_precision), 'short') : null;
}

/**
 * The key date as an artefact prints it: the period, prefixed "expected" or "estimated" unless confirmed
 * ("expected H2 2026", "estimated Q1 2027", "10 Jul 2027"); "date not set" when there is none.
 */
export function keyDateLabel(item: Pick<SnapshotItem, 'key_date' | 'key_date_precision' | 'date_confidence'>): string {
  const period = keyDatePeriod(item);
  if (!period) return 'date not set';
  if (item.date_confidence === 'expected') return `expected ${period}`;
  if (item.date_confidence === 'speculative') return `estimated ${period}`;
  return period;
}

/** True when the key date is a day (or month) an authority has fixed or announced, not a period or our estimate. */
export function isFirmDate(item: Pick<SnapshotItem, 'key_date' | 'key_date_precision' | 'date_confidence'>): boolean {
  const date = (item.key_date ?? '').slice(0, 10);
  return isIsoDate(date) && isFirmMilestone({ date, event: '', confidence: item.date_confidence, precision: item.key_date_precision });
}

/**
 * Every milestone of the item's timeline as artefacts print them, in date order: "expected Q1 2027 — Final rules
 * published", a slipped or unconfirmed one flagged as such ("expected Q3 2026 (slipped) — …"). Empty when the item
 * has no timeline or only the one milestone its key date already shows.
 */
export function timelineLabels(item: Pick<SnapshotItem, 'timeline'>): string[] {
  const timeline = item.timeline ?? [];
  if (timeline.length <= 1) return [];
  return timeline.map((m) => {
    const when = keyDateLabel({ key_date: m.date, key_date_precision: m.precision, date_confidence: m.confidence });
    return `${when}${m.status === 'upcoming' ? '' : ` (${m.status})`} — ${m.event}`;
  });
}

/** "10 Jul 2027 — Application of the single rulebook", or the date label alone when the item has no milestone. */
export function dateWithMilestone(item: SnapshotItem): string {
  const milestone = (item.milestone ?? '').trim();
  return milestone ? `${keyDateLabel(item)} — ${milestone}` : keyDateLabel(item);
}

/* Selection --------------------------------------------------------------------------------------------------- */

function meta(snapshot: RenderSnapshot): Record<string, unknown> {
  return (snapshot.data?._meta as Record<string, unknown> | undefined) ?? {};
}

export interface SelectionFacts {
  kept: number;
  matched: number;
  capped: boolean;
}

/** Kept and matched counts from `_meta` (matched never below kept). */
export function selectionFacts(snapshot: RenderSnapshot): SelectionFacts {
  const kept = snapshot.data?.items?.length ?? 0;
  const matchedRaw = meta(snapshot).matched_count;
  const matched = typeof matchedRaw === 'number' && Number.isFinite(matchedRaw) ? Math.max(matchedRaw, kept) : kept;
  return { kept, matched, capped: matched > kept };
}

/** How artefacts state the engine's ranking (`_meta.selection.order`) in a few words. */
export const RANKING_RULE = 'ranked by relevance to the areas asked for, then impact, then firm dates first';

/** The briefing's line over its priorities: "Showing 8 of 177 matching instruments, ranked …" or "All 6 matching instruments." */
export function prioritiesLine(shown: number, matched: number): string {
  if (shown >= matched) return `All ${matched} matching instrument${matched === 1 ? '' : 's'}.`;
  return `Showing ${shown} of ${matched} matching instruments, ${RANKING_RULE}; full list in the PDF report.`;
}

/** "Top 40 of 93 matching instruments, ranked …" or "All 31 matching instruments." */
export function selectionLine(snapshot: RenderSnapshot): string {
  const { kept, matched, capped } = selectionFacts(snapshot);
  if (capped) return `Top ${kept} of ${matched} matching instruments, ${RANKING_RULE}.`;
  return `All ${kept} matching instrument${kept === 1 ? '' : 's'}.`;
}

/* Provenance --------------------------------------------------------------------------------------------------- */

/**
 * One line on where the scan came from and what was checked, for every artefact: offline scans are drawn from
 * the curated calendar and not checked against live sources; other scans say how many items were verified.
 */
export function disclaimerLine(snapshot: RenderSnapshot): string {
  const m = meta(snapshot);
  const items = snapshot.data?.items ?? [];
  const verified = items.filter((item) => item.verification?.status === 'verified').length;
  if (m.engine_mode === 'offline' || snapshot.config?.engine === 'offline') {
    const version = typeof m.calendar_version === 'string' ? ` (version ${m.calendar_version})` : '';
    return `Offline scan of the curated regulatory calendar${version}: not checked against live sources. Confirm dates with the cited sources before relying on them.`;
  }
  if (verified === items.length && items.length > 0) return `AI-assisted scan; all ${items.length} items verified against their sources.`;
  return `AI-assisted scan; ${verified} of ${items.length} items verified against their sources. Confirm the others before relying on them.`;
}

/* Language ---------------------------------------------------------------------------------------------------- */

const LANGUAGE_NAMES: Readonly<Record<string, string>> = {
  en: 'English',
  fr: 'French',
  de: 'German',
  es: 'Spanish',
  it: 'Italian',
  zh: 'Chinese',
  ja: 'Japanese',
  simple: 'Simplified English',
};

export function languageName(code: string): string {
  return LANGUAGE_NAMES[code] ?? code;
}

/** The BCP 47 tag of what was produced (`simple` is English). */
export function languageTag(locale: string): string {
  if (locale === 'zh') return 'zh-CN';
  if (locale === 'simple') return 'en';
  return locale || 'en';
}

/**
 * Set when the artefact is not in the language asked for: "Requested in Chinese; this snapshot has no Chinese
 * translation, so this artefact is in English." Null when it is (or when no language was asked for).
 */
export function languageNotice(input: Pick<RenderInput, 'options' | 'locale'>): string | null {
  const requested = input.options?.targetLanguage;
  if (!requested || requested === input.locale) return null;
  return `Requested in ${languageName(requested)}; this snapshot has no ${languageName(requested)} translation, so this artefact is in ${languageName(input.locale)}.`;
}

/* References -------------------------------------------------------------------------------------------------- */

export interface Reference {
  /** 1-based, in order of first citation. */
  number: number;
  citation: Citation;
}

export interface References {
  list: Reference[];
  /** Reference number of a citation id. */
  numberOf(citationId: number): number | undefined;
  /** The item's reference numbers, ascending, without repeats. */
  itemNumbers(item: SnapshotItem): number[];
}

function sourceKey(citation: Citation): string {
  const url = (citation.url ?? '').trim();
  try {
    const parsed = new URL(url);
    parsed.hash = '';
    return `${parsed.host.toLowerCase().replace(/^www\./, '')}${parsed.pathname.replace(/\/+$/, '')}${parsed.search}`;
  } catch {
    return `${url}|${citation.title}`.toLowerCase();
  }
}

/**
 * The snapshot's sources, one reference per distinct document (the same URL cited by several items, or under
 * several citation ids, is one reference), numbered in the order the items cite them.
 */
export function buildReferences(items: readonly SnapshotItem[]): References {
  const byKey = new Map<string, Reference>();
  const byCitationId = new Map<number, number>();
  const list: Reference[] = [];
  for (const item of items) {
    for (const citation of item.citations ?? []) {
      const key = sourceKey(citation);
      let reference = byKey.get(key);
      if (!reference) {
        reference = { number: list.length + 1, citation };
        byKey.set(key, reference);
        list.push(reference);
      }
      if (!byCitationId.has(citation.id)) byCitationId.set(citation.id, reference.number);
    }
  }
  const numberOfKey = (citation: Citation): number | undefined => byKey.get(sourceKey(citation))?.number;
  return {
    list,
    numberOf: (citationId) => byCitationId.get(citationId),
    itemNumbers: (item) =>
      [...new Set((item.citations ?? []).map(numberOfKey).filter((n): n is number => n !== undefined))].sort((a, b) => a - b),
  };
}

/**
 * Who published a cited document, as every artefact prints it: a law-firm or industry briefing is labelled
 * "(secondary source)", so that no reader takes it for the regulator's own text.
 */
export function sourceLabel(citation: Pick<Citation, 'publisher' | 'title' | 'kind'>): string {
  const name = citation.publisher || citation.title;
  return citation.kind === 'secondary' && name ? `${name} (secondary source)` : name;
}

/** "EUR-Lex, 27 Dec 2022": the publisher (labelled when secondary) and the publication date. */
export function sourceMeta(citation: Citation, undated = ''): string {
  return [sourceLabel(citation), citation.published_at ? formatDate(citation.published_at) : undated].filter((part) => part).join(', ');
}

/** "Source: EUR-Lex, 27 Dec 2022" — the short reference for artefacts with no room for a reference list. */
export function shortSource(item: SnapshotItem): string | null {
  const citation = item.citations?.[0];
  if (!citation) return null;
  return `Source: ${sourceMeta(citation)}`;
}

/* Drift ------------------------------------------------------------------------------------------------------- */

const REMOVAL_LABELS: Readonly<Record<string, string>> = {
  dropped_by_cap: 'still in scope, kept out by the item cap',
  outside_scope: 'outside this scan’s scope or window',
  left_calendar: 'no longer in the calendar',
  not_found_again: 'not found again by this run',
};

export function removalLabel(reason: string | undefined): string {
  return (reason && REMOVAL_LABELS[reason]) || 'removed';
}

/** "Since the scan of 3 Nov 2026: 2 new, 1 removed, 3 changed, 30 unchanged." */
export function driftLine(drift: RenderDrift): string {
  const { added, removed, changed, unchanged } = drift.summary;
  return `Since the scan of ${formatDate(drift.baseline_created_at)}: ${added} new, ${removed} removed, ${changed} changed, ${unchanged} unchanged.`;
}
