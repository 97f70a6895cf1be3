import { guardSimpleRegister, simpleRegisterPrompt } from './simple-register.phase';

const envelope = () => ({
  items: [
    {
      id: 'eu-amlr',
      title: 'Regulation (EU) 2024/1624',
      jurisdiction: 'EU',
      key_date: '2027-07-10',
      date_confidence: 'confirmed',
      summary: 'The single rulebook applies.',
      implications: 'Update onboarding.',
      citations: [{ id: 1 }],
    },
    {
      id: 'uk-psr',
      title: 'PSR rules',
      jurisdiction: 'UK',
      key_date: '2027-01-01',
      date_confidence: 'expected',
      summary: 'S.',
      implications: 'I.',
      citations: [{ id: 2 }],
    },
  ],
  executive_summary: { bottom_line: 'Two instruments fall due.', priorities: ['Prepare'] },
  executive_narrative: 'The rulebook applies [[cite:1]]. PSR follows [[cite:2]].',
  _plain: { 'eu-amlr': 'New EU anti-money-laundering rules start.' },
  _meta: { horizon_months: 24 },
});

const good = () => ({
  items: [
    { id: 'eu-amlr', summary: 'New EU money rules start on 10 July 2027.', implications: 'Check your customer checks.' },
    { id: 'uk-psr', summary: 'UK payment rules change.', implications: 'Plan for it.' },
  ],
  executive_summary: { bottom_line: 'Two rules change in the next 24 months.', priorities: ['Start with the EU rule.'] },
  executive_narrative: 'Two rules change. [[cite:1]]\n\nCheck the sources.',
});

describe('guardSimpleRegister', () => {
  it('keeps a reply that covers every item, adds no number and cites only known citations', () => {
    const guarded = guardSimpleRegister(good(), envelope());
    expect(guarded).toEqual({
      register: {
        items: good().items,
        executive_summary: good().executive_summary,
        executive_narrative: 'Two rules change. [[cite:1]]\n\nCheck the sources.',
      },
    });
  });

  it.each([
    ['no JSON', null, /no usable JSON/],
    [
      'an unknown item',
      { ...good(), items: [...good().items, { id: 'made-up', summary: 'X.', implications: '' }] },
      /does not have \(made-up\)/,
    ],
    ['a missing item', { ...good(), items: good().items.slice(0, 1) }, /left out item uk-psr/],
    [
      'an invented date',
      { ...good(), items: [{ ...good().items[0], summary: 'It starts in 2031.' }, good().items[1]] },
      /number .* \(2031\)/,
    ],
    ['an unknown citation', { ...good(), executive_narrative: 'Two rules change. [[cite:9]]' }, /\[\[cite:9\]\]/],
    ['no citation left', { ...good(), executive_narrative: 'Two rules change.' }, /dropped every citation marker/],
    [
      'a summary too long',
      { ...good(), items: [{ ...good().items[0], summary: 'Word. '.repeat(200) }, good().items[1]] },
      /too long, for eu-amlr/,
    ],
    [
      'too many priorities',
      { ...good(), executive_summary: { bottom_line: 'B.', priorities: ['a', 'b', 'c', 'd', 'e', 'f'] } },
      /priorities/,
    ],
    ['no narrative', { ...good(), executive_narrative: '' }, /no narrative/],
  ])('refuses %s', (_name, reply, reason) => {
    const guarded = guardSimpleRegister(reply, envelope());
    expect(guarded).toEqual({ reason: expect.stringMatching(reason) });
  });

  it('requires a complete briefing block when the snapshot has one, keeping the English sentiment label', () => {
    const withBriefing = {
      ...envelope(),
      _briefing: {
        briefing_headline: 'Two instruments',
        briefing_standfirst: 'S.',
        priorities: ['[EU] AMLR'],
        bottom_line_tight: 'B.',
        pull_quote: 'Q.',
        sentiment_label: 'intensifying',
        sentiment_rationale: 'R.',
      },
    };
    expect(guardSimpleRegister(good(), withBriefing)).toEqual({ reason: 'wrote no usable briefing block' });
    const briefing = {
      briefing_headline: 'Two rules change',
      briefing_standfirst: 'Two rules change soon.',
      priorities: ['[EU] The money rules'],
      bottom_line_tight: 'Get ready.',
      pull_quote: 'Rules are changing.',
      sentiment_label: 'calm',
      sentiment_rationale: 'More rules are coming.',
    };
    const guarded = guardSimpleRegister({ ...good(), briefing }, withBriefing);
    expect(guarded).toMatchObject({ register: { _briefing: { ...briefing, sentiment_label: 'intensifying' } } });
    const invented = guardSimpleRegister({ ...good(), briefing: { ...briefing, pull_quote: 'Fines reach 5000 euros.' } }, withBriefing);
    expect(invented).toEqual({ reason: expect.stringMatching(/\(5000\)/) });
  });

  it('lists every item by id, with the narrative and its markers, in the prompt', () => {
    const prompt = simpleRegisterPrompt(envelope());
    expect(prompt).toMatch(/^- id eu-amlr: Regulation \(EU\) 2024\/1624 \| EU \| key date 2027-07-10 \(confirmed\)$/m);
    expect(prompt).toMatch(/^- id uk-psr: /m);
    expect(prompt).toContain('plain summary: New EU anti-money-laundering rules start.');
    expect(prompt).toContain('The rulebook applies [[cite:1]]. PSR follows [[cite:2]].');
  });
});
