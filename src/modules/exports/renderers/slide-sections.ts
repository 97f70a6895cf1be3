/** The slide list shared by the PPTX deck and the web slides. */
import type { RenderSnapshot } from './types';
import { groupByJurisdiction, type JurisdictionSection } from './item-grouping';

/**
 * Sections of the slide exports (PPTX deck and web slides), one slide each, in this order:
 * 1. title; 2. executive summary; 3..n. one per jurisdiction with items (groupByJurisdiction order);
 * then trends; then sources. A scan with J jurisdictions holding items has J + 4 slides.
 */
export type SlideSection =
  | { kind: 'title' }
  | { kind: 'summary' }
  | { kind: 'jurisdiction'; section: JurisdictionSection }
  | { kind: 'trends' }
  | { kind: 'sources' };

export function slideSections(snapshot: RenderSnapshot): SlideSection[] {
  return [
    { kind: 'title' },
    { kind: 'summary' },
    ...groupByJurisdiction(snapshot).map((section): SlideSection => ({ kind: 'jurisdiction', section })),
    { kind: 'trends' },
    { kind: 'sources' },
  ];
}
