import type { BriefingBlock, ExecutiveSummary, SnapshotItem } from '../envelope.types';
import { formatLongDate, formatShortDate } from '../analysis/dates';
import { compactList, count, shortName, truncate } from '../analysis/text';

/** Priorities an executive summary or a briefing lists. */
export const MAX_PRIORITIES = 5;

/**
 * Prose built by rule from the kept items, used where a model's own prose is missing or unusable (no item, no
 * JSON, a sentence naming a dropped item).
 */
export interface Facts {
  jurisdictions: string[];
  areas: string[];
  horizonMonths: number;
  scanDate: string;
  windowEnd: string;
  items: SnapshotItem[];
}

function scope(f: Facts): string {
  return `${compactList(f.jurisdictions, 'jurisdiction', 3)} for ${compactList(f.areas, 'area', 3)}`;
}

export function ruleSummary(f: Facts): ExecutiveSummary {
  if (f.items.length === 0) {
    return {
      bottom_line: `No supported instrument for ${scope(f)} has a key date between ${formatLongDate(f.scanDate)} and ${formatLongDate(f.windowEnd)}.`,
      priorities: [],
    };
  }
  const high = f.items.filter((i) => i.impact === 'high').length;
  const top = f.items[0];
  return {
    bottom_line:
      `${count(f.items.length, 'instrument')} for ${scope(f)} ${f.items.length === 1 ? 'falls' : 'fall'} due in the ${f.horizonMonths} months to ` +
      `${formatLongDate(f.windowEnd)}; ${high} ${high === 1 ? 'is' : 'are'} high impact. Top priority: ${shortName(top.title)} (${top.jurisdiction}), ` +
      `${formatLongDate(top.key_date)}.`,
    priorities: f.items
      .slice(0, MAX_PRIORITIES)
      .map((i) => `${shortName(i.title)} (${i.jurisdiction}), ${formatLongDate(i.key_date)} (${i.date_confidence}).`),
  };
}

export function ruleNarrative(f: Facts): string {
  if (f.items.length === 0) {
    return (
      `No instrument supported by the calendar or the sources found matches ${scope(f)} with a key date between ` +
      `${formatLongDate(f.scanDate)} and ${formatLongDate(f.windowEnd)} (a ${f.horizonMonths}-month horizon). An empty result does not show ` +
      'that nothing is happening: widen the horizon or the areas.'
    );
  }
  const lines = f.items.slice(0, 5).map((i) => {
    const cite = i.citations[0] ? ` [[cite:${i.citations[0].id}]]` : '';
    return `${i.title} (${i.jurisdiction}, ${i.regulator}) falls due on ${formatLongDate(i.key_date)} (${i.date_confidence}).${cite}`;
  });
  return [ruleSummary(f).bottom_line, lines.join(' ')].join('\n\n');
}

export function ruleBriefing(f: Facts): BriefingBlock {
  const items = f.items;
  if (items.length === 0) {
    return {
      briefing_headline: `No supported milestones for ${compactList(f.jurisdictions, 'jurisdiction', 3)} in the next ${f.horizonMonths} months`,
      briefing_standfirst: `Nothing found for ${scope(f)} falls due between ${formatShortDate(f.scanDate)} and ${formatShortDate(f.windowEnd)}.`,
      priorities: [],
      bottom_line_tight: 'Nothing falls due in this window.',
      pull_quote: 'No supported instrument matches this scan.',
      sentiment_label: 'quiet',
      sentiment_rationale: 'No supported instrument falls due in the window.',
    };
  }
  const high = items.filter((i) => i.impact === 'high').length;
  const confirmed = items.filter((i) => i.date_confidence === 'confirmed').length;
  const first = items.reduce((best, i) => (i.key_date < best.key_date ? i : best), items[0]);
  const top = items[0];
  const label = high >= 3 ? 'intensifying' : high === 0 ? 'easing' : 'steady';
  return {
    briefing_headline: `${truncate(shortName(top.title), 50)} heads ${count(items.length, 'milestone')} for ${compactList(f.jurisdictions, 'jurisdiction', 3)} over ${f.horizonMonths} months`,
    briefing_standfirst:
      `${count(items.length, 'instrument')} across ${compactList(f.areas, 'area', 3)} ${items.length === 1 ? 'falls' : 'fall'} due between ` +
      `${formatShortDate(f.scanDate)} and ${formatShortDate(f.windowEnd)}: ${high} high impact, ${confirmed} with confirmed dates.`,
    priorities: items
      .slice(0, MAX_PRIORITIES)
      .map((i) => `[${i.jurisdiction}] ${truncate(shortName(i.title), 40)}, ${formatShortDate(i.key_date)}`),
    bottom_line_tight: `${items.length} due by ${formatShortDate(f.windowEnd)}, ${high} high impact; first up: ${truncate(shortName(first.title), 40)} (${first.jurisdiction}) on ${formatShortDate(first.key_date)}.`,
    pull_quote: `${shortName(top.title)} (${top.jurisdiction}) leads, ${formatLongDate(top.key_date)}.`,
    sentiment_label: label,
    sentiment_rationale: `${label.charAt(0).toUpperCase()}${label.slice(1)}: ${high} of ${count(items.length, 'instrument')} high impact, ${confirmed} with confirmed dates.`,
  };
}
