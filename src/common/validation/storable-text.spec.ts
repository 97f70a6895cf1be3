import { isStorableText } from './storable-text';

describe('isStorableText', () => {
  it('accepts text with well-formed astral characters and other control characters', () => {
    expect(['', 'EU', '🇪🇺 EU', '𝔓', 'tab\there', 'line\nbreak'].map(isStorableText)).toEqual([true, true, true, true, true, true]);
  });

  it('refuses NUL and unpaired surrogates anywhere', () => {
    expect(['\u0000', 'EU\u0000', '\ud800', 'x\ud83d', '\udc00x', '\ude00\ud83d', '😀\ud800'].map(isStorableText)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
  });

  it('reads a 2 MB string in one pass', () => {
    const started = performance.now();
    expect(isStorableText('😀'.repeat(1_000_000))).toBe(true);
    expect(isStorableText('\ud800'.repeat(1_000_000))).toBe(false);
    expect(performance.now() - started).toBeLessThan(500);
  });
});
