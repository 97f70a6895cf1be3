/**
 * Coverage of the calendar: how many forward-dated instruments each jurisdiction has in each area, how far ahead the
 * milestones reach, and the thresholds a compliance team needs before the offline engine is worth scanning.
 */
import { AREAS } from '../../src/domain/vocabulary/areas';
import type { CalendarEntry, CalendarFile, CalendarProblem } from '../../src/engine/calendar/calendar.types';

export const COVERAGE_THRESHOLDS = {
  minEntries: 600,
  minEntriesPerJurisdiction: 25,
  /** An area counts as covered in a jurisdiction with this many forward-dated instruments... */
  minForwardPerArea: 2,
  /** ...and each jurisdiction covers at least this many areas; every area short of it is a recorded coverage gap. */
  minCoveredAreasPerJurisdiction: 8,
  minSanctionsEntries: 25,
  /** Share of forward milestones dated in FAR_YEAR or later. */
  minFarShare: 0.25,
} as const;


export const FAR_YEAR = 2028;
export const AREA_IDS: readonly string[] = AREAS.map((a) => a.id);

/** Milestones after `asOf` that have not slipped. */
export function forwardMilestones(entry: CalendarEntry, asOf: string) {
  return entry.milestones.filter((m) => m.date > asOf && !m.slipped);
}

export interface JurisdictionCoverage {
  file: string;
  jurisdiction: string;
  asOf: string;
  entries: number;
  /** Entries with a milestone after `as_of`: the ones a scan can show. */
  forwardEntries: number;
  /** area id -> forward-dated instruments carrying that area */
  forwardByArea: Record<string, number>;
  coveredAreas: number;
  gaps: { area: string; reason: string; count: number }[];
}

export interface CoverageSummary {
  jurisdictions: JurisdictionCoverage[];
  entries: number;
  sanctionsEntries: number;
  forwardMilestones: number;
  farMilestones: number;
  /** forward milestones by year */
  byYear: Record<string, number>;
}

export function coverageOf(files: readonly { file: string; data: CalendarFile }[]): CoverageSummary {
  const jurisdictions: JurisdictionCoverage[] = [];
  let forward = 0;
  let far = 0;
  const byYear: Record<string, number> = {};
  let sanctionsEntries = 0;
  for (const { file, data } of files) {
    const forwardByArea = Object.fromEntries(AREA_IDS.map((a) => [a, 0]));
    let forwardEntries = 0;
    for (const entry of data.entries) {
      if (entry.areas.includes('Sanctions')) sanctionsEntries++;
      const ahead = forwardMilestones(entry, data.as_of);
      for (const m of ahead) {
        forward++;
        const year = m.date.slice(0, 4);
        byYear[year] = (byYear[year] ?? 0) + 1;
        if (Number(year) >= FAR_YEAR) far++;
      }
      if (ahead.length === 0) continue;
      forwardEntries++;
      for (const area of entry.areas) if (area in forwardByArea) forwardByArea[area]++;
    }
    const coveredAreas = AREA_IDS.filter((a) => forwardByArea[a] >= COVERAGE_THRESHOLDS.minForwardPerArea).length;
    const gaps = (data.coverage_gaps ?? []).map((g) => ({ ...g, count: forwardByArea[g.area] ?? 0 }));
    jurisdictions.push({
      file,
      jurisdiction: data.jurisdiction,
      asOf: data.as_of,
      entries: data.entries.length,
      forwardEntries,
      forwardByArea,
      coveredAreas,
      gaps,
    });
  }
  const entries = jurisdictions.reduce((n, j) => n + j.entries, 0);
  return { jurisdictions, entries, sanctionsEntries, forwardMilestones: forward, farMilestones: far, byYear };
}

export interface CoverageResult {
  /** Data that contradicts itself: a gap recorded for an area that is covered, an unknown area. */
  problems: CalendarProblem[];
  /** Targets not yet met: the calendar is valid but not yet as deep as a compliance team needs. */
  shortfalls: CalendarProblem[];
}

/**
 * A jurisdiction's coverage: shortfalls against the targets (too few entries or covered areas, a thin area whose
 * regime is live) and problems (a recorded "no live regime" gap in an area that has instruments).
 */
