import {
  CreateBucketCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { PassThrough, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { S3StorageSettings } from '../../config/app-config';
import { StorageUnavailableError } from './storage-unavailable.error';
import { safeStorageKey, type ArtefactStorage, type StoredArtefact } from './storage.service';

/** Multipart part size: bodies above it upload in parts of this size, PART_QUEUE at a time (lib-storage). */
export const S3_PART_SIZE = 8 * 1024 * 1024;
const PART_QUEUE = 4;

/**
 * Objects in an S3-compatible bucket (AWS S3, MinIO, Cloudflare R2, GCS interoperability): `<prefix><key>`.
 * Uploads stream through lib-storage (one PUT, or a multipart upload for large bodies, aborted on failure);
 * downloads are a HEAD for the size and a ranged GET pinned to the ETag that HEAD saw.
 */
export class S3Storage implements ArtefactStorage, OnModuleInit, OnModuleDestroy {
  private readonly client: S3Client;
  private readonly logger = new Logger('S3Storage');

  constructor(private readonly settings: S3StorageSettings) {
    this.client = new S3Client({
      region: settings.region,
      endpoint: settings.endpoint,
      forcePathStyle: settings.forcePathStyle,
      credentials: settings.credentials,
      // Checksums only where an operation requires them: the SDK's default (CRC32 trailers on every upload) is not
      // understood by every S3-compatible service (older MinIO, GCS interoperability).
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      maxAttempts: 3,
      requestHandler: { connectionTimeout: 5000, requestTimeout: 30000 },
    });
  }

  /** Checks the bucket; creates it when S3_CREATE_BUCKET says so. An unreachable service does not stop start-up. */
  async onModuleInit(): Promise<void> {
    const { bucket, endpoint, createBucket } = this.settings;
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: bucket }));
      return;
    } catch (error) {
      if (!isNotFound(error)) {
        // Down, or credentials limited to objects (HeadBucket needs s3:ListBucket): each request meets it then.
        this.logger.warn({ bucket, err: String(error) }, 'could not check the artefact bucket at start-up');
        return;
      }
    }
    if (!createBucket) {
      throw new Error(`S3 bucket "${bucket}" does not exist${endpoint ? ` at ${endpoint}` : ''}; create it or set S3_CREATE_BUCKET=true`);
    }
    try {
      await this.client.send(new CreateBucketCommand({ Bucket: bucket }));
      this.logger.log({ bucket }, 'created the artefact bucket');
    } catch (error) {
      // Another process starting at the same time created it first.
      if (!(error instanceof S3ServiceException && /BucketAlready(OwnedByYou|Exists)/.test(error.name))) throw error;
    }
  }

  onModuleDestroy(): void {
    this.client.destroy();
  }

  async put(key: string, body: Buffer | Readable): Promise<void> {
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.settings.bucket, Key: this.objectKey(key), Body: body },
      partSize: S3_PART_SIZE,
      queueSize: PART_QUEUE,
    });
    try {
      await upload.done();
    } catch (error) {
      throw outage(error, 'put', key) ?? error;
    }
  }

  async open(key: string): Promise<StoredArtefact | null> {
    const objectKey = this.objectKey(key);
    let size: number;
    let etag: string | undefined;
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.settings.bucket, Key: objectKey }));
      size = head.ContentLength ?? 0;
      etag = head.ETag;
    } catch (error) {
      if (isNotFound(error)) return null;
      throw outage(error, 'open', key) ?? error;
    }
    return {
      size,
      stream: (range) => this.read(objectKey, etag, size, range),
      // Nothing is held between HEAD and GET.
      close: async () => undefined,
    };
  }

  async delete(key: string): Promise<void> {
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.settings.bucket, Key: this.objectKey(key) }));
    } catch (error) {
      // S3 answers 204 for a missing key; some compatible services answer 404.
      if (isNotFound(error)) return;
      throw outage(error, 'delete', key) ?? error;
    }
  }

  /**
   * The object's bytes (or a range, clamped to `size` as a file read would be). If-Match: an object replaced since
   * HEAD fails (412) and the stream is cut, never spliced from two versions. Destroying the stream aborts the GET.
   */
  private read(objectKey: string, etag: string | undefined, size: number, range?: { start: number; end: number }): Readable {
    const out = new PassThrough();
    if (range && range.start >= size) {
      out.end();
      return out;
    }
    const aborted = new AbortController();
    out.once('close', () => aborted.abort());
    this.client
      .send(
        new GetObjectCommand({
          Bucket: this.settings.bucket,
          Key: objectKey,
          IfMatch: etag,
          Range: range ? `bytes=${range.start}-${Math.min(range.end, size - 1)}` : undefined,
        }),
        { abortSignal: aborted.signal },
      )
      .then((object) => pipeline(object.Body as Readable, out))
      .catch((error: unknown) => out.destroy(outage(error, 'read', objectKey) ?? (error as Error)));
    return out;
  }

  private objectKey(key: string): string {
    return `${this.settings.keyPrefix}${safeStorageKey(key)}`;
  }
}

function isNotFound(error: unknown): boolean {
  if (!(error instanceof S3ServiceException)) return false;
  return error.$metadata.httpStatusCode === 404 || ['NotFound', 'NoSuchKey', 'NoSuchBucket'].includes(error.name);
}

/**
 * The error as a StorageUnavailableError when the store is down or overloaded (no answer, 5xx, 429 or throttling);
 * undefined for an answer that says the request is wrong (403, 400…), which is a bug or a misconfiguration.
 */
function outage(error: unknown, operation: string, key: string): StorageUnavailableError | undefined {
  const sdk = error as { $metadata?: { httpStatusCode?: number }; name?: string } | undefined;
  if (!sdk?.$metadata) return undefined;
  const status = sdk.$metadata.httpStatusCode;
  const unavailable = status === undefined || status >= 500 || status === 429 || /SlowDown|Throttl|Timeout/.test(sdk.name ?? '');
  return unavailable ? new StorageUnavailableError(operation, key, error) : undefined;
}
