import { APP_CONFIG, type AppConfig } from '../src/config/app-config';
import { pollUntil } from './support/poll';
import { openSse, type SseCapture } from './support/sse';
import { bootTestApp, newAccount, type TestApp } from './support/test-app';

const CONFIG = { jurisdictions: ['EU', 'UK'], areas: ['AML / KYC', 'Payments'], horizon: 12 };

interface Frame {
  id: string | undefined;
  event: Record<string, unknown>;
}

/** Every event of a captured stream with the `id:` it came with. */
const framesOf = (stream: SseCapture): Frame[] => stream.events.map((event, i) => ({ id: stream.ids[i], event }));

/** Redis stream ids (`<ms>-<seq>`) in order. */
const compareIds = (a: string, b: string) => {
  const [am, as] = a.split('-').map(BigInt);
  const [bm, bs] = b.split('-').map(BigInt);
  return am === bm ? Number(as - bs) : Number(am - bm);
};
const expectIncreasing = (frames: Frame[]) => {
  for (const frame of frames) expect(frame.id).toMatch(/^\d+-\d+$/);
  for (let i = 1; i < frames.length; i++) expect(compareIds(frames[i].id!, frames[i - 1].id!)).toBeGreaterThan(0);
};
/** What a client compares: a progress event whole, a terminal event by its type and snapshot. */
const comparable = (frames: Frame[]) =>
  frames.map(({ id, event }) => ({ id, event: event.type === 'complete' ? { type: 'complete', snapshotId: event.snapshotId } : event }));

describe('resuming a scan stream (Last-Event-ID)', () => {
  let t: TestApp;
  let config: AppConfig;
  let baseUrl: string;
  let savedStepMs: number;

  beforeAll(async () => {
    t = await bootTestApp();
    await t.app.listen(0, '127.0.0.1');
    baseUrl = `http://127.0.0.1:${(t.app.getHttpServer().address() as { port: number }).port}`;
    config = t.app.get(APP_CONFIG);
    savedStepMs = config.offlineStepMs;
  });
  afterEach(() => (config.offlineStepMs = savedStepMs));
  afterAll(() => t.close());

  const asyncScan = async () => {
    const { apiKey } = await newAccount(t);
    const auth = { Authorization: `Bearer ${apiKey}` };
    const response = await t.http().post('/v1/scans?mode=async').set(auth).send(CONFIG).expect(202);
    return { path: response.body.stream_url as string, auth };
  };
  /** A scan run to its end while an uninterrupted stream watched it; that stream's frames. */
  const finishedScan = async () => {
    config.offlineStepMs = 20;
    const scan = await asyncScan();
    const watcher = await openSse(baseUrl, scan.path, scan.auth);
    await watcher.ended;
    return { ...scan, frames: framesOf(watcher) };
  };

  it('gives a client that reconnects every event it missed, once and in order, then the live ones through complete', async () => {
    config.offlineStepMs = 150;
    const { path, auth } = await asyncScan();
    const watcher = await openSse(baseUrl, path, auth);
    const client = await openSse(baseUrl, path, auth);
    await pollUntil(async () => client.events.length >= 3, 15000, 5);
    client.close();
    const before = framesOf(client).slice(0, 3);
    const lastSeen = before[before.length - 1].id!;
    // Events go by while the client is away.
    await pollUntil(async () => framesOf(watcher).filter((frame) => compareIds(frame.id!, lastSeen) > 0).length >= 2, 15000, 5);

    const resumed = await openSse(baseUrl, path, { ...auth, 'Last-Event-ID': lastSeen });
    expect(resumed.status).toBe(200);
    await resumed.ended;
    await watcher.ended;
    const after = framesOf(resumed);
    const all = [...before, ...after];
    expectIncreasing(all);
    expect(after[0].id).not.toBe(lastSeen);
    expect(all.filter((frame) => frame.event.type === 'complete')).toHaveLength(1);
    expect(all[all.length - 1].event.type).toBe('complete');
    // Nothing missing: the same events as a client that never left, from the first one both have.
    const watched = framesOf(watcher);
    expectIncreasing(watched);
    expect(comparable(after)).toEqual(comparable(watched.filter((frame) => compareIds(frame.id!, lastSeen) > 0)));
  });

  it('takes the last event id from the lastEventId query parameter too; the header wins over it', async () => {
    const { path, auth, frames } = await finishedScan();
    const lastProgress = frames[frames.length - 2];
    expect(lastProgress.event.type).toBe('progress');
    const byQuery = await openSse(baseUrl, `${path}?lastEventId=${lastProgress.id}`, auth);
    await byQuery.ended;
    expect(framesOf(byQuery).map((frame) => frame.event.type)).toEqual(['complete']);
    const first = frames[0].id!;
    const both = await openSse(baseUrl, `${path}?lastEventId=${lastProgress.id}`, { ...auth, 'Last-Event-ID': first });
    await both.ended;
    expect(comparable(framesOf(both))).toEqual(comparable(frames.slice(1)));
  });

  it('replays the terminal event, with the same id, to a client that reconnects after it', async () => {
    const { path, auth, frames } = await finishedScan();
    const complete = frames[frames.length - 1];
    expect(complete.event.type).toBe('complete');
    for (let attempt = 0; attempt < 2; attempt++) {
      const again = await openSse(baseUrl, path, { ...auth, 'Last-Event-ID': complete.id! });
      await again.ended;
      expect(comparable(framesOf(again))).toEqual(comparable([complete]));
    }
  });

  it('treats an unknown, malformed or foreign Last-Event-ID as a fresh subscription', async () => {
    const { path, auth, frames } = await finishedScan();
    const other = await finishedScan();
    for (const lastEventId of ['garbage', '1-0', '99999999999999999999999-0', '-1-0', ' ', other.frames[1].id!]) {
      const fresh = await openSse(baseUrl, path, { ...auth, 'Last-Event-ID': lastEventId });
      expect(fresh.status).toBe(200);
      await fresh.ended;
      const got = framesOf(fresh);
      expect(got.map((frame) => frame.event.type)).toEqual(['complete']);
      expect(got[0].id).toBe(frames[frames.length - 1].id);
    }
    const byQuery = await openSse(baseUrl, `${path}?lastEventId=%00&lastEventId=x`, auth);
    expect(byQuery.status).toBe(200);
    await byQuery.ended;
    expect(framesOf(byQuery).map((frame) => frame.event.type)).toEqual(['complete']);
  });

  it('sends a running scan its current state with an id first, then live events with greater ids', async () => {
    config.offlineStepMs = 100;
    const { path, auth } = await asyncScan();
    const stream = await openSse(baseUrl, path, { ...auth, 'Last-Event-ID': 'not-an-id' });
    await stream.ended;
    const frames = framesOf(stream);
    expect(frames[0].event.type).toBe('progress');
    expect(frames.length).toBeGreaterThanOrEqual(3);
    expectIncreasing(frames);
    expect(frames[frames.length - 1].event.type).toBe('complete');
  });
});
