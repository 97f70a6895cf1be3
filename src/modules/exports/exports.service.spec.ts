import { parseRange } from './exports.service';

describe('parseRange', () => {
  it.each([
    ['bytes=0-99', 1000, { start: 0, end: 99 }],
    ['bytes=900-', 1000, { start: 900, end: 999 }],
    ['bytes=-100', 1000, { start: 900, end: 999 }],
    ['bytes=990-2000', 1000, { start: 990, end: 999 }],
    ['bytes=-5000', 1000, { start: 0, end: 999 }],
  ])('%s of %d bytes -> %p', (header, size, expected) => {
    expect(parseRange(header, size)).toEqual(expected);
  });

  it.each([['bytes=1000-'], ['bytes=500-100'], ['bytes=-0']])('%s is unsatisfiable', (header) => {
    expect(parseRange(header, 1000)).toBe('unsatisfiable');
  });

  it.each([['items=0-1'], ['bytes=0-1,5-9'], ['bytes=-'], ['garbage']])('%s is ignored (whole resource)', (header) => {
    expect(parseRange(header, 1000)).toBeUndefined();
  });
});
