import { canonicalJson, isValidIdempotencyKey, MAX_CANONICAL_VALUES, MAX_FINGERPRINT_DEPTH, requestFingerprint } from './fingerprint';

const nested = (levels: number): unknown => {
  let value: unknown = 1;
  for (let i = 0; i < levels; i++) value = i % 2 ? [value] : { a: value };
  return value;
};

describe('canonicalJson', () => {
  it('sorts keys at every level and drops undefined members', () => {
    expect(canonicalJson({ b: [{ d: 1, c: undefined, a: 'x' }], a: null })).toBe('{"a":null,"b":[{"a":"x","d":1}]}');
  });

  it('fingerprints as deep as the body parser admits', () => {
    expect(() => requestFingerprint('POST', '/v1/scans', {}, nested(MAX_FINGERPRINT_DEPTH - 2))).not.toThrow();
  });

  it('refuses nesting past its bound with invalid_request instead of overflowing the stack', () => {
    const refusal = expect.objectContaining({ status: 400, code: 'invalid_request' });
    expect(() => canonicalJson(nested(100_000))).toThrow(refusal);
    expect(() => requestFingerprint('POST', '/v1/scans', {}, nested(100_000))).toThrow(refusal);
    expect(() => requestFingerprint('POST', '/v1/scans', {}, [new Array(MAX_CANONICAL_VALUES).fill(0), nested(100_000)])).toThrow(refusal);
  });
});

describe('requestFingerprint', () => {
  const members = (count: number, reversed = false) => {
    const keys = Array.from({ length: count }, (_, i) => `k${i}`);
    return Object.fromEntries((reversed ? keys.reverse() : keys).map((key) => [key, 1]));
  };

  it('ignores key order in any body a valid request can have', () => {
    const body = { jurisdictions: ['EU'], options: members(MAX_CANONICAL_VALUES - 10) };
    const reordered = { options: members(MAX_CANONICAL_VALUES - 10, true), jurisdictions: ['EU'] };
    expect(requestFingerprint('POST', '/v1/scans', {}, body)).toBe(requestFingerprint('POST', '/v1/scans', {}, reordered));
    expect(requestFingerprint('POST', '/v1/scans', {}, body)).not.toBe(requestFingerprint('POST', '/v1/exports', {}, body));
  });

  it('hashes a body of 2 MB of members as sent, without sorting it', () => {
    const huge = members(150_000);
    const fingerprint = requestFingerprint('POST', '/v1/scans', {}, huge);
    expect(requestFingerprint('POST', '/v1/scans', {}, huge)).toBe(fingerprint);
    // Hashed as sent: the same members in another order give another fingerprint, so nothing sorted them (a
    // wall-clock bound said the same thing, but failed on a loaded machine; the guide keeps timing out of tests).
    expect(requestFingerprint('POST', '/v1/scans', {}, members(150_000, true))).not.toBe(fingerprint);
    expect(requestFingerprint('POST', '/v1/scans', {}, { ...huge, extra: 1 })).not.toBe(fingerprint);
  });
});

describe('isValidIdempotencyKey', () => {
  it('accepts 1 to 255 printable ASCII characters only', () => {
    expect(isValidIdempotencyKey('a'.repeat(255))).toBe(true);
    expect(['', 'a'.repeat(256), 'tab\there', 'é'].map(isValidIdempotencyKey)).toEqual([false, false, false, false]);
  });
});
