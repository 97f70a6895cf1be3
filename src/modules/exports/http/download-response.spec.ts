import { contentDisposition, parseRange, RANGE_HEADER_MAX_LENGTH } from './download-response';

describe('parseRange', () => {
  it.each([
    ['bytes=0-99', 1000, { start: 0, end: 99 }],
    ['bytes=900-', 1000, { start: 900, end: 999 }],
    ['bytes=-100', 1000, { start: 900, end: 999 }],
    ['bytes=990-2000', 1000, { start: 990, end: 999 }],
    ['bytes=-5000', 1000, { start: 0, end: 999 }],
    ['Bytes=0-9', 1000, { start: 0, end: 9 }],
  ])('%s of %d bytes -> %p', (header, size, expected) => {
    expect(parseRange(header, size)).toEqual(expected);
  });

  it.each([['bytes=1000-'], ['bytes=500-100'], ['bytes=-0']])('%s is unsatisfiable', (header) => {
    expect(parseRange(header, 1000)).toBe('unsatisfiable');
  });

  it.each([['items=0-1'], ['bytes=0-1,5-9'], ['bytes=-'], ['garbage'], ['bytes=0x10-20'], ['bytes=1e3-']])(
    '%s is ignored (whole resource)',
    (header) => {
      expect(parseRange(header, 1000)).toBeUndefined();
    },
  );

  it('ignores a header longer than RANGE_HEADER_MAX_LENGTH, even one that would be a valid range (RFC 9110 14.2: MAY ignore)', () => {
    const padded = `bytes=${'0'.repeat(RANGE_HEADER_MAX_LENGTH)}1-2`;
    expect(padded.length).toBeGreaterThan(RANGE_HEADER_MAX_LENGTH);
    expect(parseRange(padded, 1000)).toBeUndefined();
    expect(parseRange(`bytes=${'0'.repeat(RANGE_HEADER_MAX_LENGTH - 10)}1-2`, 1000)).toEqual({ start: 1, end: 2 });
  });

  it('treats positions beyond Number.MAX_SAFE_INTEGER as past the end of any file', () => {
    const huge = '9'.repeat(40);
    const size = 1000;
    expect(parseRange(`bytes=0-${huge}`, size)).toEqual({ start: 0, end: 999 });
    expect(parseRange(`bytes=${huge}-`, size)).toBe('unsatisfiable');
    expect(parseRange(`bytes=-${huge}`, size)).toEqual({ start: 0, end: 999 });
    // 2^53 + 1 rounds down to 2^53 as a double; it must still count as beyond a file of 2^53 - 1 bytes.
    const largest = Number.MAX_SAFE_INTEGER;
    expect(parseRange('bytes=9007199254740993-', largest)).toBe('unsatisfiable');
    expect(parseRange('bytes=9007199254740990-9007199254740993', largest)).toEqual({ start: 9007199254740990, end: largest - 1 });
    expect(parseRange(`bytes=${'9'.repeat(190)}-`, size)).toBe('unsatisfiable');
  });

  it('parses in linear time', () => {
    const started = process.hrtime.bigint();
    for (let i = 0; i < 2000; i++) {
      parseRange(`bytes=${'1'.repeat(95)}-${'1'.repeat(95)}x`, 1000);
      parseRange(`bytes=${'-'.repeat(190)}`, 1000);
      parseRange(`${' '.repeat(RANGE_HEADER_MAX_LENGTH)}x`, 1000);
    }
    expect(Number(process.hrtime.bigint() - started) / 1e6).toBeLessThan(1000);
  });
});

describe('contentDisposition', () => {
  it('gives an ASCII filename and the RFC 8187 UTF-8 name', () => {
    expect(contentDisposition('inline', 'Übersicht 2026.pdf')).toBe(
      `inline; filename="_bersicht 2026.pdf"; filename*=UTF-8''%C3%9Cbersicht%202026.pdf`,
    );
  });

  it("percent-encodes the characters RFC 8187 does not allow in a value (' ( ) *) and strips quotes and controls", () => {
    const header = contentDisposition('attachment', `it's (draft)*"\\\r\n.csv`);
    expect(header).toBe(`attachment; filename="it's (draft)*____.csv"; filename*=UTF-8''it%27s%20%28draft%29%2A%22%5C%0D%0A.csv`);
    expect(header).not.toMatch(/[\r\n]/);
  });
});
