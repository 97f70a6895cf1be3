import { longerThan } from './char-count';

describe('longerThan', () => {
  it('counts code points, so astral characters count once', () => {
    expect(longerThan('a'.repeat(100), 100)).toBe(false);
    expect(longerThan('a'.repeat(101), 100)).toBe(true);
    expect(longerThan('😀'.repeat(100), 100)).toBe(false);
    expect(longerThan('😀'.repeat(101), 100)).toBe(true);
    expect(longerThan(`${'😀'.repeat(99)}ab`, 100)).toBe(true);
    expect(longerThan('\ud800'.repeat(100), 100)).toBe(false);
  });

  it('answers a megabyte string without reading it', () => {
    const huge = 'x'.repeat(4_000_000);
    const started = performance.now();
    for (let i = 0; i < 1000; i++) longerThan(huge, 2000);
    expect(performance.now() - started).toBeLessThan(100);
  });
});
