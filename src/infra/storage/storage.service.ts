import { Inject, Injectable } from '@nestjs/common';
import { createWriteStream } from 'node:fs';
import { mkdir, open, rename, rm, writeFile, type FileHandle } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { randomUUID } from 'node:crypto';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';

/**
 * Where artefact bytes live: files under STORAGE_DIR (the default) or objects in an S3-compatible bucket
 * (s3-storage.ts), chosen by STORAGE_DRIVER in storage.module.ts. Failures of the store itself are
 * StorageUnavailableError (a 503 on a download, a retried export job); a missing object is never an error.
 */
export interface ArtefactStorage {
  /** Stores the whole body under the key, replacing what was there; readers never see part of it. */
  put(key: string, body: Buffer | Readable): Promise<void>;
  /**
   * The stored bytes, held open so that what `size` says is what `stream` sends even if the key is deleted or
   * replaced meanwhile (an object store cannot hold an object: it then cuts the stream short rather than send
   * other bytes); null when there is nothing readable under the key. The caller must either stream (the
   * stream releases the object when it ends, fails or is destroyed) or `close`.
   */
  open(key: string): Promise<StoredArtefact | null>;
  delete(key: string): Promise<void>;
}

export interface StoredArtefact {
  size: number;
  /** Call at most once; `end` is inclusive (clamped to the size; a range starting past the end is empty). */
  stream(range?: { start: number; end: number }): Readable;
  close(): Promise<void>;
}

export const ARTEFACT_STORAGE = Symbol('ARTEFACT_STORAGE');

/** Files under STORAGE_DIR, written to a temporary name and renamed, so a reader never sees half a file. */
@Injectable()
export class FilesystemStorage implements ArtefactStorage {
  private readonly root: string;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.root = resolve(config.storageDir);
  }

  async put(key: string, body: Buffer | Readable): Promise<void> {
    const path = this.path(key);
    await mkdir(dirname(path), { recursive: true });
    const temporary = `${path}.${randomUUID()}.tmp`;
    try {
      if (Buffer.isBuffer(body)) await writeFile(temporary, body);
      else await pipeline(body, createWriteStream(temporary));
      await rename(temporary, path);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  }

  async open(key: string): Promise<StoredArtefact | null> {
    let handle: FileHandle;
    try {
      handle = await open(this.path(key), 'r');
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
    try {
      const stats = await handle.stat();
      // A directory (or anything else) where the file should be opens but cannot be read: no bytes.
      if (!stats.isFile()) {
        await handle.close();
        return null;
      }
      return {
        size: stats.size,
        stream: (range) => handle.createReadStream({ start: range?.start, end: range?.end, autoClose: true }),
        close: () => handle.close(),
      };
    } catch (error) {
      await handle.close().catch(() => undefined);
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.path(key), { force: true });
  }

  private path(key: string): string {
    return join(this.root, safeStorageKey(key));
  }
}

/** The key, if it stays inside its namespace (a directory, a bucket prefix); throws otherwise. */
export function safeStorageKey(key: string): string {
  if (!/^[a-z0-9][a-z0-9/_.-]*$/i.test(key) || key.includes('..')) throw new Error(`unsafe storage key ${key}`);
  return key;
}

const MISSING_CODES = new Set(['ENOENT', 'ENOTDIR', 'EISDIR']);

function isMissing(error: unknown): boolean {
  return MISSING_CODES.has((error as NodeJS.ErrnoException | undefined)?.code ?? '');
}
