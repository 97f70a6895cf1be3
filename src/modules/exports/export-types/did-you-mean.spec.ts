import { didYouMean, levenshtein, MAX_SUGGESTION_INPUT_LENGTH } from './did-you-mean';

describe('levenshtein', () => {
  it('counts single-character edits', () => {
    expect(levenshtein('kitten', 'sitting')).toBe(3);
    expect(levenshtein('', 'abc')).toBe(3);
    expect(levenshtein('same', 'same')).toBe(0);
  });
});

describe('didYouMean', () => {
  it('suggests the nearest candidate, ignoring case', () => {
    expect(didYouMean('stylSlug', ['styleSlug', 'targetLanguage'])).toBe('styleSlug');
    expect(didYouMean('TARGETLANGUAGE', ['styleSlug', 'targetLanguage'])).toBe('targetLanguage');
    expect(didYouMean('detailLevel', ['detail_level', 'orientation'])).toBe('detail_level');
  });

  it('stays quiet when nothing is close', () => {
    expect(didYouMean('xyz', ['targetLanguage'])).toBeUndefined();
    expect(didYouMean('foo', [])).toBeUndefined();
  });

  it('suggests nothing for inputs past its bound, without measuring them', () => {
    const longest = `styleSlug${'g'.repeat(MAX_SUGGESTION_INPUT_LENGTH - 'styleSlug'.length)}`;
    expect(didYouMean(longest.slice(0, 10), ['styleSlug'])).toBe('styleSlug');
    const started = performance.now();
    expect(didYouMean(`${longest}g`.repeat(20_000), ['styleSlug', 'targetLanguage'])).toBeUndefined();
    expect(performance.now() - started).toBeLessThan(50);
  });
});
