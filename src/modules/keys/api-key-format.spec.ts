import { generateRawKey, hashKey, isWellFormedKey, maskKey } from './api-key-format';

describe('API key format', () => {
  it('generates <prefix>_live_<32 base62> keys that are all different', () => {
    const keys = new Set(Array.from({ length: 200 }, () => generateRawKey('rgs')));
    expect(keys.size).toBe(200);
    for (const key of keys) {
      expect(key).toMatch(/^rgs_live_[0-9A-Za-z]{32}$/);
      expect(isWellFormedKey(key, 'rgs')).toBe(true);
    }
  });

  it('rejects malformed tokens', () => {
    const key = generateRawKey('rgs');
    expect(isWellFormedKey(key, 'abc')).toBe(false);
    expect(isWellFormedKey(`${key}x`, 'rgs')).toBe(false);
    expect(isWellFormedKey(key.replace('_live_', '_test_'), 'rgs')).toBe(false);
    expect(isWellFormedKey(`${key.slice(0, -1)}-`, 'rgs')).toBe(false);
  });

  it('hashes with SHA-256 and masks all but the first four random characters', () => {
    expect(hashKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(maskKey('rgs_live_AbCdEfGhIjKlMnOpQrStUvWxYz012345', 'rgs')).toBe('rgs_live_AbCd…');
  });
});
