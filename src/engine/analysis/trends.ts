/**
 * Trends by rule over the selected items.
 *
 * Candidate groups, in rule order:
 *   1. theme: a calendar theme shared by at least 2 items (any number of jurisdictions);
 *   2. area: a requested area carried by items from at least 2 jurisdictions;
 *   3. regulator: one regulator (within one jurisdiction) with at least 2 items.
 * Within a rule, bigger groups come first (then more jurisdictions, then the key alphabetically). A group
 * whose items are all already covered by one chosen trend adds nothing and is skipped. Up to
 * THEME_QUOTA / AREA_QUOTA / REGULATOR_QUOTA trends are taken per rule, then any free slots up to
 * MAX_TRENDS are filled from the remaining candidates in rule order. Trends are listed in rule order.
 *
 * Momentum comes from stated evidence: where the group's instruments stand (new proposals and consultations,
 * adopted rules not yet applying, rules already applying) and every milestone of their calendar entries ahead in
 * the window against those confirmed in the equally long span before the scan (see trendMomentum). A group with
 * new or adopted rules still to land is never "fading", so no label contradicts the items under it. The trend's
 * description states the counts, so a reader can see what the label rests on.
 */
import type { CalendarEntry } from '../calendar/calendar.types';
import type { SnapshotItem, SnapshotTrend } from '../envelope.types';
import { dayNumber } from './dates';
import { isFirmMilestone } from './selection';
import { capitalise, compactList, count, joinList, periodSpan, shortName, slugify, themeLabel } from './text';

export const MAX_TRENDS = 6;
export const THEME_QUOTA = 3;
export const AREA_QUOTA = 2;
export const REGULATOR_QUOTA = 1;
/** Titles named in a trend description before "and N more". */
const NAMED_IN_DESCRIPTION = 3;

export interface TrendSource {
  item: SnapshotItem;
  entry: CalendarEntry;
}

export interface TrendWindow {
  scanDate: string;
  windowEnd: string;
  /** Requested area ids (area trends only consider these). */
  areaIds: readonly string[];
}

type Rule = 'theme' | 'area' | 'regulator';

interface Candidate {
  rule: Rule;
  key: string;
  label: string;
  members: TrendSource[];
  jurisdictions: string[];
}


function unique<T>(values: readonly T[]): T[] {
  return [...new Set(values)];
}

/** The evidence a trend's momentum rests on. */
export interface MomentumEvidence {
  /** Instruments that are new: proposed or in consultation. */
  proposed: number;
  /** Instruments adopted or in force but not yet applying. */
  adopted: number;
  /** Instruments already applying (later phases, reviews). */
  applying: number;
  /** Milestones after the scan date, inside the window (firm or not). */
  ahead: number;
  /** Of `ahead`, those only approximate or our estimate (a quarter, half-year, year, or speculative). */
  tentative: number;
  /** Milestones confirmed in the equally long period up to the scan date. */
  behind: number;
}

/** Counts the group's instruments by stage and their milestones around the scan date (see the module comment). */
export function momentumEvidence(entries: readonly CalendarEntry[], window: TrendWindow): MomentumEvidence {
  const scan = dayNumber(window.scanDate);
  const end = dayNumber(window.windowEnd);
  const start = scan - (end - scan);
  const evidence: MomentumEvidence = { proposed: 0, adopted: 0, applying: 0, ahead: 0, tentative: 0, behind: 0 };
  for (const entry of unique(entries)) {
    if (entry.stage === 'proposed' || entry.stage === 'consultation') evidence.proposed++;
    else if (entry.stage === 'applies') evidence.applying++;
    else evidence.adopted++;
    for (const milestone of entry.milestones) {
      const day = dayNumber(milestone.date);
      if (day > scan && day <= end && !milestone.slipped) {
        evidence.ahead++;
        if (!isFirmMilestone(milestone)) evidence.tentative++;
      } else if (day >= start && day <= scan && milestone.confidence === 'confirmed') evidence.behind++;
    }
  }
  return evidence;
}

