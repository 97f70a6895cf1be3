import type { SnapshotEnvelope } from '../../../engine/envelope.types';

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

export interface RenderInput {
  snapshot: RenderSnapshot;
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
