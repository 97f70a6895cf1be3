import { didYouMean, levenshtein } from './did-you-mean';

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
});
