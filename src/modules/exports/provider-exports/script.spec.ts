import { awkwardSnapshot, realisticSnapshot, syntheticSnapshot } from '../../../../test/fixtures/snapshots';
import { briefingScript, dialogueScript, notebookSourceMarkdown, scriptLanguage, topItems } from './script';

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
    expect(script.endsWith('The full report has every item, date and source.')).toBe(true);
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
