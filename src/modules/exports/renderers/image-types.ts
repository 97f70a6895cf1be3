/** The shapes the image layouts share: colours, boxes, the page content and what a body shows. */
import type { SnapshotItem } from '../../../engine/envelope.types';
import type { RenderSnapshot } from './types';

export interface Look {
  bg: string;
  fg: string;
  accent: string;
  muted: string;
  panel: string;
  rule: string;
  onAccent: string;
  impact: Record<string, string>;
}

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface Content {
  snapshot: RenderSnapshot;
  /** Every item, in the snapshot's rank order (impact, then firm dates, then date): a page shows a prefix. */
  items: SnapshotItem[];
  headline: string;
  standfirst: string;
  bottomLine: string;
  priorities: string[];
  pullQuote: string;
}

export type Variant = 'tearsheet' | 'infographic';

/**
 * What a body shows whole: a count of the top-ranked items, or a count picked some other way with the phrase
 * that says how ("the top-ranked of each stage").
 */
export type Shown = number | { count: number; scope: string };
