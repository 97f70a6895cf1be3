/**
 * The `simple` register (Simplified English) of a snapshot's prose, written by rule from the calendar's
 * plain-language summaries. Used by exports with targetLanguage `simple` (../shared/spec/decisions.md C3): it is the
 * snapshot's own content in a plain register of English, never a fallback. When an LLM writer wrote the register
 * at scan time (../llm/simple-register.phase.ts), its prose is projected over this one; this one stands offline and
 * whenever the writer's reply failed the guardrails.
 *
 * Rules: short sentences, everyday words, one fact per sentence, dates written out in full. Item summaries
 * are the entry's `plain_summary` (or, for an item with none, the first sentence of its summary) plus the
 * date to watch; the executive summary, narrative and briefing block are rewritten from the items. The
 * narrative keeps valid [[cite:N]] markers after the sentence that uses the fact, like the English one.
 * The input is not modified.
 */
import type { BriefingBlock, ExecutiveSummary, SnapshotItem, SnapshotTrend } from '../envelope.types';
import { formatMonthYear, formatPeriod, shownPrecision } from './dates';
import { ensureFinalStop, firstSentence, joinList, shortName, truncate } from './text';

export type SimpleRegisterItem = Pick<
  SnapshotItem,
  'id' | 'title' | 'jurisdiction' | 'key_date' | 'key_date_precision' | 'date_confidence' | 'impact' | 'summary' | 'implications' | 'citations'
>;

/** The parts of an envelope the simple register reads. */
export type SimpleRegisterSource = {
  items: readonly SimpleRegisterItem[];
  trends?: readonly Pick<SnapshotTrend, 'id' | 'title' | 'description' | 'item_ids' | 'jurisdictions'>[];
  executive_summary?: ExecutiveSummary;
  executive_narrative?: string;
  _briefing?: BriefingBlock | null;
  _meta?: Record<string, unknown>;
};

export type SimpleRegister = {
  items: { id: string; title: string; summary: string; implications: string }[];
  trends: { id: string; title: string; description: string }[];
  executive_summary: ExecutiveSummary;
  executive_narrative: string;
  _briefing?: BriefingBlock;
};

/** Items named in the simple narrative and priorities. */
const NAMED_ITEMS = 5;

/** The key date as precisely as it is known ("10 July 2027", "H2 2027"), never a made-up day. */
function shownDate(item: SimpleRegisterItem, style: 'long' | 'short'): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(item.key_date)) return item.key_date;
  return formatPeriod(item.key_date, shownPrecision(item.date_confidence, item.key_date_precision), style);
}

function simpleDate(item: SimpleRegisterItem): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(item.key_date)) return item.key_date;
  const long = shownDate(item, 'long');
  if (item.date_confidence === 'confirmed') return long;
  if (item.date_confidence === 'expected') return `${long} (planned)`;
  return `${long} (a guess, not fixed yet)`;
}

function dateSentence(item: SimpleRegisterItem): string {
  return `Date to watch: ${simpleDate(item)}.`;
}

function plainText(item: SimpleRegisterItem, plain: Readonly<Record<string, string>>): string {
  const text = plain[item.id];
  return ensureFinalStop(text && text.trim() ? text : firstSentence(item.summary));
}

function cite(item: SimpleRegisterItem): string {
  return item.citations.length > 0 ? ` [[cite:${item.citations[0].id}]]` : '';
}

function stringArray(value: unknown): string[] | null {
  return Array.isArray(value) && value.every((v) => typeof v === 'string') ? (value as string[]) : null;
}

function scope(source: SimpleRegisterSource): { places: string; horizon: number | null } {
  const meta = source._meta ?? {};
  const fromMeta = stringArray(meta.matched_jurisdictions);
  const places = fromMeta && fromMeta.length > 0 ? fromMeta : [...new Set(source.items.map((i) => i.jurisdiction))];
  const horizon = typeof meta.horizon_months === 'number' ? meta.horizon_months : null;
  return { places: places.length > 0 ? joinList(places) : 'the places you chose', horizon };
}

function changes(n: number): string {
  return n === 1 ? '1 rule change' : `${n} rule changes`;
}

function bigSentence(high: number, n: number): string {
  if (high === 0) return n === 1 ? 'It is not a big change.' : 'None of them is a big change.';
  if (high === n) return n === 1 ? 'It is a big change.' : 'All of them are big changes.';
  return `${high} of them ${high === 1 ? 'is a big change' : 'are big changes'}.`;
}