/**
 * Momentum from the evidence: `rising` when at least two milestones lie ahead and more lie ahead than were
 * confirmed in the same span before the scan, or when at least half the instruments are new (proposed or in
 * consultation) with something ahead; `fading` only when every instrument already applies and fewer milestones
 * lie ahead than behind (a wave that has landed); `steady` otherwise.
 */
export function trendMomentum(evidence: MomentumEvidence): SnapshotTrend['momentum'] {
  const instruments = evidence.proposed + evidence.adopted + evidence.applying;
  if (evidence.ahead >= 2 && evidence.ahead > evidence.behind) return 'rising';
  if (evidence.ahead > 0 && evidence.proposed * 2 >= instruments && instruments > 0) return 'rising';
  if (evidence.applying === instruments && evidence.ahead < evidence.behind) return 'fading';
  return 'steady';
}

function momentumSentence(evidence: MomentumEvidence, window: TrendWindow): string {
  const span = `${Math.round((dayNumber(window.windowEnd) - dayNumber(window.scanDate)) / 30.4)} months`;
  const stages = joinList(
    (
      [
        [evidence.proposed, 'new (proposed or in consultation)'],
        [evidence.adopted, 'adopted, not yet applying'],
        [evidence.applying, 'already applying'],
      ] as const
    )
      .filter(([n]) => n > 0)
      .map(([n, label]) => `${n} ${label}`),
  );
  const tentative = evidence.tentative > 0 ? ` (${evidence.tentative} of them approximate or estimated)` : '';
  return (
    `Instruments: ${stages}. ${capitalise(count(evidence.ahead, 'milestone'))} ${evidence.ahead === 1 ? 'lies' : 'lie'} ahead in the next ` +
    `${span}${tentative}, against ${count(evidence.behind, 'confirmed milestone')} in the previous ${span}.`
  );
}

function groupBy(sources: readonly TrendSource[], keysOf: (s: TrendSource) => string[]): Map<string, TrendSource[]> {
  const groups = new Map<string, TrendSource[]>();
  for (const source of sources) {
    for (const key of unique(keysOf(source))) {
      const group = groups.get(key);
      if (group) group.push(source);
      else groups.set(key, [source]);
    }
  }
  return groups;
}

function byRank(a: Candidate, b: Candidate): number {
  return (
    b.members.length - a.members.length || b.jurisdictions.length - a.jurisdictions.length || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)
  );
}

function candidates(sources: readonly TrendSource[], window: TrendWindow): Record<Rule, Candidate[]> {
  const jurisdictionsOf = (members: TrendSource[]) => unique(members.map((m) => m.item.jurisdiction));

  const theme: Candidate[] = [];
  for (const [key, members] of groupBy(sources, (s) => s.entry.themes.map((t) => t.trim().toLowerCase()).filter(Boolean))) {
    if (members.length >= 2) theme.push({ rule: 'theme', key, label: key, members, jurisdictions: jurisdictionsOf(members) });
  }

  const requested = new Set(window.areaIds);
  const area: Candidate[] = [];
  for (const [key, members] of groupBy(sources, (s) => s.entry.areas.filter((a) => requested.has(a)))) {
    const jurisdictions = jurisdictionsOf(members);
    if (jurisdictions.length >= 2) area.push({ rule: 'area', key, label: key, members, jurisdictions });
  }

  const regulator: Candidate[] = [];
  for (const [key, members] of groupBy(sources, (s) => [`${s.item.jurisdiction}\u0000${s.item.regulator}`])) {
    if (members.length >= 2) {
      regulator.push({ rule: 'regulator', key, label: members[0].item.regulator, members, jurisdictions: jurisdictionsOf(members) });
    }
  }

  return { theme: theme.sort(byRank), area: area.sort(byRank), regulator: regulator.sort(byRank) };
}

function trendId(candidate: Candidate): string {
  const slug = slugify(candidate.key.replace('\u0000', ' '));
  return `trend-${candidate.rule}-${slug || 'group'}`;
}

function span(members: readonly TrendSource[]): string {
  return periodSpan(members.map((m) => m.item));
}

