/**
 * The snapshot envelope (`data` of a snapshot) as ../shared/spec/decisions.md section 2 describes it. The envelope is open:
 * readers pass unknown keys through unchanged.
 */
export type ItemStage = 'proposed' | 'consultation' | 'adopted' | 'in_force' | 'applies';
export type DateConfidence = 'confirmed' | 'expected' | 'speculative';
export type Impact = 'high' | 'medium' | 'low';
export type DatePrecision = 'day' | 'month' | 'quarter' | 'half' | 'year';

export interface Citation {
  /** Numeric id, unique within the snapshot; prose refers to it as [[cite:N]]. */
  id: number;
  url: string;
  title: string;
  publisher: string;
  published_at: string | null;
  /** `official`: the regulator, legislature or official journal; `secondary`: a law-firm or industry briefing. Absent on
   *  citations that predate it and on web sources an LLM found. */
  kind?: 'official' | 'secondary';
  /** Language of the document when it is not English (BCP 47). */
  language?: string;
}

/**
 * One milestone of an item's instrument: every one inside the horizon, and those dated before the scan that did not
 * happen as planned, so a slipped date is shown as slipped, never as upcoming.
 */
export interface ItemMilestone {
  date: string;
  precision: DatePrecision;
  event: string;
  confidence: DateConfidence;
  /** `upcoming`: inside the horizon; `slipped`: passed without the event and no new date announced; `unconfirmed`:
   *  passed, and the calendar records no outcome yet. */
  status: 'upcoming' | 'slipped' | 'unconfirmed';
  /** Citation id (in the item's `citations`) of the document that states this date. */
  citation_id: number | null;
  /** Earlier dates this milestone carried before it moved, oldest first. */
  previous_dates?: { date: string; precision: DatePrecision }[];
}

export interface VerificationPass {
  pass: 'realist' | 'auditor';
  status: 'verified' | 'unverified' | 'disputed';
  note: string;
  /** What the pass checked the item against; absent on snapshots that predate it. */
  checked?: VerificationEvidence;
}

/** The evidence behind a verification pass: the calendar offline, the cited pages read in the final QA stage online. */
export interface VerificationEvidence {
  /** `calendar`: the calendar's own entry and sources (offline, no page read); `cited_pages`: the item's cited pages, read
   *  through `provider`; `source_snippets`: the search snippets and read-phase excerpts the analysis already had. */
  basis: 'calendar' | 'cited_pages' | 'source_snippets';
  description: string;
  /** The verifyProvider that read the pages (cited_pages only). */
  provider?: 'fetch-a' | 'fetch-b';
  /** Each cited page and what became of its read; empty when no page was read. */
  pages: VerifiedPage[];
}

export interface VerifiedPage {
  url: string;
  /** `read`: text obtained; `unreachable`: the read failed or gave no text; `not_read`: over the per-scan page limit. */
  outcome: 'read' | 'unreachable' | 'not_read';
  detail: string;
}

export interface SnapshotItem {
  /** Stable across snapshots for the same real-world instrument (the calendar entry id offline). */
  id: string;
  title: string;
  jurisdiction: string;
  /** The requested area most central to the instrument (the one it is filed under). */
  area: string;
  /** Every area the instrument carries, its main area first (offline engine); `area` is one of them. */
  areas?: string[];
  regulator: string;
  instrument_type: string;
  stage: ItemStage;
  /** ISO date of the item's next key date inside the horizon (for a period: its last day). */
  key_date: string;
  date_confidence: DateConfidence;
  /** How exact `key_date` is; absent means `day`. A `half` date of 2026-12-31 means "H2 2026". */
  key_date_precision?: DatePrecision;
  /** What happens on the key date ("Application of the single rulebook"). */
  milestone?: string;
  /** The instrument's milestones inside the horizon and its slipped or unconfirmed ones, ascending (offline engine). */
  timeline?: ItemMilestone[];
  impact: Impact;
  summary: string;
  implications: string;
  citations: Citation[];
  verification: { status: 'verified' | 'unverified' | 'disputed'; passes: VerificationPass[] };
}

export interface SnapshotTrend {
  id: string;
  title: string;
  description: string;
  item_ids: string[];
  jurisdictions: string[];
  areas: string[];
  momentum: 'rising' | 'steady' | 'fading';
}

export interface ExecutiveSummary {
  bottom_line: string;
  priorities: string[];
}

export interface BriefingBlock {
  briefing_headline: string;
  briefing_standfirst: string;
  /** Short labels with jurisdiction tags, e.g. "[EU] AMLR applies". */
  priorities: string[];
  bottom_line_tight: string;
  pull_quote: string;
  sentiment_label: string;
  sentiment_rationale: string;
}

export interface AuditorSidecar {
  ran: boolean;
  passes: string[];
  verified_count: number;
  flagged_item_ids: string[];
}

export interface SnapshotEnvelope {
  items: SnapshotItem[];
  trends: SnapshotTrend[];
  executive_summary: ExecutiveSummary;
  /** Prose with [[cite:N]] markers. */
  executive_narrative: string;
  _briefing?: BriefingBlock;
  auditor: AuditorSidecar;
  /** language -> translated projection of the envelope's prose (complete translations only). */
  translations: Record<string, unknown>;
  _meta: Record<string, unknown>;
  [key: string]: unknown;
}

/**
 * `translations[<language>]`: the envelope's prose in another language, produced through the translation port.
 * Only a `complete` translation is projected over the envelope by `?language=`.
 */
export interface EnvelopeTranslation {
  language: string;
  complete: boolean;
  /** Provider key that produced it (e.g. `deepl`). */
  provider: string;
  items: Array<{ id: string; title: string; summary: string; implications: string }>;
  trends: Array<{ id: string; title: string; description: string }>;
  executive_summary?: ExecutiveSummary;
  executive_narrative?: string;
  _briefing?: BriefingBlock;
}
