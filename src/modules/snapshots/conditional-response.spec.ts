import { ifNoneMatchMatches, MAX_IF_NONE_MATCH_LENGTH, strongEtag } from './conditional-response';

describe('ifNoneMatchMatches', () => {
  const tag = strongEtag('{"a":1}');

  it('ignores a header longer than its bound, even when it lists the tag', () => {
    const long = `${' ,'.repeat(MAX_IF_NONE_MATCH_LENGTH)}${tag}`;
    expect(ifNoneMatchMatches(long, tag)).toBe(false);
    expect(ifNoneMatchMatches(`"x", ${tag}`, tag)).toBe(true);
  });

  it('answers a header of the largest admitted size in linear time', () => {
    const header = `${'W/'.repeat(MAX_IF_NONE_MATCH_LENGTH / 2 - 100)}"x", ${tag}`;
    const started = performance.now();
    for (let i = 0; i < 1000; i++) ifNoneMatchMatches(header, tag);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('treats a header that is not one string as absent', () => {
    expect(ifNoneMatchMatches(['*'] as unknown as string, tag)).toBe(false);
  });
});
