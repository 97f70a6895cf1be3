import { loadCalendar } from '../calendar/calendar.loader';
import { keyDate, makeCalendar, makeEntry } from '../../../test/fixtures/calendar.fixture';
import { analyseOffline } from './compose';
import { toSimpleRegister } from './simple-register';
import { sentences } from './text';

const SCAN = '2026-11-22';
const calendar = loadCalendar();
const ctx = {
  jurisdictions: ['EU', 'UK'],
  areas: ['AML / KYC', 'Payments'],
  horizonMonths: 12,
  scanDate: SCAN,
  engine: 'v4',
  realist: true,
  auditor: true,
};

describe('toSimpleRegister', () => {
  const envelope = analyseOffline(calendar, ctx);
  const simple = toSimpleRegister(envelope, envelope.plain);

  it('uses the calendar plain-language summary for each item, plus the date to watch', () => {
    expect(simple.items.map((i) => i.id)).toEqual(envelope.items.map((i) => i.id));
    const amlr = simple.items.find((i) => i.id === 'eu-amlr-application');
    const entry = calendar.entries.find((e) => e.id === 'eu-amlr-application');
    expect(amlr?.summary).toBe(`${entry?.plain_summary} Date to watch: 10 July 2027.`);
    for (const item of simple.items) {
      expect(item.summary.startsWith(envelope.plain[item.id])).toBe(true);
      expect(item.implications).toMatch(/^What to do: /);
    }
    const speculative = envelope.items.find((i) => i.date_confidence === 'speculative');
    if (speculative) expect(simple.items.find((i) => i.id === speculative.id)?.summary).toContain('(a guess, not fixed yet)');
  });

  it('rewrites the executive summary and narrative in short plain sentences with valid citation markers', () => {
    expect(simple.executive_summary.bottom_line).toMatch(/^There are \d+ rule changes to watch in EU and UK in the next 12 months\./);
    expect(simple.executive_summary.priorities.length).toBeGreaterThan(0);
    expect(simple.executive_summary.priorities.length).toBeLessThanOrEqual(5);
    const citationIds = new Set(envelope.items.flatMap((i) => i.citations.map((c) => c.id)));
    const markers = [...simple.executive_narrative.matchAll(/\[\[cite:(\d+)\]\]/g)].map((m) => Number(m[1]));
    expect(markers.length).toBeGreaterThan(0);
    for (const n of markers) expect(citationIds.has(n)).toBe(true);
    const ruleWritten = [
      simple.executive_summary.bottom_line,
      ...simple.executive_narrative.split('\n\n').filter((p) => !p.includes('[[cite:')),
    ];
    for (const text of ruleWritten) for (const sentence of sentences(text)) expect(sentence.split(/\s+/).length).toBeLessThanOrEqual(20);
    expect(simple.executive_narrative).not.toEqual(envelope.executive_narrative);
  });

  it('rewrites trends and the briefing block', () => {
    expect(simple.trends.map((t) => t.id)).toEqual(envelope.trends.map((t) => t.id));
    for (const t of simple.trends) expect(t.description).toMatch(/^\d+ rule changes? .* linked\./);
    expect(simple._briefing?.briefing_headline).toMatch(/^\d+ rule changes to watch in EU and UK$/);
    expect(simple._briefing?.sentiment_label).toBe(envelope._briefing.sentiment_label);
    expect(simple._briefing?.priorities.every((p) => /^\[(EU|UK)\] /.test(p))).toBe(true);
  });

  it('does not modify its input and is deterministic', () => {
    const before = JSON.stringify(envelope);
    const again = toSimpleRegister(envelope, envelope.plain);
    expect(JSON.stringify(envelope)).toBe(before);
    expect(again).toEqual(simple);
  });

  it('falls back to the first sentence of the summary when an item has no plain summary, and omits an absent briefing', () => {
    const cal = makeCalendar([
      makeEntry({ id: 'eu-x', summary: 'First sentence here. Second sentence.', milestones: [keyDate('2027-02-01', 'expected')] }),
    ]);
    const env = analyseOffline(cal, { ...ctx, jurisdictions: ['EU'], areas: ['AML / KYC'] });
    const { _briefing, ...withoutBriefing } = env;
    expect(_briefing).toBeDefined();
    const out = toSimpleRegister(withoutBriefing, {});
    expect(out.items[0].summary).toBe('First sentence here. Date to watch: 1 February 2027 (planned).');
    expect(out._briefing).toBeUndefined();
    expect(out.executive_summary.bottom_line).toBe('There is 1 rule change to watch in EU in the next 12 months. It is not a big change.');
  });

  it('says plainly when nothing was found', () => {
    const env = analyseOffline(calendar, { ...ctx, jurisdictions: ['Narnia'] });
    const out = toSimpleRegister(env, env.plain);
    expect(out.items).toEqual([]);
    expect(out.executive_summary).toEqual({
      bottom_line: 'We found no rule changes in our calendar for the places you chose in the next 12 months.',
      priorities: [],
    });
    expect(out._briefing?.briefing_headline).toBe('No rule changes found for the places you chose');
    expect(out.executive_narrative).not.toMatch(/\[\[cite:/);
  });
});
