import type { AuthenticatedKey } from './keys.service';

export interface CachedKey extends AuthenticatedKey {
  revoked: boolean;
  cachedAt: number;
}

/**
 * Bounded map from key hash to the key's identity, so authentication costs no database round trip.
 * Entries are evicted by id when any process revokes the key (Redis pub/sub), and the whole cache is
 * dropped whenever that subscription is interrupted, so a revocation is never missed.
 */
export class KeyCache {
  private readonly byHash = new Map<string, CachedKey>();
  private readonly hashById = new Map<string, string>();

  constructor(
    private readonly maxEntries: number,
    private readonly ttlMs: number,
  ) {}

  get(hash: string, now: number): CachedKey | undefined {
    const entry = this.byHash.get(hash);
    if (!entry) return undefined;
    if (now - entry.cachedAt > this.ttlMs) {
      this.delete(hash);
      return undefined;
    }
    return entry;
  }

  set(hash: string, entry: CachedKey): void {
    if (this.byHash.size >= this.maxEntries) {
      const oldest = this.byHash.keys().next().value;
      if (oldest !== undefined) this.delete(oldest);
    }
    this.byHash.set(hash, entry);
    this.hashById.set(entry.apiKeyId, hash);
  }

  evictId(apiKeyId: string): void {
    const hash = this.hashById.get(apiKeyId);
    if (hash) this.delete(hash);
  }

  clear(): void {
    this.byHash.clear();
    this.hashById.clear();
  }

  get size(): number {
    return this.byHash.size;
  }

  private delete(hash: string): void {
    const entry = this.byHash.get(hash);
    this.byHash.delete(hash);
    if (entry) this.hashById.delete(entry.apiKeyId);
  }
}
