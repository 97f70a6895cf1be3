/**
 * Test helper: plays the analyst of the LLM engine from the calendar candidates its prompt lists, in the JSON reply
 * format the engine parses (src/engine/llm/analyse.phase.ts): one item per candidate, citing that candidate's sources.
 */
export interface AnalystItemOverride {
  key_date?: string;
  impact?: string;
  omit?: boolean;
}

export interface AnalystReplyOptions {
  /** Item summary from the candidate's title (default "Analysed summary of <title>."). */
  summary?: (title: string) => string;
  impact?: string;
  implications?: string;
  /** Changes or omits the candidate at that position. */
  override?: (index: number) => AnalystItemOverride;
}

const CANDIDATE =
  /- id (\S+): (.+?) \| (.+?) \| regulator .+? \| areas ([^|]+?) \|.*\n\s+key dates in window: (\d{4}-\d{2}-\d{2}) \((\w+)(?:, \w+ precision)?\).*\n.*\n\s+sources: (.*)/g;

export function calendarAnalystReply(prompt: string, options: AnalystReplyOptions = {}): string {
  const items: object[] = [];
  let index = 0;
  for (const match of prompt.matchAll(CANDIDATE)) {
    const change = options.override?.(index++) ?? {};
    if (change.omit) continue;
    items.push({
      ref: match[1],
      title: match[2],
      jurisdiction: match[3],
      area: match[4].split(', ')[0],
      regulator: 'ignored for calendar items',
      instrument_type: 'regulation',
      stage: 'adopted',
      key_date: change.key_date ?? match[5],
      date_confidence: match[6],
      impact: change.impact ?? options.impact ?? 'high',
      summary: options.summary?.(match[2]) ?? `Analysed summary of ${match[2]}.`,
      implications: options.implications ?? 'Prepare.',
      source_numbers: [...match[7].matchAll(/S(\d+)/g)].map((m) => Number(m[1])),
    });
  }
  return JSON.stringify({
    items,
    trends: [],
    executive_summary: { bottom_line: 'Several instruments fall due [S1].', priorities: ['Prepare [S1]'] },
    executive_narrative: 'The window is busy [S1]. More follows [S2].',
  });
}