function simpleSentiment(label: string): string {
  if (label === 'intensifying') return 'More rules are coming, and some are big.';
  if (label === 'easing') return 'Things are calm. Most changes are still plans.';
  if (label === 'quiet') return 'Nothing is due in this period.';
  return 'Change is steady.';
}

/** Simplified English projection of the envelope's prose fields (see the module comment). */
export function toSimpleRegister(source: SimpleRegisterSource, plain: Readonly<Record<string, string>> = {}): SimpleRegister {
  const items = source.items ?? [];
  const { places, horizon } = scope(source);
  const period = horizon ? `in the next ${horizon} months` : 'in this period';
  const n = items.length;
  const high = items.filter((i) => i.impact === 'high').length;
  const byId = new Map(items.map((i) => [i.id, i]));

  const simpleItems = items.map((item) => ({
    id: item.id,
    title: item.title,
    summary: `${plainText(item, plain)} ${dateSentence(item)}`,
    implications: item.implications ? `What to do: ${ensureFinalStop(firstSentence(item.implications))}` : '',
  }));

  const simpleTrends = (source.trends ?? []).map((trend) => {
    const members = trend.item_ids.map((id) => byId.get(id)).filter((i): i is SimpleRegisterItem => i !== undefined);
    const dates = members
      .map((m) => m.key_date)
      .filter((d) => /^\d{4}-\d{2}-\d{2}$/.test(d))
      .sort();
    const where = trend.jurisdictions.length > 0 ? ` in ${joinList(trend.jurisdictions)}` : '';
    const when =
      dates.length === 0
        ? ''
        : dates[0].slice(0, 7) === dates[dates.length - 1].slice(0, 7)
          ? ` They are due in ${formatMonthYear(dates[0])}.`
          : ` They are due between ${formatMonthYear(dates[0])} and ${formatMonthYear(dates[dates.length - 1])}.`;
    return {
      id: trend.id,
      title: trend.title,
      description: `${changes(members.length)}${where} ${members.length === 1 ? 'is' : 'are'} linked.${when}`,
    };
  });

  const named = items.slice(0, NAMED_ITEMS);
  const bottomLine =
    n === 0
      ? `We found no rule changes in our calendar for ${places} ${period}.`
      : `There ${n === 1 ? 'is' : 'are'} ${changes(n)} to watch in ${places} ${period}. ${bigSentence(high, n)}`;
  const priorities = named.map((item) => `${shortName(item.title)} (${item.jurisdiction}): ${simpleDate(item)}.`);

  const paragraphs: string[] = [bottomLine];
  if (n > 0) {
    paragraphs.push(named.map((item) => `${item.jurisdiction}: ${plainText(item, plain)} ${dateSentence(item)}${cite(item)}`).join(' '));
    const tail: string[] = [];
    if (items.some((i) => i.date_confidence !== 'confirmed')) tail.push('Some dates are plans or guesses. They may change.');
    tail.push('We made this summary from our calendar of official sources. Check the sources before you act.');
    paragraphs.push(tail.join(' '));
  } else {
    paragraphs.push('Our calendar only lists rules we have checked. Try a longer period or more topics.');
  }

  const result: SimpleRegister = {
    items: simpleItems,
    trends: simpleTrends,
    executive_summary: { bottom_line: bottomLine, priorities },
    executive_narrative: paragraphs.join('\n\n'),
  };

  if (source._briefing) {
    const first = items.reduce<SimpleRegisterItem | undefined>((best, i) => (!best || i.key_date < best.key_date ? i : best), undefined);
    const label = source._briefing.sentiment_label;
    result._briefing = {
      briefing_headline: n === 0 ? `No rule changes found for ${places}` : `${changes(n)} to watch in ${places}`,
      briefing_standfirst: bottomLine,
      priorities: named.map(
        (item) =>
          `[${item.jurisdiction}] ${truncate(shortName(item.title), 40)}: ${shownDate(item, 'short')}`,
      ),
      bottom_line_tight:
        n === 0 || !first
          ? 'Nothing is due in this period.'
          : `${changes(n)}. First one: ${shortName(first.title)} on ${simpleDate(first)}.`,
      pull_quote: n === 0 ? 'Nothing in our calendar is due.' : plainText(items[0], plain),
      sentiment_label: label,
      sentiment_rationale: simpleSentiment(label),
    };
  }
  return result;
}
