/** The council writer's prompt: one briefing over the merged items of both seats. Asks for a single JSON object. */
import type { CouncilItem } from './council-merge';

export const COUNCIL_WRITER_SYSTEM =
  'You are the council writer of a regulatory horizon briefing: two analysts reviewed the same scope independently and ' +
  'their findings were merged. You write tight, accurate newsroom copy from the merged items only, add no facts of your ' +
  'own, and say plainly where the analysts disagreed. Reply with JSON only.';

function line(value: string | undefined | null): string {
  return (value ?? '').replace(/\s+/g, ' ').trim();
}

function agreementLabel(item: CouncilItem): string {
  const { council } = item;
  if (council.agreement === 'agreed') return 'AGREED by both analysts';
  if (council.agreement === 'single_seat') return `SINGLE-SEAT (only analyst ${council.seats[0]} reported it)`;
  const fields = council.disputes.map((d) => `${d.field}: analyst A ${d.seat_a}, analyst B ${d.seat_b}; shown ${d.composite} (${d.rule})`);
  return `DISPUTED (${fields.join('; ')})`;
}

export function councilWriterPrompt(input: {
  jurisdictions: string[];
  areas: string[];
  horizonMonths: number;
  scanDate: string;
  windowEnd: string;
  items: readonly CouncilItem[];
}): string {
  const parts: string[] = [
    `Briefing for ${input.jurisdictions.join(', ')} / ${input.areas.join(', ')}, ${input.horizonMonths} months from ${input.scanDate} to ${input.windowEnd}.`,
    '',
    'Merged items (ranked; cite their sources as [S<n>]):',
  ];
  for (const item of input.items.slice(0, 20)) {
    const sources = item.citations.map((c) => `S${c.id}`).join(', ') || 'none';
    parts.push(
      `- [${item.jurisdiction}] ${line(item.title)} — ${item.key_date} (${item.date_confidence}), impact ${item.impact}, stage ${item.stage}; ` +
        `${agreementLabel(item)}; sources ${sources}: ${line(item.summary)}`,
    );
  }
  parts.push(
    '',
    'Write the executive summary, a 2-4 paragraph narrative citing sources as [S<n>] (mention any disputed item and what is ' +
      'disputed), and the briefing block.',
    'Return JSON: {"executive_summary": {"bottom_line": "1-2 sentences", "priorities": ["up to 5 action lines"]}, ' +
      '"executive_narrative": "2-4 paragraphs", "briefing": {"briefing_headline": "<= 110 chars", "briefing_standfirst": "1-2 sentences", ' +
      '"priorities": ["up to 5 short labels, each starting with a jurisdiction tag such as [EU]"], "bottom_line_tight": "one short sentence", ' +
      '"pull_quote": "one sentence", "sentiment_label": "intensifying|steady|easing|quiet", "sentiment_rationale": "one sentence"}}',
  );
  return parts.join('\n');
}