export function jurisdictionCoverage(j: JurisdictionCoverage): CoverageResult {
  const t = COVERAGE_THRESHOLDS;
  const problems: CalendarProblem[] = [];
  const shortfalls: CalendarProblem[] = [];
  const short = (message: string) => shortfalls.push({ file: j.file, message });
  const push = (message: string) => problems.push({ file: j.file, message });
  if (j.entries < t.minEntriesPerJurisdiction) short(`coverage: ${j.entries} entries, at least ${t.minEntriesPerJurisdiction} needed`);
  if (j.coveredAreas < t.minCoveredAreasPerJurisdiction) {
    short(`coverage: ${j.coveredAreas} areas with ${t.minForwardPerArea}+ forward-dated instruments, at least ${t.minCoveredAreasPerJurisdiction} needed`);
  }
  const gapAreas = new Set(j.gaps.map((g) => g.area));
  for (const area of AREA_IDS) {
    const count = j.forwardByArea[area];
    if (count < t.minForwardPerArea && !gapAreas.has(area)) {
      short(`coverage: ${area} has ${count} forward-dated instrument(s); add instruments, or record a coverage gap if it has no live regime`);
    }
  }
  for (const gap of j.gaps) {
    if (!AREA_IDS.includes(gap.area)) push(`coverage gap names unknown area '${gap.area}'`);
    else if (gap.count >= t.minForwardPerArea) push(`coverage gap for ${gap.area} recorded, but it has ${gap.count} forward-dated instruments`);
  }
  return { problems, shortfalls };
}

/** Whole-calendar targets not yet met (only meaningful when every file is checked). */
export function calendarShortfalls(summary: CoverageSummary): CalendarProblem[] {
  const t = COVERAGE_THRESHOLDS;
  const problems: CalendarProblem[] = [];
  const push = (message: string) => problems.push({ file: 'calendar', message });
  if (summary.entries < t.minEntries) push(`coverage: ${summary.entries} entries, at least ${t.minEntries} needed`);
  if (summary.sanctionsEntries < t.minSanctionsEntries) {
    push(`coverage: ${summary.sanctionsEntries} Sanctions entries, at least ${t.minSanctionsEntries} needed`);
  }
  const share = summary.forwardMilestones === 0 ? 0 : summary.farMilestones / summary.forwardMilestones;
  if (share < t.minFarShare) {
    push(
      `depth: ${summary.farMilestones} of ${summary.forwardMilestones} forward milestones (${(share * 100).toFixed(1)}%) fall in ${FAR_YEAR} or later, at least ${t.minFarShare * 100}% needed`,
    );
  }
  return problems;
}

const SHORT_AREA: Readonly<Record<string, string>> = {
  'Banking / Prudential': 'Bank',
  'Capital Markets': 'Mkts',
  'Digital Assets / Crypto': 'Cryp',
  'AML / KYC': 'AML',
  Payments: 'Pay',
  'Data Privacy': 'Priv',
  'Operational Resilience': 'OpRe',
  'ESG / Sustainable Finance': 'ESG',
  Sanctions: 'Sanc',
  'Research Bundling / Unbundling': 'Rsch',
  'Consumer Protection': 'Cons',
};

/** The jurisdiction x area matrix of forward-dated instruments as fixed-width text lines (gaps marked `-`). */
export function matrixLines(summary: CoverageSummary): string[] {
  const head = ['', ...AREA_IDS.map((a) => SHORT_AREA[a] ?? a.slice(0, 4)), 'Entries', 'Fwd'];
  const rows = summary.jurisdictions.map((j) => {
    const gaps = new Set(j.gaps.map((g) => g.area));
    return [j.jurisdiction, ...AREA_IDS.map((a) => `${j.forwardByArea[a]}${gaps.has(a) ? '-' : ''}`), String(j.entries), String(j.forwardEntries)];
  });
  const widths = head.map((_, i) => Math.max(...[head, ...rows].map((r) => r[i].length)));
  const line = (r: string[]) => r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ');
  return [line(head), ...rows.map(line)];
}
