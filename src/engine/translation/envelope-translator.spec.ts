import type { BriefingBlock } from '../envelope.types';
import { DeepLAdapter } from '../../infra/providers/translation/deepl.adapter';
import { FAKE_API_KEY, FakeProvider, startFakeProvider } from '../../../test/fakes/fake-provider-servers';
import type { TranslateOptions, TranslationPort } from '../../infra/providers/ports';
import { TranslatableEnvelope, UnsupportedLanguageError, protectMarkers, restoreMarkers, translateEnvelope } from './envelope-translator';

const briefing: BriefingBlock = {
  briefing_headline: 'AML overhaul lands',
  briefing_standfirst: 'Three rules apply this year [[cite:1]].',
  priorities: ['[EU] AMLR applies', '[UK] PS24/1 in force'],
  bottom_line_tight: 'Act now.',
  pull_quote: '"The clock is ticking"',
  sentiment_label: 'Pressing',
  sentiment_rationale: 'Deadlines cluster in Q3.',
};

function envelope(itemCount = 2): TranslatableEnvelope {
  return {
    items: Array.from({ length: itemCount }, (_, index) => ({
      id: `item-${index}`,
      title: `Rule ${index}`,
      summary: `Summary of rule ${index} [[cite:${index + 1}]].`,
      implications: `Firms must act on rule ${index} & R&D <5% [[cite:${index + 1}]][[cite:${index + 2}]].`,
    })),
    trends: [{ id: 'trend-1', title: 'Convergence', description: 'Regimes converge [[cite:1]].' }],
    executive_summary: { bottom_line: 'Prepare for 2026.', priorities: ['Map exposures', 'Budget'] },
    executive_narrative: 'AMLR applies from July 2027 [[cite:1]], while DORA is already live [[cite:2]].',
    _briefing: briefing,
  };
}

/** A port that "translates" like DeepL can: wording changes, placeholders move. */
function scriptedPort(transform: (text: string) => string, calls: string[][] = []): TranslationPort {
  return {
    provider: 'scripted',
    async translate(texts: string[], _language: string, _signal?: AbortSignal, options?: TranslateOptions) {
      expect(options?.format).toBe('xml');
      calls.push(texts);
      return { texts: texts.map(transform), usage: { characters: texts.join('').length } };
    },
  };
}

