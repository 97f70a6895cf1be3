import { ifNoneMatchMatches, strongEtag } from './conditional-response';
import { narrativeIn, projectLanguage } from './language-projection';
import { storedProjection } from './snapshot-projection';

const envelope = () => ({
  items: [
    {
      id: 'eu-amlr',
      title: 'AML Regulation',
      jurisdiction: 'EU',
      key_date: '2027-07-10',
      date_confidence: 'confirmed',
      impact: 'high',
      summary: 'The single rulebook applies. [[cite:1]]',
      implications: 'Update onboarding.',
      citations: [{ id: 1, url: 'https://eur-lex.europa.eu/x', title: 'OJ', publisher: 'EU', published_at: null }],
    },
    {
      id: 'uk-psr',
      title: 'PSR rules',
      jurisdiction: 'UK',
      key_date: '2027-01-01',
      date_confidence: 'expected',
      impact: 'low',
      summary: 'S.',
      implications: 'I.',
      citations: [],
    },
  ],
  trends: [{ id: 't1', title: 'Trend', description: 'Desc [[cite:1]]', item_ids: ['eu-amlr'], jurisdictions: ['EU'] }],
  executive_summary: { bottom_line: 'Bottom line.', priorities: ['One'] },
  executive_narrative: 'Narrative [[cite:1]] here.',
  _briefing: {
    briefing_headline: 'H',
    briefing_standfirst: 'S',
    priorities: [],
    bottom_line_tight: 'B',
    pull_quote: 'Q',
    sentiment_label: 'steady',
    sentiment_rationale: 'R',
  },
  auditor: { ran: false, passes: [], verified_count: 0, flagged_item_ids: [] },
  translations: {
    fr: {
      language: 'fr',
      complete: true,
      provider: 'deepl',
      items: [
        { id: 'eu-amlr', title: 'Règlement LBC', summary: 'Le règlement unique s’applique. [[cite:1]]', implications: 'Mettre à jour.' },
      ],
      trends: [{ id: 't1', title: 'Tendance', description: 'Description' }],
      executive_summary: { bottom_line: 'En bref.', priorities: ['Un'] },
      executive_narrative: 'Récit [[cite:1]].',
      _briefing: {
        briefing_headline: 'Titre',
        briefing_standfirst: 'Chapeau',
        priorities: [],
        bottom_line_tight: 'B',
        pull_quote: 'Q',
        sentiment_label: 'steady',
        sentiment_rationale: 'R',
      },
    },
    de: { language: 'de', complete: false, provider: 'deepl', items: [], trends: [], executive_narrative: 'Teil.' },
  },
  _meta: { engine_mode: 'offline', horizon_months: 12, matched_jurisdictions: ['EU', 'UK'] },
  _plain: { 'eu-amlr': 'New EU anti-money-laundering rules start.' },
  _auditor_private: { secret: true },
  custom_key: { kept: 1 },
});

