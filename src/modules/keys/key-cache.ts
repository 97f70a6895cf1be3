/** The key a bearer token resolved to. */
export interface AuthenticatedKey {
  apiKeyId: string;
  accountId: string;
}

export interface CachedKey extends AuthenticatedKey {
  revoked: boolean;
  cachedAt: number;
}

/**
 * Bounded map from key hash to the key's identity, so authentication costs no database round trip.
 * Entries are evicted by id when any process revokes the key (Redis pub/sub), and the whole cache is
 * dropped whenever that subscription is interrupted, so a revocation is never missed.
 *
 * A database read can race an eviction: the row is read before the revocation commits, the eviction
 * arrives (finding nothing cached yet), then the stale row would be cached for the whole TTL. So every
 * eviction and clear advances `generation`; a caller takes it before reading and `set` stores nothing if
 * it has moved since. Any eviction spoils every read in flight: revocations are rare, so that costs a
 * few extra database reads, and it also covers evictions that arrive before the read's key id is known.
 */
export class KeyCache {
  private readonly byHash = new Map<string, CachedKey>();
  private readonly hashById = new Map<string, string>();
  private evictions = 0;

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

  /** Take before reading the key from the database; pass to `set`. */
  get generation(): number {
    return this.evictions;
  }

  /** Stores the entry unless an eviction happened since `generation` was taken; says whether it did. */
  set(hash: string, entry: CachedKey, generation: number): boolean {
    if (generation !== this.evictions) return false;
    if (this.byHash.size >= this.maxEntries) {
      const oldest = this.byHash.keys().next().value;
      if (oldest !== undefined) this.delete(oldest);
    }
    this.byHash.set(hash, entry);
    this.hashById.set(entry.apiKeyId, hash);
    return true;
  }

  evictId(apiKeyId: string): void {
    this.evictions++;
    const hash = this.hashById.get(apiKeyId);
    if (hash) this.delete(hash);
  }

  clear(): void {
    this.evictions++;
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