describe('translateEnvelope', () => {
  let deepl: FakeProvider;
  beforeEach(async () => {
    deepl = await startFakeProvider('deepl');
  });
  afterEach(() => deepl.close());

  it('translates every prose string through DeepL and keeps citation markers and XML-special characters intact', async () => {
    const port = new DeepLAdapter({ apiKey: FAKE_API_KEY, baseUrl: deepl.baseUrl });
    const { translation, characters } = await translateEnvelope(envelope(), 'fr', port);
    expect(translation.complete).toBe(true);
    expect(translation.language).toBe('fr');
    expect(translation.provider).toBe('deepl');
    expect(translation.items[1]).toEqual({
      id: 'item-1',
      title: '[FR] Rule 1',
      summary: '[FR] Summary of rule 1 [[cite:2]].',
      implications: '[FR] Firms must act on rule 1 & R&D <5% [[cite:2]][[cite:3]].',
    });
    expect(translation.trends).toEqual([{ id: 'trend-1', title: '[FR] Convergence', description: '[FR] Regimes converge [[cite:1]].' }]);
    expect(translation.executive_summary).toEqual({
      bottom_line: '[FR] Prepare for 2026.',
      priorities: ['[FR] Map exposures', '[FR] Budget'],
    });
    expect(translation.executive_narrative).toBe('[FR] AMLR applies from July 2027 [[cite:1]], while DORA is already live [[cite:2]].');
    expect(translation._briefing?.priorities).toEqual(['[FR] [EU] AMLR applies', '[FR] [UK] PS24/1 in force']);
    expect(translation._briefing?.pull_quote).toBe('[FR] "The clock is ticking"');

    const sent = deepl.requests.flatMap((request) => (request.body as { text: string[] }).text);
    expect(sent.join('\n')).not.toContain('[[cite:');
    expect(sent).toContain('Firms must act on rule 1 &amp; R&amp;D &lt;5% <x id="0"/><x id="1"/>.');
    expect(deepl.requests.every((request) => (request.body as { tag_handling?: string }).tag_handling === 'xml')).toBe(true);
    expect(characters).toBe(sent.join('').length);
  });

  it('puts moved placeholders back where the translation put them and appends dropped ones', async () => {
    const moved = await translateEnvelope(
      { items: [], trends: [], executive_narrative: 'Rules apply [[cite:7]] soon [[cite:9]].' },
      'de',
      scriptedPort((text) => text.replace(/^(.*?)(<x id="0"\/>) soon (<x id="1"\/>)\.$/, 'Bald $3 gelten $1$2.')),
    );
    expect(moved.translation.executive_narrative).toBe('Bald [[cite:9]] gelten Rules apply [[cite:7]].');

    const dropped = await translateEnvelope(
      { items: [], trends: [], executive_narrative: 'Rules apply [[cite:7]] soon [[cite:9]].' },
      'de',
      scriptedPort(() => 'Regeln gelten bald <x id="1"></x> <x id="5"/>.'),
    );
    expect(dropped.translation.executive_narrative).toBe('Regeln gelten bald [[cite:9]] . [[cite:7]]');
    expect(dropped.translation.complete).toBe(true);
  });

  it('sends at most 50 strings per call and reassembles them in order', async () => {
    const calls: string[][] = [];
    const source = envelope(30);
    const { translation } = await translateEnvelope(
      source,
      'es',
      scriptedPort((text) => `ES:${text}`, calls),
    );
    expect(calls.length).toBeGreaterThan(1);
    expect(calls.every((batch) => batch.length <= 50)).toBe(true);
    expect(calls.flat().length).toBe(new Set(calls.flat()).size);
    expect(translation.complete).toBe(true);
    expect(translation.items.map((item) => item.title)).toEqual(source.items.map((item) => `ES:${item.title}`));
    expect(translation.items[29].implications).toBe('ES:Firms must act on rule 29 & R&D <5% [[cite:30]][[cite:31]].');

    const port = new DeepLAdapter({ apiKey: FAKE_API_KEY, baseUrl: deepl.baseUrl });
    const viaDeepl = await translateEnvelope(source, 'es', port, undefined, { batchSize: 200 });
    expect(viaDeepl.translation.complete).toBe(true);
    expect(deepl.requests.map((request) => (request.body as { text: string[] }).text.length).every((count) => count <= 50)).toBe(true);
    expect(deepl.requests.length).toBeGreaterThan(1);
  });

  it('is incomplete when the provider returns fewer strings or an empty one, keeping English there', async () => {
    const short: TranslationPort = {
      provider: 'short',
      translate: async (texts) => ({ texts: texts.slice(1).map((text) => `X ${text}`), usage: { characters: 1 } }),
    };
    const result = await translateEnvelope(envelope(1), 'it', short);
    expect(result.translation.complete).toBe(false);
    expect(result.translation.items[0].title).toBe('Rule 0');

    const blank = await translateEnvelope(
      envelope(1),
      'it',
      scriptedPort((text) => (text === 'Budget' ? ' ' : `IT ${text}`)),
    );
    expect(blank.translation.complete).toBe(false);
    expect(blank.translation.executive_summary?.priorities).toEqual(['IT Map exposures', 'Budget']);
    expect(blank.translation.items[0].title).toBe('IT Rule 0');
  });

  it('skips blank strings and sends repeated strings once', async () => {
    const calls: string[][] = [];
    const { translation } = await translateEnvelope(
      { items: [{ id: 'a', title: 'Same', summary: 'Same', implications: '' }], trends: [], executive_summary: null },
      'ja',
      scriptedPort((text) => `JA ${text}`, calls),
    );
    expect(calls).toEqual([['Same']]);
    expect(translation.items).toEqual([{ id: 'a', title: 'JA Same', summary: 'JA Same', implications: '' }]);
    expect(translation).not.toHaveProperty('executive_summary');
    expect(translation).not.toHaveProperty('executive_narrative');
    expect(translation.complete).toBe(true);
  });

  it('refuses unsupported languages before calling the provider', async () => {
    const calls: string[][] = [];
    await expect(
      translateEnvelope(
        envelope(),
        'ko',
        scriptedPort((text) => text, calls),
      ),
    ).rejects.toThrow(UnsupportedLanguageError);
    await expect(
      translateEnvelope(
        envelope(),
        'simple',
        scriptedPort((text) => text, calls),
      ),
    ).rejects.toThrow(/not supported/);
    expect(calls).toHaveLength(0);
    const upper = await translateEnvelope(
      envelope(1),
      'PT',
      scriptedPort((text) => text),
    );
    expect(upper.translation.language).toBe('pt');
  });

  it('protect and restore are inverse', () => {
    const text = 'A & B <tag> [[cite:12]] "q" [[cite:3]]';
    const { xml, markers } = protectMarkers(text);
    expect(xml).toBe('A &amp; B &lt;tag&gt; <x id="0"/> "q" <x id="1"/>');
    expect(markers).toEqual(['[[cite:12]]', '[[cite:3]]']);
    expect(restoreMarkers(xml, markers)).toBe(text);
  });
});