describe('language projection', () => {
  it('leaves the original for en', () => {
    const source = envelope();
    expect(projectLanguage(source, 'en')).toEqual({ envelope: source, projected: false });
  });

  it('projects a complete translation by id and records _meta.language', () => {
    const source = envelope();
    const { envelope: fr, projected } = projectLanguage(source, 'fr');
    expect(projected).toBe(true);
    const items = fr.items as Array<Record<string, unknown>>;
    expect(items[0]).toMatchObject({
      id: 'eu-amlr',
      title: 'Règlement LBC',
      implications: 'Mettre à jour.',
      impact: 'high',
      citations: source.items[0].citations,
    });
    expect(items[1]).toEqual(source.items[1]);
    expect(fr.trends).toEqual([{ ...source.trends[0], title: 'Tendance', description: 'Description' }]);
    expect(fr.executive_summary).toEqual({ bottom_line: 'En bref.', priorities: ['Un'] });
    expect(fr.executive_narrative).toBe('Récit [[cite:1]].');
    expect((fr._briefing as Record<string, unknown>).briefing_headline).toBe('Titre');
    expect(fr._meta).toEqual({ ...source._meta, language: 'fr' });
    expect(fr.custom_key).toEqual({ kept: 1 });
    expect(source.items[0].title).toBe('AML Regulation');
  });

  it('returns the original untouched without a complete translation', () => {
    const source = envelope();
    expect(projectLanguage(source, 'de')).toEqual({ envelope: source, projected: false });
    expect(projectLanguage(source, 'ja')).toEqual({ envelope: source, projected: false });
    expect(projectLanguage({ ...source, translations: 'nope' }, 'fr').projected).toBe(false);
  });

  it('never adds a block the original lacks', () => {
    const { _briefing: _b, ...source } = envelope();
    const { envelope: fr } = projectLanguage(source, 'fr');
    expect(fr).not.toHaveProperty('_briefing');
  });

  it('writes the simple register from the private plain summaries', () => {
    const { envelope: simple, projected } = projectLanguage(envelope(), 'simple');
    expect(projected).toBe(true);
    const items = simple.items as Array<Record<string, unknown>>;
    expect(items[0].summary).toMatch(/^New EU anti-money-laundering rules start\. Date to watch: 10 July 2027\.$/);
    expect(items[0].impact).toBe('high');
    expect(simple._meta).toMatchObject({ language: 'simple' });
    const read = storedProjection(simple);
    expect(read).not.toHaveProperty('_plain');
    expect(read).not.toHaveProperty('_auditor_private');
    expect(JSON.stringify(read)).not.toMatch(/\[\[cite:/);
  });

  it('serves the writer-made register stored at scan time, rule-built where it has nothing, and says which', () => {
    const source = {
      ...envelope(),
      _simple: {
        items: [{ id: 'eu-amlr', summary: 'New money-laundering rules start.', implications: 'Check your checks.' }],
        executive_summary: { bottom_line: 'Two rules change.', priorities: ['Start with the EU rule.'] },
        executive_narrative: 'Two rules change. [[cite:1]]',
        _briefing: { ...envelope()._briefing, briefing_headline: 'Two rules change' },
      },
    };
    const { envelope: simple } = projectLanguage(source, 'simple');
    const items = simple.items as Array<Record<string, unknown>>;
    expect(items.map((i) => i.summary)).toEqual(['New money-laundering rules start.', expect.stringMatching(/Date to watch: /)]);
    expect(simple.executive_summary).toEqual({ bottom_line: 'Two rules change.', priorities: ['Start with the EU rule.'] });
    expect(simple.executive_narrative).toBe('Two rules change. [[cite:1]]');
    expect(simple._meta).toMatchObject({ language: 'simple', simple_register: { source: 'writer' } });
    expect(simple._briefing).toMatchObject({ briefing_headline: 'Two rules change' });
    expect(storedProjection(simple)).not.toHaveProperty('_simple');

    const refused = { ...envelope(), _meta: { simple_register: { source: 'rule', reason: 'the writer left out an item' } } };
    expect(projectLanguage(refused, 'simple').envelope._meta).toMatchObject({
      simple_register: { source: 'rule', reason: 'the writer left out an item' },
    });
    expect(projectLanguage(envelope(), 'simple').envelope._meta).toMatchObject({ simple_register: { source: 'rule' } });
  });

  it('leaves an envelope without items untouched for simple', () => {
    const source = { executive_narrative: 'x' };
    expect(projectLanguage(source, 'simple')).toEqual({ envelope: source, projected: false });
  });
});

describe('narrativeIn', () => {
  it('serves the original, a complete translation, or the simple register', () => {
    expect(narrativeIn(envelope(), 'en')).toEqual({ narrative: 'Narrative [[cite:1]] here.', language: 'en' });
    expect(narrativeIn(envelope(), '')).toEqual({ narrative: 'Narrative [[cite:1]] here.', language: 'en' });
    expect(narrativeIn(envelope(), 'FR')).toEqual({ narrative: 'Récit [[cite:1]].', language: 'fr' });
    expect(narrativeIn(envelope(), 'simple')).toMatchObject({ language: 'simple' });
  });

  it('distinguishes a missing narrative from a missing translation', () => {
    expect(narrativeIn(envelope(), 'de')).toEqual({ missing: 'translation' });
    expect(narrativeIn(envelope(), 'pt')).toEqual({ missing: 'translation' });
    expect(narrativeIn({ ...envelope(), executive_narrative: undefined }, 'fr')).toEqual({ missing: 'narrative' });
    expect(narrativeIn({ ...envelope(), executive_narrative: '  ' }, 'en')).toEqual({ missing: 'narrative' });
  });
});

describe('conditional reads', () => {
  it('makes a strong tag that depends on the representation', () => {
    expect(strongEtag('{"a":1}')).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
    expect(strongEtag('{"a":1}')).toBe(strongEtag('{"a":1}'));
    expect(strongEtag('{"a":1}')).not.toBe(strongEtag('{"a":2}'));
  });

  it('matches If-None-Match lists, weak forms and *', () => {
    const tag = strongEtag('x');
    expect(ifNoneMatchMatches(undefined, tag)).toBe(false);
    expect(ifNoneMatchMatches(tag, tag)).toBe(true);
    expect(ifNoneMatchMatches(`"other", ${tag}`, tag)).toBe(true);
    expect(ifNoneMatchMatches(`W/${tag}`, tag)).toBe(true);
    expect(ifNoneMatchMatches('*', tag)).toBe(true);
    expect(ifNoneMatchMatches('"other"', tag)).toBe(false);
  });
});
