/**
 * Types for the curated regulatory calendar (data/calendar/*.json).
 * The JSON Schema in data/calendar.schema.json is the normative description;
 * these types mirror it.
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

/** Stage of the instrument as of `last_verified`. */
export const STAGES = ['proposed', 'consultation', 'adopted', 'in_force', 'applies'] as const;
export type Stage = (typeof STAGES)[number];

export const IMPACTS = ['high', 'medium', 'low'] as const;
export type Impact = (typeof IMPACTS)[number];

/** confirmed: fixed in law or announced as final; expected: announced/planned; speculative: our extrapolation. */
export const CONFIDENCES = ['confirmed', 'expected', 'speculative'] as const;
export type DateConfidence = (typeof CONFIDENCES)[number];

/**
 * How exact a key date is. `day` (the default) means the date itself; the others mean the date only stands for
 * a period ("H2 2026" is stored as 2026-12-31 with precision `half`), so artefacts print the period, never the day.
 */
export const DATE_PRECISIONS = ['day', 'month', 'quarter', 'half', 'year'] as const;
export type DatePrecision = (typeof DATE_PRECISIONS)[number];

export interface KeyDate {
  /** ISO calendar date, YYYY-MM-DD (for a period: its last day). */
  date: string;
  /** What happens that day. */
  event: string;
  confidence: DateConfidence;
  /** Absent means `day`. */
  precision?: DatePrecision;
}

export interface CalendarSource {
  /** https address of the instrument or of its official page (never a home page). */
  url: string;
  title: string;
  /** The body that published the document; must match the url's host (scripts/calendar-check.ts). */
  publisher: string;
  /**
   * ISO date (YYYY-MM-DD) the document was published. The schema requires it in data/calendar; it stays optional in
   * the type so that calendars built by hand in tests need not invent one.
   */
  published_at?: string;
}

export interface CalendarEntry {
  /** Stable kebab-case id prefixed by the jurisdiction file code (e.g. `eu-dora`). Never reused. */
  id: string;
  title: string;
  /** Jurisdiction id from src/modules/meta/vocabulary/jurisdictions.ts. */
  jurisdiction: string;
  /** One of the jurisdiction's regulators in the vocabulary. */
  regulator: string;
  /** 1 to 3 area ids from src/modules/meta/vocabulary/areas.ts. */
  areas: string[];
  instrument_type: InstrumentType;
  stage: Stage;
  impact: Impact;
  /** Sorted ascending by date. */
  key_dates: KeyDate[];
  /** 1-3 sentences, professional register, our own words. */
  summary: string;
  /** 1-2 sentences: what firms must do. */
  implications: string;
  /** 1-2 short sentences in plain English (used for the "simple" register). */
  plain_summary: string;
  /** 1-4 lowercase tags used to group trends. */
  themes: string[];
  /** Official sources: the instrument itself or its official page (official journal, legislation site, regulator). */
  sources: CalendarSource[];
  /** ISO date the entry was last checked against its sources. */
  last_verified: string;
}

/** One data/calendar/<code>.json file. */
export interface CalendarFile {
  jurisdiction: string;
  /** ISO date of the file's last refresh. */
  version: string;
  entries: CalendarEntry[];
}

/** The whole calendar, as loaded from every file. */
export interface Calendar {
  /** Newest `version` across files. */
  version: string;
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
