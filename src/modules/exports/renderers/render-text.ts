/** Text for the artefacts: citation markers, paragraphs, lists, and truncation to a column width. */
import type { RenderSnapshot } from './types';

const CITE = /\s*\[\[cite:(\d+)\]\]/g;

/** Prose without [[cite:N]] markers. */
export function stripCites(text: string | null | undefined): string {
  return (text ?? '').replace(CITE, '').trim();
}

/** Prose with [[cite:N]] markers turned into "[N]" (adjacent markers merge: "[1, 4]"). */
export function citesToNumbers(text: string | null | undefined): string {
  return (text ?? '')
    .replace(/(?:\s*\[\[cite:\d+\]\])+/g, (run) => ` [${[...run.matchAll(/\[\[cite:(\d+)\]\]/g)].map((m) => m[1]).join(', ')}]`)
    .trim();
}

/** Paragraphs of a prose block (blank-line separated). */
export function paragraphs(text: string): string[] {
  return text
    .split(/\n\s*\n/)
    .map((part) => part.replace(/\s*\n\s*/g, ' ').trim())
    .filter((part) => part.length > 0);
}

export function listText(values: readonly string[] | undefined): string {
  return (values ?? []).filter((value) => value.length > 0).join(', ') || '—';
}

export function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

const WIDE = /[\u1100-\u115F\u2E80-\uA4CF\uAC00-\uD7A3\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFF60\uFFE0-\uFFE6]/u;

/**
 * Truncate to `max` columns with an ellipsis, where a wide (CJK) character takes two columns, so a limit
 * that suits Latin text does not let Chinese or Japanese text run twice as wide.
 */
export function truncateToColumns(text: string, max: number): string {
  const chars = [...text];
  const widths = chars.map((char) => (WIDE.test(char) ? 2 : 1));
  if (widths.reduce((sum, width) => sum + width, 0) <= max) return text;
  let cut = 0;
  let used = 0;
  while (cut < chars.length && used + widths[cut]! <= max - 1) used += widths[cut++]!;
  return `${chars
    .slice(0, cut)
    .join('')
    .replace(/[\s,;:.\-–—]+$/, '')}…`;
}

/** Only http(s) URLs are linked; anything else is shown as text. */
export function safeHttpUrl(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.toString() : null;
  } catch {
    return null;
  }
}

/** Every user-visible string of the snapshot (for picking a font that covers them). */
export function snapshotTexts(snapshot: RenderSnapshot): string[] {
  const data = snapshot.data;
  const texts: string[] = [
    snapshot.title ?? '',
    ...(snapshot.config?.jurisdictions ?? []),
    ...(snapshot.config?.areas ?? []),
    snapshot.config?.engine ?? '',
  ];
  for (const item of data?.items ?? []) {
    texts.push(item.title, item.jurisdiction, item.area, item.regulator, item.instrument_type, item.summary, item.implications);
    for (const citation of item.citations ?? []) texts.push(citation.title, citation.publisher, citation.url);
    for (const pass of item.verification?.passes ?? []) texts.push(pass.note);
  }
  for (const trend of data?.trends ?? [])
    texts.push(trend.title, trend.description, ...(trend.jurisdictions ?? []), ...(trend.areas ?? []));
  texts.push(data?.executive_summary?.bottom_line ?? '', ...(data?.executive_summary?.priorities ?? []), data?.executive_narrative ?? '');
  const briefing = data?._briefing;
  if (briefing) {
    texts.push(
      briefing.briefing_headline,
      briefing.briefing_standfirst,
      ...(briefing.priorities ?? []),
      briefing.bottom_line_tight,
      briefing.pull_quote,
      briefing.sentiment_label,
      briefing.sentiment_rationale,
    );
  }
  return texts.filter((text): text is string => typeof text === 'string' && text.length > 0);
}
