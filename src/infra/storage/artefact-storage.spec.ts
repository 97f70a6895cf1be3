import { CreateBucketCommand, HeadBucketCommand } from '@aws-sdk/client-s3';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { startLoopbackS3, type LoopbackS3 } from '../../../test/support/loopback-s3';
import { loadConfig } from '../../config/app-config';
import { isTransientInfraError } from '../../common/errors/transient';
import { S3_PART_SIZE, S3Storage } from './s3-storage';
import { FilesystemStorage, type ArtefactStorage } from './storage.service';

/** More than one multipart part, and not a whole number of them. */
const LARGE = S3_PART_SIZE + 1_234_567;
const patterned = (size: number) => {
  const bytes = Buffer.alloc(size);
  for (let i = 0; i < size; i++) bytes[i] = (i * 7 + (i >> 8)) % 256;
  return bytes;
};
const read = async (storage: ArtefactStorage, key: string, range?: { start: number; end: number }) => {
  const artefact = await storage.open(key);
  if (!artefact) return null;
  return { size: artefact.size, bytes: await buffer(artefact.stream(range)) };
};

let s3: LoopbackS3;
let directory: string;
beforeAll(async () => {
  s3 = await startLoopbackS3();
  directory = mkdtempSync(join(tmpdir(), 'rgs-artefacts-'));
});
afterAll(async () => {
  await s3.close();
  rmSync(directory, { recursive: true, force: true });
});

const drivers: [string, () => ArtefactStorage & { onModuleDestroy?: () => void }][] = [
  ['filesystem', () => new FilesystemStorage({ ...loadConfig({}), storageDir: directory })],
  ['s3', () => new S3Storage(s3.settings({ keyPrefix: 'tenant/' }))],
];

// One contract, both drivers: what the download and retention code relies on does not depend on where bytes live.
describe.each(drivers)('ArtefactStorage contract: %s driver', (_name, make) => {
  let storage: ReturnType<typeof make>;
  beforeAll(() => (storage = make()));
  afterAll(() => storage.onModuleDestroy?.());

  const body = patterned(1000);

  it('round-trips bytes and reports their size', async () => {
    await storage.put('exports/a/1/run-report.pdf', body);
    expect(await read(storage, 'exports/a/1/run-report.pdf')).toEqual({ size: 1000, bytes: body });
  });

  it('streams an upload larger than one multipart part', async () => {
    const large = patterned(LARGE);
    // Chunks that do not line up with the part size, as a renderer or provider stream would give them.
    const chunks = [large.subarray(0, 1_000_003), large.subarray(1_000_003, 5_500_000), large.subarray(5_500_000)];
    await storage.put('exports/a/2/run-video.mp4', Readable.from(chunks));
    const stored = await read(storage, 'exports/a/2/run-video.mp4');
    expect(stored!.size).toBe(LARGE);
    expect(stored!.bytes.equals(large)).toBe(true);
  });

  it('reads ranges: the first bytes, the middle, a suffix, an end past the size', async () => {
    await storage.put('exports/a/3/run-audio.mp3', body);
    expect((await read(storage, 'exports/a/3/run-audio.mp3', { start: 0, end: 9 }))!.bytes).toEqual(body.subarray(0, 10));
    expect((await read(storage, 'exports/a/3/run-audio.mp3', { start: 400, end: 599 }))!.bytes).toEqual(body.subarray(400, 600));
    // `bytes=-100` as the download code resolves it against the size.
    expect((await read(storage, 'exports/a/3/run-audio.mp3', { start: 900, end: 999 }))!.bytes).toEqual(body.subarray(900));
    expect((await read(storage, 'exports/a/3/run-audio.mp3', { start: 990, end: 5000 }))!.bytes).toEqual(body.subarray(990));
  });

  it('reads nothing for a range that starts past the end', async () => {
    await storage.put('exports/a/4/run-audio.mp3', body);
    expect((await read(storage, 'exports/a/4/run-audio.mp3', { start: 1000, end: 1010 }))!.bytes).toHaveLength(0);
  });

  it('answers null for a key with nothing stored', async () => {
    expect(await storage.open('exports/a/none/run-x.csv')).toBeNull();
  });

  it('replaces the bytes under a key', async () => {
    await storage.put('exports/a/5/run.csv', body);
    await storage.put('exports/a/5/run.csv', Buffer.from('second'));
    expect(await read(storage, 'exports/a/5/run.csv')).toEqual({ size: 6, bytes: Buffer.from('second') });
  });

  it('deletes, and deleting what is not there is not an error', async () => {
    await storage.put('exports/a/6/run.csv', body);
    await storage.delete('exports/a/6/run.csv');
    expect(await storage.open('exports/a/6/run.csv')).toBeNull();
    await expect(storage.delete('exports/a/6/run.csv')).resolves.toBeUndefined();
    await expect(storage.delete('exports/never/written.csv')).resolves.toBeUndefined();
  });

  it('lets an opened artefact be closed without reading it', async () => {
    await storage.put('exports/a/7/run.csv', body);
    const artefact = await storage.open('exports/a/7/run.csv');
    await expect(artefact!.close()).resolves.toBeUndefined();
  });

  it('refuses keys that could leave their namespace', async () => {
    await expect(storage.put('../escape', body)).rejects.toThrow(/unsafe storage key/);
    await expect(storage.open('/absolute')).rejects.toThrow(/unsafe storage key/);
  });
});

