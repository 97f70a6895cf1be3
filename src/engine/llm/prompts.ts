/** Prompts of the LLM-backed analysis (analyst, auditor, sub-editor). Every prompt asks for a single JSON object. */
import type { SnapshotItem } from '../envelope.types';
import type { SelectedEntry } from '../analysis/selection';

/** A numbered source the models may cite as `S<number>`. */
export interface NumberedSource {
  number: number;
  url: string;
  title: string;
  publisher: string;
  publishedAt: string | null;
  snippet: string;
  /** A short excerpt of the page text, when the page was read. */
  excerpt?: string;
  /** The calendar entry it comes from, for calendar sources. */
  calendarId?: string;
  /** For calendar sources: official, or a secondary briefing (carried into the citation so artefacts label it). */
  kind?: 'official' | 'secondary';
}

export interface AnalystPromptInput {
  jurisdictions: string[];
  areas: string[];
  horizonMonths: number;
  scanDate: string;
  windowEnd: string;
  candidates: readonly SelectedEntry[];
  /** Source numbers of each candidate's calendar sources, by calendar id. */
  candidateSources: ReadonlyMap<string, number[]>;
  sources: readonly NumberedSource[];
}

export const ANALYST_SYSTEM =
  'You are a senior regulatory-change analyst for financial services firms. You write precise, sober horizon-scanning ' +
  'briefings. You only report real instruments that the provided calendar entries or numbered sources support; you never ' +
  'invent instruments, regulators, dates or sources, and you never present a date that has passed as upcoming. ' +
  'Reply with JSON only.';

const ITEM_SHAPE = `{
  "items": [{
    "ref": "<calendar id of a candidate, or S<n> for an instrument found only in the numbered sources>",
    "title": "...", "jurisdiction": "<one of the requested jurisdictions>", "area": "<one of the requested areas>",
    "regulator": "...", "instrument_type": "regulation|directive|law|rule|guidance|consultation|standard|framework",
    "stage": "proposed|consultation|adopted|in_force|applies",
    "key_date": "YYYY-MM-DD (the next key date inside the window; for a period, its last day)", "date_confidence": "confirmed|expected|speculative",
    "key_date_precision": "day|month|quarter|half|year (how exact key_date is: 'half' for 'H2 2026')", "milestone": "what happens on the key date, a short phrase",
    "impact": "high|medium|low", "summary": "1-3 sentences", "implications": "1-2 sentences: what firms must do",
    "source_numbers": [<numbers of the sources that support this item>]
  }],
  "trends": [{ "title": "...", "description": "1-2 sentences", "item_refs": ["<refs of the items in this trend>"], "momentum": "rising|steady|fading" }],
  "executive_summary": { "bottom_line": "1-2 sentences", "priorities": ["up to 5 action lines"] },
  "executive_narrative": "3-4 paragraphs of prose citing sources as [S<n>]"
}`;

function line(value: string | undefined | null): string {
  return (value ?? '').replace(/\s+/g, ' ').trim();
}

export function analystPrompt(input: AnalystPromptInput): string {
  const parts: string[] = [];
  parts.push(
    `Scan: jurisdictions ${input.jurisdictions.join(', ')}; areas ${input.areas.join(', ')}; horizon ${input.horizonMonths} months.`,
    `Scan date (today): ${input.scanDate}. Window end: ${input.windowEnd}. Report only key dates from ${input.scanDate} to ${input.windowEnd} inclusive.`,
    '',
  );
  if (input.candidates.length > 0) {
    parts.push('Calendar candidates (curated, authoritative; use their id as "ref"):');
    for (const { entry, windowDates } of input.candidates) {
      const numbers = input.candidateSources.get(entry.id) ?? [];
      parts.push(
        `- id ${entry.id}: ${line(entry.title)} | ${entry.jurisdiction} | regulator ${entry.regulator} | areas ${entry.areas.join(', ')} | ` +
          `${entry.instrument_type}, stage ${entry.stage}, impact ${entry.impact}`,
        `  key dates in window: ${windowDates.map((k) => `${k.date} (${k.confidence}${k.precision && k.precision !== 'day' ? `, ${k.precision} precision` : ''}): ${line(k.event)}`).join('; ')}`,
        `  summary: ${line(entry.summary)}`,
        `  sources: ${numbers.map((n) => `S${n}`).join(', ') || 'none'}`,
      );
    }
  } else {
    parts.push('Calendar candidates: none.');
  }
  parts.push('');
  if (input.sources.length > 0) {
    parts.push('Numbered sources:');
    for (const source of input.sources) {
      parts.push(
        `[S${source.number}] ${line(source.title)} — ${source.url}${source.publishedAt ? ` (${source.publishedAt})` : ''}` +
          `${source.snippet ? `\n  snippet: ${line(source.snippet)}` : ''}${source.excerpt ? `\n  excerpt: ${line(source.excerpt)}` : ''}`,
      );
    }
  } else {
    parts.push('Numbered sources: none.');
  }
  parts.push(
    '',
    'Task: identify the regulatory instruments with a key date inside the window for the requested jurisdictions and areas. ' +
      'Include every relevant calendar candidate; add instruments found only in the numbered sources when a source clearly supports ' +
      'them. Every item must list the numbers of its supporting sources. Then group items into cross-cutting trends and write the ' +
      'executive summary and narrative.',
    `Return a single JSON object of this shape:\n${ITEM_SHAPE}`,
  );
  return parts.join('\n');
}

export const JSON_REMINDER =
  'Your previous reply was not a usable JSON object. Return only the JSON object described above: no prose, no code fences, ' +
  'starting with "{" and ending with "}".';

