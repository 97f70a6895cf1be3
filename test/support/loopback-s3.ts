import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import type { S3StorageSettings } from '../../src/config/app-config';

/** s3rver's fixed development credentials; it checks signatures made with them. */
const CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export interface LoopbackS3 {
  endpoint: string;
  bucket: string;
  /** A client of the test's own, to look into the bucket behind the service's back. */
  client: S3Client;
  /** Driver settings pointing at this server (override any field). */
  settings(overrides?: Partial<S3StorageSettings>): S3StorageSettings;
  /** The environment that makes the service use this server (STORAGE_DRIVER=s3 and the S3_* variables). */
  env(overrides?: Record<string, string>): Record<string, string>;
  /** How each object so far was written: `key` and `multipart` (a completed multipart upload) or not (one PUT). */
  writes: { key: string; multipart: boolean }[];
  /** Every key in the bucket under `prefix`. */
  keys(prefix?: string): Promise<string[]>;
  /** Stops the server (keeping its files): requests then meet a refused connection. */
  stop(): Promise<void>;
  /** Stops the server if still running and removes its directory. */
  close(): Promise<void>;
}

/** An S3-compatible server on a free loopback port, with a fresh data directory and one bucket. */
export async function startLoopbackS3(bucket = 'rgs-artefacts'): Promise<LoopbackS3> {
  const directory = mkdtempSync(join(tmpdir(), 'rgs-s3rver-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket, configs: [] }] });
  const writes: LoopbackS3['writes'] = [];
  // s3rver reports a completed multipart upload as ObjectCreated:Post, a single PUT as ObjectCreated:Put.
  server.on('event', (event: { Records: { eventName: string; s3: { object: { key: string } } }[] }) => {
    for (const record of event.Records) {
      if (record.eventName.startsWith('ObjectCreated'))
        writes.push({ key: record.s3.object.key, multipart: record.eventName === 'ObjectCreated:Post' });
    }
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({ region: 'us-east-1', endpoint, forcePathStyle: true, credentials: CREDENTIALS });
  let running = true;
  const stop = async () => {
    if (!running) return;
    running = false;
    await server.close();
  };
  return {
    endpoint,
    bucket,
    client,
    writes,
    settings: (overrides = {}) => ({
      bucket,
      region: 'us-east-1',
      endpoint,
      forcePathStyle: true,
      credentials: CREDENTIALS,
      keyPrefix: '',
      createBucket: false,
      ...overrides,
    }),
    env: (overrides = {}) => ({
      STORAGE_DRIVER: 's3',
      S3_BUCKET: bucket,
      S3_REGION: 'us-east-1',
      S3_ENDPOINT: endpoint,
      S3_ACCESS_KEY_ID: CREDENTIALS.accessKeyId,
      S3_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey,
      ...overrides,
    }),
    keys: async (prefix = '') => {
      const listed = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix }));
      return (listed.Contents ?? []).map((object) => object.Key!).sort();
    },
    stop,
    close: async () => {
      await stop();
      client.destroy();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
