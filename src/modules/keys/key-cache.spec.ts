import { KeyCache } from './key-cache';

const entry = (id: string, cachedAt = 0) => ({ apiKeyId: id, accountId: 'acct', revoked: false, cachedAt });

describe('KeyCache', () => {
  it('returns entries until their TTL, then forgets them', () => {
    const cache = new KeyCache(10, 1000);
    cache.set('h1', entry('k1', 0), cache.generation);
    expect(cache.get('h1', 1000)?.apiKeyId).toBe('k1');
    expect(cache.get('h1', 1001)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('evicts by key id (revocation) and clears entirely', () => {
    const cache = new KeyCache(10, 1000);
    cache.set('h1', entry('k1'), cache.generation);
    cache.set('h2', entry('k2'), cache.generation);
    cache.evictId('k1');
    expect(cache.get('h1', 0)).toBeUndefined();
    expect(cache.get('h2', 0)).toBeDefined();
    cache.clear();
    expect(cache.size).toBe(0);
  });

  it('drops the oldest entry beyond its capacity', () => {
    const cache = new KeyCache(2, 1000);
    cache.set('h1', entry('k1'), cache.generation);
    cache.set('h2', entry('k2'), cache.generation);
    cache.set('h3', entry('k3'), cache.generation);
    expect(cache.get('h1', 0)).toBeUndefined();
    expect(cache.size).toBe(2);
  });

  it('stores nothing read before a revocation that arrived while the read was in flight', () => {
    const cache = new KeyCache(10, 1000);
    const beforeRead = cache.generation;
    // The key is not cached yet, so the eviction finds nothing to delete; it must still spoil the pending read.
    cache.evictId('k1');
    expect(cache.set('h1', entry('k1'), beforeRead)).toBe(false);
    expect(cache.get('h1', 0)).toBeUndefined();

    const afterRevocation = cache.generation;
    expect(cache.set('h1', { ...entry('k1'), revoked: true }, afterRevocation)).toBe(true);
    expect(cache.get('h1', 0)?.revoked).toBe(true);
  });

  it('stores nothing read before the cache was cleared (revocations may have been missed)', () => {
    const cache = new KeyCache(10, 1000);
    const beforeRead = cache.generation;
    cache.clear();
    expect(cache.set('h1', entry('k1'), beforeRead)).toBe(false);
    expect(cache.size).toBe(0);
  });

  it('keeps reads that no eviction overlapped', () => {
    const cache = new KeyCache(10, 1000);
    cache.evictId('k9');
    const beforeRead = cache.generation;
    expect(cache.set('h1', entry('k1'), beforeRead)).toBe(true);
    expect(cache.get('h1', 0)?.apiKeyId).toBe('k1');
  });
});
