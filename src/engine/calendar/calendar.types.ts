/**
 * Types for the curated regulatory calendar (data/calendar/*.json).
 * The JSON Schema in data/calendar.schema.json is the normative description;
 * these types mirror it. docs/calendar.md explains the rules behind each field.
 */

export const INSTRUMENT_TYPES = [
  'regulation',
  'directive',
  'law',
  'rule',
  'guidance',
  'consultation',
  'standard',
  'framework',
] as const;
export type InstrumentType = (typeof INSTRUMENT_TYPES)[number];

/** Stage of the instrument as of the entry's `reviewed_on`. */
export const STAGES = ['proposed', 'consultation', 'adopted', 'in_force', 'applies'] as const;
export type Stage = (typeof STAGES)[number];

export const IMPACTS = ['high', 'medium', 'low'] as const;
export type Impact = (typeof IMPACTS)[number];

/** confirmed: fixed in law or announced as final (for a past date: it happened); expected: announced or planned
 *  by the authority; speculative: our own extrapolation. */
export const CONFIDENCES = ['confirmed', 'expected', 'speculative'] as const;
export type DateConfidence = (typeof CONFIDENCES)[number];

/**
 * How exact a milestone's date is. `day` means the date itself; the others mean the date only stands for a
 * period ("H2 2026" is stored as 2026-12-31 with precision `half`), so artefacts print the period, never the day.
 */
export const DATE_PRECISIONS = ['day', 'month', 'quarter', 'half', 'year'] as const;
export type DatePrecision = (typeof DATE_PRECISIONS)[number];

/** `official`: the regulator, legislature or official journal; `secondary`: a law-firm or industry briefing. */
export const SOURCE_KINDS = ['official', 'secondary'] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];

/** A date a milestone carried before it moved, with the document that stated it. */
export interface MilestoneHistory {
  date: string;
  precision: DatePrecision;
  /** url of the entry source that stated this earlier date. */
  source: string;
}

export interface Milestone {
  /** ISO calendar date, YYYY-MM-DD (for a period: its last day). */
  date: string;
  /** Required in data files; absent (in hand-built test calendars) means `day`. */
  precision?: DatePrecision;
  /** What happens that day. */
  event: string;
  confidence: DateConfidence;
  /**
   * url of the entry source that states this date (one of the entry's `sources`). Required in data files; in
   * hand-built test calendars an absent source means the entry's first source.
   */
  source?: string;
  /** The date has passed and the event has not happened, with no new date announced. */
  slipped?: boolean;
  /** Earlier dates of this milestone, oldest first; `source` then cites the amending or postponing document. */
  history?: MilestoneHistory[];
}

export interface CalendarSource {
  /** https address of the document itself or of its own page (never a landing page). */
  url: string;
  title: string;
  /** The body that published the document; listed in the file's `publishers` with the hosts it publishes on. */
  publisher: string;
  /**
   * ISO date (YYYY-MM-DD) the document was published. The schema requires it in data/calendar; it stays optional in
   * the type so that calendars built by hand in tests need not invent one.
   */
  published_at?: string;
  /** Absent (in hand-built test calendars) means `official`. */
  kind?: SourceKind;
  /** Language of the document when it is not English (BCP 47, e.g. `pt`, `zh`). */
  language?: string;
}

export interface CalendarEntry {
  /** Stable kebab-case id prefixed by the jurisdiction file code (e.g. `eu-dora`). Never reused. */
  id: string;
  title: string;
  /** Jurisdiction id from src/domain/vocabulary/jurisdictions.ts. */
  jurisdiction: string;
  /** One of the jurisdiction's regulators in the vocabulary. */
  regulator: string;
  /** 1 to 3 area ids from src/domain/vocabulary/areas.ts. */
  areas: string[];
  instrument_type: InstrumentType;
  stage: Stage;
  impact: Impact;
  /** Every known milestone, sorted ascending by date. */
  milestones: Milestone[];
  /** 1-3 sentences, professional register, our own words. */
  summary: string;
  /** 1-2 sentences: what firms must do. */
  implications: string;
  /** 1-2 short sentences in plain English (used for the "simple" register). */
  plain_summary: string;
  /** 1-4 lowercase tags used to group trends. */
  themes: string[];
  /** The documents the entry and its milestones cite; at least one official unless docs/calendar.md says why not. */
  sources: CalendarSource[];
  /** ISO date the entry was last checked against its sources. */
  reviewed_on: string;
}

/** A body cited by a file's sources: what kind of source it is and where it publishes. */
export interface CalendarPublisher {
  kind: SourceKind;
  /** Hosts (subdomains match) or, on a shared portal, host/path-prefix such as `gov.uk/government`. */
  hosts: string[];
}

/** An area in which a jurisdiction has no live regime worth two forward-dated instruments, and why. */
export interface CoverageGap {
  area: string;
  reason: string;
}

/** One data/calendar/<code>.json file. */
export interface CalendarFile {
  jurisdiction: string;
  /** ISO date the file is current to: every milestone before it is confirmed, slipped or within the grace period. */
  as_of: string;
  publishers: Record<string, CalendarPublisher>;
  coverage_gaps?: CoverageGap[];
  entries: CalendarEntry[];
}

/** The whole calendar, as loaded from every file. */
export interface Calendar {
  /** Newest `as_of` across files (reported as `_meta.calendar_version`). */
  version: string;
  /** Oldest `as_of` across files: the day up to which the whole calendar is current. */
  as_of: string;
  entries: CalendarEntry[];
}

/** A problem found while validating calendar files. */
export interface CalendarProblem {
  /** File name (basename) the problem was found in. */
  file: string;
  /** Entry id, when the problem concerns one entry. */
  entryId?: string;
  message: string;
}
