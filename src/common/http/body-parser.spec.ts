import { jsonNestingExceeds, MAX_JSON_DEPTH } from './body-parser';

const bytes = (text: string) => Buffer.from(text, 'utf8');

describe('jsonNestingExceeds', () => {
  it('counts nested arrays and objects, a top-level scalar being depth 0', () => {
    expect(jsonNestingExceeds(bytes('"x"'), 0)).toBe(false);
    expect(jsonNestingExceeds(bytes('{"a":[1]}'), 2)).toBe(false);
    expect(jsonNestingExceeds(bytes('{"a":[[1]]}'), 2)).toBe(true);
    expect(jsonNestingExceeds(bytes('[[],[],{}]'), 2)).toBe(false);
  });

  it('skips brackets inside strings, escaped quotes included', () => {
    expect(jsonNestingExceeds(bytes(`["${'['.repeat(100)}"]`), 1)).toBe(false);
    expect(jsonNestingExceeds(bytes(`["\\"${'{'.repeat(100)}\\\\"]`), 1)).toBe(false);
    expect(jsonNestingExceeds(bytes(`["\\\\",[[[]]]]`), 2)).toBe(true);
    expect(jsonNestingExceeds(bytes(`["é😀[[[", {"k[": "v{"}]`), 2)).toBe(false);
  });

  it('finds a million levels in one linear pass', () => {
    const deep = bytes('['.repeat(1_000_000) + ']'.repeat(1_000_000));
    const started = performance.now();
    expect(jsonNestingExceeds(deep, MAX_JSON_DEPTH)).toBe(true);
    expect(jsonNestingExceeds(bytes(`[${'"x",'.repeat(400_000)}1]`), MAX_JSON_DEPTH)).toBe(false);
    expect(performance.now() - started).toBeLessThan(500);
  });
});