function named(members: readonly TrendSource[]): string {
  const names = members.slice(0, NAMED_IN_DESCRIPTION).map((m) => `${shortName(m.item.title)} (${m.item.jurisdiction})`);
  const more = members.length - names.length;
  return more > 0 ? `${names.join(', ')} and ${more} more` : joinList(names);
}

function describe(candidate: Candidate): { title: string; description: string } {
  const n = candidate.members.length;
  const jurisdictions = joinList(candidate.jurisdictions);
  const scope = compactList(candidate.jurisdictions, 'jurisdiction');
  const when = span(candidate.members);
  if (candidate.rule === 'theme') {
    return {
      title: `${capitalise(themeLabel(candidate.label))} in ${scope}`,
      description: `${count(n, 'instrument')} in ${jurisdictions} share the ${themeLabel(candidate.label)} theme, with key dates ${when}: ${named(candidate.members)}.`,
    };
  }
  if (candidate.rule === 'area') {
    return {
      title: `${candidate.label} across ${scope}`,
      description: `${candidate.label} has ${count(n, 'instrument')} falling due across ${count(candidate.jurisdictions.length, 'jurisdiction')} (${jurisdictions}) ${when}: ${named(candidate.members)}.`,
    };
  }
  return {
    title: `${candidate.label} agenda (${scope})`,
    description: `${candidate.label} (${jurisdictions}) drives ${count(n, 'instrument')} with key dates ${when}: ${named(candidate.members)}.`,
  };
}

function toTrend(candidate: Candidate, window: TrendWindow): SnapshotTrend {
  const { title, description } = describe(candidate);
  const evidence = momentumEvidence(
    candidate.members.map((m) => m.entry),
    window,
  );
  const areas = candidate.rule === 'area' ? [candidate.key] : unique(candidate.members.map((m) => m.item.area));
  return {
    id: trendId(candidate),
    title,
    description: `${description} ${momentumSentence(evidence, window)}`,
    item_ids: candidate.members.map((m) => m.item.id),
    jurisdictions: candidate.jurisdictions,
    areas,
    momentum: trendMomentum(evidence),
  };
}

/**
 * Trends for the selected items, in item (rank) order. `sources` pairs each item with its calendar entry.
 * Deterministic: the same items always give the same trends in the same order.
 */
export function buildTrends(sources: readonly TrendSource[], window: TrendWindow, maxTrends = MAX_TRENDS): SnapshotTrend[] {
  if (sources.length < 2 || maxTrends <= 0) return [];
  const all = candidates(sources, window);
  const rules: Rule[] = ['theme', 'area', 'regulator'];
  const quota: Record<Rule, number> = { theme: THEME_QUOTA, area: AREA_QUOTA, regulator: REGULATOR_QUOTA };
  const chosen: Candidate[] = [];
  const chosenSets: Set<string>[] = [];
  const taken = new Set<Candidate>();

  const covered = (candidate: Candidate) => chosenSets.some((set) => candidate.members.every((m) => set.has(m.item.id)));
  const take = (candidate: Candidate) => {
    taken.add(candidate);
    if (covered(candidate)) return false;
    chosen.push(candidate);
    chosenSets.push(new Set(candidate.members.map((m) => m.item.id)));
    return true;
  };

  for (const rule of rules) {
    let used = 0;
    for (const candidate of all[rule]) {
      if (used >= quota[rule] || chosen.length >= maxTrends) break;
      if (take(candidate)) used++;
    }
  }
  for (const rule of rules) {
    for (const candidate of all[rule]) {
      if (chosen.length >= maxTrends) break;
      if (!taken.has(candidate)) take(candidate);
    }
  }

  const ruleOrder = (c: Candidate) => rules.indexOf(c.rule);
  const ordered = [...chosen].sort((a, b) => ruleOrder(a) - ruleOrder(b) || byRank(a, b));
  const ids = new Set<string>();
  return ordered.map((c) => {
    const trend = toTrend(c, window);
    let id = trend.id;
    for (let n = 2; ids.has(id); n++) id = `${trend.id}-${n}`;
    ids.add(id);
    return { ...trend, id };
  });
}
