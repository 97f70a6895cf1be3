import { awkwardSnapshot, realisticSnapshot, syntheticSnapshot, wideSnapshot } from '../../../../test/fixtures/snapshots';
import { disclaimerLine } from '../renderers/render-facts';
import { briefingScript, dialogueScript, notebookSourceMarkdown, scriptLanguage, spokenPeriod, topItems } from './script';

describe('scripts', () => {
  it('builds a briefing from headline, bottom line, dated items and trends within the limit', () => {
    const snapshot = realisticSnapshot();
    const script = briefingScript(snapshot, 'en');
    expect(script.startsWith('This is your regulatory horizon briefing for 22 November 2026.')).toBe(true);
    expect(script.length).toBeLessThanOrEqual(4500);
    expect(script).toContain(snapshot.data._briefing!.briefing_headline.replace(/[.]$/, ''));
    expect(script).toContain('The bottom line:');
    expect(script).toContain('Here are the key dates to watch.');
    for (const item of topItems(snapshot).slice(0, 2)) expect(script).toContain(item.title.replace(/[.]$/, ''));
    expect(script).not.toMatch(/\[\[cite:/);
    expect(script).toContain('The full report has every item, date and source.');
    expect(script.endsWith(disclaimerLine(snapshot))).toBe(true);
  });

  it('says how many of the matching instruments it names, and never speaks a period or an estimate as a day', () => {
    const wide = wideSnapshot();
    const total = wide.data._meta.matched_count as number;
    const script = briefingScript(wide, 'en');
    expect(script).toContain(`These are ${topItems(wide).length} of the ${total} matching instruments; the full report lists them all.`);
    const dialogue = dialogueScript(wide, 'en').map((line) => line.text).join(' ');
    expect(dialogue).toContain(`of the ${total} matching instruments`);
    expect(dialogue).toContain(disclaimerLine(wide));
    expect(spokenPeriod('2026-12-31', 'year', 'expected', 'en')).toEqual({ text: '2026', day: false });
    expect(spokenPeriod('2027-06-30', 'half', 'expected', 'fr')).toEqual({ text: 'H1 2027', day: false });
    expect(spokenPeriod('2027-07-10', 'day', 'speculative', 'en')).toEqual({ text: 'July 2027', day: false });
    expect(spokenPeriod('2027-07-10', 'day', 'confirmed', 'en')).toEqual({ text: '10 July 2027', day: true });
    const placeholder = { ...wide.data.items[0]!, key_date: '2026-12-31', key_date_precision: 'year' as const, date_confidence: 'expected' as const };
    const one = { ...wide, data: { ...wide.data, items: [placeholder] } };
    expect(briefingScript(one, 'en')).toContain(`Expected in 2026, ${placeholder.jurisdiction}:`);
    expect(briefingScript(one, 'en')).not.toContain(`on 31 December 2026, ${placeholder.jurisdiction}`);
    const markdown = notebookSourceMarkdown(wide, 'en');
    expect(markdown).toContain(`(the top ${wide.data.items.length} of ${total} matching instruments)`);
    expect(markdown).toContain(disclaimerLine(wide));
  });

  it('stays within the limit on a large snapshot and on awkward text', () => {
    expect(briefingScript(syntheticSnapshot(100), 'en').length).toBeLessThanOrEqual(4500);
    expect(briefingScript(syntheticSnapshot(100), 'en', 600).length).toBeLessThanOrEqual(600);
    expect(briefingScript(awkwardSnapshot(), 'en')).not.toMatch(/<[a-z]/i);
  });

  it('builds an alternating host / analyst dialogue within the limit', () => {
    const lines = dialogueScript(realisticSnapshot(), 'en');
    expect(lines[0]!.speaker).toBe('host');
    lines.forEach((line, index) => expect(line.speaker).toBe(index % 2 === 0 ? 'host' : 'analyst'));
    expect(lines.every((line) => line.text.length > 0)).toBe(true);
    expect(lines.reduce((sum, line) => sum + line.text.length, 0)).toBeLessThanOrEqual(4500);
    const small = dialogueScript(syntheticSnapshot(100), 'en', 800);
    expect(small.reduce((sum, line) => sum + line.text.length, 0)).toBeLessThanOrEqual(800);
  });

  it('uses the translation language for connecting phrases, English for simple', () => {
    expect(scriptLanguage('ja')).toBe('ja');
    expect(scriptLanguage('simple')).toBe('en');
    expect(briefingScript(realisticSnapshot(), 'de')).toMatch(/^Dies ist Ihr regulatorisches Briefing vom 22\. November 2026\./);
    expect(briefingScript(realisticSnapshot(), 'simple')).toMatch(/^This is your/);
  });

  it('writes the whole snapshot as a markdown source document', () => {
    const snapshot = realisticSnapshot();
    const markdown = notebookSourceMarkdown(snapshot, 'en');
    expect(markdown).toMatch(/^# /);
    expect(markdown).toContain('## Items');
    expect(markdown).toContain('## Trends');
    for (const item of snapshot.data.items) expect(markdown).toContain(item.title);
    expect(markdown).not.toMatch(/\[\[cite:/);
  });
});