describe('S3Storage', () => {
  it('uploads a body larger than one part as a multipart upload, and a small one in one PUT', async () => {
    const storage = new S3Storage(s3.settings({ keyPrefix: 'parts/' }));
    try {
      await storage.put('exports/a/large/run.mp4', Readable.from([patterned(LARGE)]));
      await storage.put('exports/a/small/run.csv', Buffer.from('small'));
      expect(s3.writes.filter((write) => write.key.startsWith('parts/'))).toEqual([
        { key: 'parts/exports/a/large/run.mp4', multipart: true },
        { key: 'parts/exports/a/small/run.csv', multipart: false },
      ]);
      expect((await storage.open('exports/a/large/run.mp4'))!.size).toBe(LARGE);
    } finally {
      storage.onModuleDestroy();
    }
  });

  it('stores every object under the configured key prefix', async () => {
    const storage = new S3Storage(s3.settings({ keyPrefix: 'deployment-b/' }));
    try {
      await storage.put('exports/acct/job/run-file.csv', Buffer.from('x'));
      expect(await s3.keys('deployment-b/')).toEqual(['deployment-b/exports/acct/job/run-file.csv']);
      await storage.delete('exports/acct/job/run-file.csv');
      expect(await s3.keys('deployment-b/')).toEqual([]);
    } finally {
      storage.onModuleDestroy();
    }
  });

  it('creates a missing bucket at start when configured to, and refuses to start without it otherwise', async () => {
    const creating = new S3Storage(s3.settings({ bucket: 'created-at-start', createBucket: true }));
    const refusing = new S3Storage(s3.settings({ bucket: 'never-created' }));
    try {
      await creating.onModuleInit();
      await expect(s3.client.send(new HeadBucketCommand({ Bucket: 'created-at-start' }))).resolves.toBeDefined();
      await creating.onModuleInit(); // already there: nothing to do
      await expect(refusing.onModuleInit()).rejects.toThrow(/S3 bucket "never-created" does not exist.*S3_CREATE_BUCKET=true/);
    } finally {
      creating.onModuleDestroy();
      refusing.onModuleDestroy();
    }
  });

  it('starts against an existing bucket', async () => {
    await s3.client.send(new CreateBucketCommand({ Bucket: 'provisioned' }));
    const storage = new S3Storage(s3.settings({ bucket: 'provisioned' }));
    try {
      await expect(storage.onModuleInit()).resolves.toBeUndefined();
    } finally {
      storage.onModuleDestroy();
    }
  });
});

describe('S3Storage when the service answers that it cannot serve now', () => {
  let overloaded: Server;
  let endpoint: string;
  beforeAll(async () => {
    overloaded = createServer((req, res) => {
      req.resume();
      res.writeHead(503, { 'content-type': 'application/xml' });
      res.end(
        '<?xml version="1.0" encoding="UTF-8"?><Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>',
      );
    });
    await new Promise<void>((done) => overloaded.listen(0, '127.0.0.1', done));
    endpoint = `http://127.0.0.1:${(overloaded.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((done) => overloaded.close(() => done())));

  it('fails reads, writes and deletes as a backing-service outage once the SDK has retried', async () => {
    const storage = new S3Storage(s3.settings({ endpoint }));
    try {
      for (const attempt of [
        () => storage.open('exports/a/b/c.csv'),
        () => storage.put('exports/a/b/c.csv', Buffer.from('x')),
        () => storage.delete('exports/a/b/c.csv'),
      ]) {
        const error = await attempt().then(
          () => undefined,
          (failure: unknown) => failure,
        );
        expect(error).toMatchObject({ name: 'StorageUnavailableError' });
        expect(isTransientInfraError(error)).toBe(true);
      }
    } finally {
      storage.onModuleDestroy();
    }
  });
});

// Last: it stops the shared server.
describe('S3Storage when the service is unreachable', () => {
  it('fails reads, writes and deletes as a backing-service outage (503 on a download, a retried export job)', async () => {
    const storage = new S3Storage(s3.settings());
    try {
      await storage.put('exports/acct/job/run.csv', Buffer.from('x'));
      await s3.stop();
      for (const attempt of [
        () => storage.open('exports/acct/job/run.csv'),
        () => storage.put('exports/acct/job/run2.csv', Buffer.from('y')),
        () => storage.delete('exports/acct/job/run.csv'),
      ]) {
        const error = await attempt().then(
          () => undefined,
          (failure: unknown) => failure,
        );
        expect(error).toMatchObject({ name: 'StorageUnavailableError' });
        expect(isTransientInfraError(error)).toBe(true);
      }
      // Starting during an outage is allowed: the outage is met per request, like any other.
      await expect(storage.onModuleInit()).resolves.toBeUndefined();
    } finally {
      storage.onModuleDestroy();
    }
  });
});
