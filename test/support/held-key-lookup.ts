import { KeysRepository } from '../../src/modules/keys/keys.repository';
import type { TestApp } from './test-app';

export interface HeldKeyLookup {
  /** Resolves once the next key lookup has read its row from the database. */
  read: Promise<void>;
  /** Lets that lookup return its (possibly stale) row. */
  release(): void;
  restore(): void;
}

/**
 * Holds the next API-key lookup of this app after it has read the database and before it returns: the
 * interleaving of a revocation racing a lookup, forced without a test hook in production code.
 */
export function holdNextKeyLookup(t: TestApp): HeldKeyLookup {
  const repository = t.app.get(KeysRepository);
  const findByHash = repository.findByHash.bind(repository);
  let readDone!: () => void;
  const read = new Promise<void>((resolve) => (readDone = resolve));
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const spy = jest.spyOn(repository, 'findByHash').mockImplementationOnce(async (hash) => {
    const row = await findByHash(hash);
    readDone();
    await released;
    return row;
  });
  return { read, release, restore: () => spy.mockRestore() };
}