export const AUDITOR_SYSTEM =
  'You are a meticulous regulatory fact-checker. You check each item strictly against the sources given; you do not rely on ' +
  'memory to confirm a claim the sources do not support. Reply with JSON only.';

export function auditorPrompt(items: readonly SnapshotItem[], sources: readonly NumberedSource[], scanDate: string): string {
  const byUrl = new Map(sources.map((s) => [s.url, s]));
  const parts: string[] = [`Scan date: ${scanDate}.`, '', 'Items to check:'];
  for (const item of items) {
    parts.push(
      `- id ${item.id}: ${line(item.title)} | ${item.jurisdiction} | ${item.regulator} | stage ${item.stage} | key date ${item.key_date} ` +
        `(${item.date_confidence})`,
      `  summary: ${line(item.summary)}`,
    );
    for (const citation of item.citations) {
      const source = byUrl.get(citation.url);
      parts.push(
        `  source: ${line(citation.title)} — ${citation.url}${source?.snippet ? `\n    snippet: ${line(source.snippet)}` : ''}` +
          `${source?.excerpt ? `\n    excerpt: ${line(source.excerpt)}` : ''}`,
      );
    }
  }
  parts.push(
    '',
    'For each item decide: "verified" when its sources support the instrument, the key date and the stage; "unverified" when the ' +
      'sources neither support nor contradict it; "disputed" when a source contradicts it or the date has passed.',
    'Return JSON: {"items": [{"id": "<item id>", "status": "verified|unverified|disputed", "note": "one sentence"}]}',
  );
  return parts.join('\n');
}

export const REALIST_SYSTEM =
  "You are a pragmatic regulatory realist. You judge whether each item's key date and stage are current and plausible, strictly " +
  'from the text of the pages it cites: announced by the authority, not superseded, withdrawn or already past, and consistent ' +
  'with the stage. You do not rely on memory to confirm what the pages do not say. Reply with JSON only.';

/** A cited page as the final QA stage read it: its text, or why there is none. */
export interface PageEvidence {
  url: string;
  title?: string | null;
  text?: string;
  detail: string;
}

/**
 * The final QA prompt of the realist or auditor pass: each item with the text of the cited pages that were read
 * (pages that could not be read are named with the reason).
 */
export function pageVerificationPrompt(
  pass: 'realist' | 'auditor',
  items: readonly SnapshotItem[],
  pageOf: (url: string) => PageEvidence | undefined,
  scanDate: string,
): string {
  const parts: string[] = [`Scan date: ${scanDate}.`, '', 'Items to check, each with the text of the pages it cites:'];
  for (const item of items) {
    parts.push(
      `- id ${item.id}: ${line(item.title)} | ${item.jurisdiction} | ${item.regulator} | stage ${item.stage} | key date ${item.key_date} ` +
        `(${item.date_confidence}) | milestone ${line(item.milestone)}`,
      `  summary: ${line(item.summary)}`,
    );
    for (const citation of item.citations) {
      const page = pageOf(citation.url);
      parts.push(
        page?.text
          ? `  page ${citation.url}${page.title ? ` (${line(page.title)})` : ''}:\n    ${line(page.text)}`
          : `  page ${citation.url}: not read (${line(page?.detail ?? 'not requested')})`,
      );
    }
  }
  const task =
    pass === 'realist'
      ? 'For each item decide from the page text: "verified" when the pages show the key date and the stage are current and plausible; ' +
        '"unverified" when the pages neither confirm nor contradict them; "disputed" when a page contradicts the date or the stage, or ' +
        'shows the instrument withdrawn, superseded or already past.'
      : 'For each item decide from the page text: "verified" when the pages support the instrument, its regulator, the key date and ' +
        'the stage; "unverified" when the pages neither support nor contradict it; "disputed" when a page contradicts it.';
  parts.push(
    '',
    task,
    'Return JSON: {"items": [{"id": "<item id>", "status": "verified|unverified|disputed", "note": "one sentence naming what the page says"}]}',
  );
  return parts.join('\n');
}

export const WRITER_SYSTEM =
  'You are the sub-editor of a regulatory horizon briefing. You write tight, accurate newsroom copy from the analysis you are ' +
  'given and add no facts of your own. Reply with JSON only.';

export function writerPrompt(input: {
  jurisdictions: string[];
  areas: string[];
  horizonMonths: number;
  scanDate: string;
  windowEnd: string;
  items: readonly SnapshotItem[];
  bottomLine: string;
}): string {
  const parts: string[] = [
    `Briefing for ${input.jurisdictions.join(', ')} / ${input.areas.join(', ')}, ${input.horizonMonths} months from ${input.scanDate} to ${input.windowEnd}.`,
    `Bottom line from the analyst: ${line(input.bottomLine)}`,
    '',
    'Items (ranked):',
  ];
  for (const item of input.items.slice(0, 15)) {
    parts.push(
      `- [${item.jurisdiction}] ${line(item.title)} — ${item.key_date} (${item.date_confidence}), impact ${item.impact}, stage ${item.stage}: ${line(item.summary)}`,
    );
  }
  parts.push(
    '',
    'Return JSON: {"briefing_headline": "<= 110 chars", "briefing_standfirst": "1-2 sentences", ' +
      '"priorities": ["up to 5 short labels, each starting with a jurisdiction tag such as [EU]"], "bottom_line_tight": "one short sentence", ' +
      '"pull_quote": "one sentence", "sentiment_label": "intensifying|steady|easing|quiet", "sentiment_rationale": "one sentence"}',
  );
  return parts.join('\n');
}
