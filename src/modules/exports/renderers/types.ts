import type { BeyondCapItem } from '../../../engine/analysis/compose';
import type { SnapshotEnvelope } from '../../../engine/envelope.types';

export type { BeyondCapItem };

/** The scan configuration as stored with the snapshot. */
export interface RenderSnapshotConfig {
  jurisdictions: string[];
  areas: string[];
  /** Months. */
  horizon: number;
  engine: string;
}

/** What a renderer needs of a snapshot. `data` is already projected into the export's language. */
export interface RenderSnapshot {
  id: string;
  title: string;
  /** ISO timestamp. */
  created_at: string;
  config: RenderSnapshotConfig;
  /**
   * The envelope. Prose normally has its [[cite:N]] markers stripped already; renderers strip any that are
   * left, except the full PDF report, which turns them into numbered references ("[N]").
   */
  data: SnapshotEnvelope;
}

/** An item as drift lists it (the item as the snapshot it comes from stored it). */
export interface RenderDriftItem {
  id: string;
  title?: string;
  [key: string]: unknown;
}

/** The drift against the previous comparable snapshot (GET /v1/snapshots/{id}/drift when available). */
export interface RenderDrift {
  baseline_snapshot_id: string;
  /** ISO timestamp of the baseline snapshot. */
  baseline_created_at: string;
  summary: { added: number; removed: number; changed: number; unchanged: number };
  added: RenderDriftItem[];
  removed: RenderDriftItem[];
  changed: Array<{ item_id: string; title: unknown; fields: Array<{ field: string; before: unknown; after: unknown }> }>;
  /** item id -> dropped_by_cap | outside_scope | left_calendar | not_found_again */
  removed_reasons: Record<string, string>;
}

export interface RenderInput {
  snapshot: RenderSnapshot;
  /** Drift against the previous comparable snapshot; absent on a first run (and in previews). */
  drift?: RenderDrift;
  /** With option `list: all_matched`: the matching instruments the item cap left out, in rank order. */
  beyondCap?: BeyondCapItem[];
  /** Validated options with defaults filled (see export-types.registry.ts for each type's options). */
  options: Record<string, string>;
  /** 'en' | 'fr' | 'de' | 'es' | 'it' | 'zh' | 'ja' | 'simple'. Picks fonts; UI labels stay English. */
  locale: string;
}

export interface RenderedArtefact {
  bytes: Buffer;
  mime: string;
  /** Safe ASCII, e.g. regulatory-horizon-eu-uk-2026-11-22.pdf */
  filename: string;
}

export type Renderer = (input: RenderInput) => Promise<RenderedArtefact>;
