import { KeyCache } from './key-cache';

const entry = (id: string, cachedAt = 0) => ({ apiKeyId: id, accountId: 'acct', revoked: false, cachedAt });

describe('KeyCache', () => {
  it('returns entries until their TTL, then forgets them', () => {
    const cache = new KeyCache(10, 1000);
    cache.set('h1', entry('k1', 0));
    expect(cache.get('h1', 1000)?.apiKeyId).toBe('k1');
    expect(cache.get('h1', 1001)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('evicts by key id (revocation) and clears entirely', () => {
    const cache = new KeyCache(10, 1000);
    cache.set('h1', entry('k1'));
    cache.set('h2', entry('k2'));
    cache.evictId('k1');
    expect(cache.get('h1', 0)).toBeUndefined();
    expect(cache.get('h2', 0)).toBeDefined();
    cache.clear();
    expect(cache.size).toBe(0);
  });

  it('drops the oldest entry beyond its capacity', () => {
    const cache = new KeyCache(2, 1000);
    cache.set('h1', entry('k1'));
    cache.set('h2', entry('k2'));
    cache.set('h3', entry('k3'));
    expect(cache.get('h1', 0)).toBeUndefined();
    expect(cache.size).toBe(2);
  });
});
