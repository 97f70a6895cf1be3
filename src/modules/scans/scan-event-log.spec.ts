import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import { pollUntil } from '../../../test/support/poll';
import { startPrivateRedis, type PrivateRedis } from '../../../test/support/private-redis';
import type { AppConfig } from '../../config/app-config';
import { RedisService } from '../../infra/redis/redis.service';
import type { ScanEvent } from './scan-event';
import {
  compareEventIds,
  LOG_START,
  parseEventId,
  parseLogMessage,
  SCAN_EVENT_LOG_TTL_MS,
  ScanEventLog,
  type LoggedEvent,
} from './scan-event-log';

const progress = (percent: number): ScanEvent => ({ type: 'progress', phase: 'analyse', percent, message: `at ${percent}` });

describe('parseEventId', () => {
  it('accepts a log id, without its leading zeros or surrounding blanks', () => {
    expect(parseEventId('1732000000000-0')).toBe('1732000000000-0');
    expect(parseEventId(' 0017-03 ')).toBe('17-3');
    expect(parseEventId('18446744073709551615-18446744073709551615')).toBe('18446744073709551615-18446744073709551615');
  });

  it('refuses anything else', () => {
    for (const raw of ['', 'garbage', '17', '17-', '-1-0', '1.5-0', '18446744073709551616-0', '1-0-0', '999999999999999999999-0']) {
      expect(parseEventId(raw)).toBeUndefined();
    }
    for (const raw of [undefined, null, 17, ['1-0'], { id: '1-0' }]) expect(parseEventId(raw)).toBeUndefined();
  });
});

describe('compareEventIds', () => {
  it('orders by time, then by sequence, as numbers', () => {
    expect(compareEventIds('9-0', '10-0')).toBeLessThan(0);
    expect(compareEventIds('10-2', '10-10')).toBeLessThan(0);
    expect(compareEventIds('10-10', '10-2')).toBeGreaterThan(0);
    expect(compareEventIds('18446744073709551615-1', '18446744073709551615-1')).toBe(0);
    expect(compareEventIds(LOG_START, '0-1')).toBeLessThan(0);
  });
});

describe('parseLogMessage', () => {
  it('reads `<id> <event>` and nothing else', () => {
    expect(parseLogMessage('5-1 {"type":"cancelled"}')).toEqual({ id: '5-1', event: { type: 'cancelled' } });
    expect(parseLogMessage('{"type":"cancelled"}')).toBeUndefined();
    expect(parseLogMessage('5-1 {"type":')).toBeUndefined();
    expect(parseLogMessage('x {"type":"cancelled"}')).toBeUndefined();
  });
});

describe('ScanEventLog (on a real Redis)', () => {
  let server: PrivateRedis;
  let redis: RedisService;
  let listener: Redis;
  let log: ScanEventLog;
  let shortLog: ScanEventLog;
  const heard = new Map<string, LoggedEvent[]>();

  beforeAll(async () => {
    server = await startPrivateRedis();
    redis = new RedisService({ redisUrl: server.url, redisPrefix: 'log-spec' } as AppConfig);
    log = new ScanEventLog(redis);
    shortLog = new ScanEventLog(redis, 3);
    listener = new Redis(server.url);
    await listener.psubscribe('log-spec:scan-events:*');
    listener.on('pmessage', (_pattern: string, channel: string, message: string) => {
      const scanId = channel.split(':').pop()!;
      heard.set(scanId, [...(heard.get(scanId) ?? []), parseLogMessage(message)!]);
    });
  });
  afterAll(async () => {
    await listener.quit();
    await redis.onApplicationShutdown();
    await server.close();
  });

  /** Waits until `count` events of the scan have been heard on its channel. */
  const heardOn = (scanId: string, count: number) =>
    pollUntil(async () => (heard.get(scanId)?.length ?? 0) >= count && heard.get(scanId)!, 5000, 5);

  it('gives each event an increasing id and publishes it with that id, in log order', async () => {
    const scanId = randomUUID();
    const ids: string[] = [];
    for (let percent = 0; percent < 5; percent++) ids.push((await log.append(scanId, progress(percent)))!);
    for (let i = 1; i < ids.length; i++) expect(compareEventIds(ids[i], ids[i - 1])).toBeGreaterThan(0);
    expect(await heardOn(scanId, 5)).toEqual(ids.map((id, percent) => ({ id, event: progress(percent) })));
    expect(await log.last(scanId)).toEqual({ id: ids[4], terminal: false });
  });

  it('answers the events after an id it holds, and cannot place one it never held', async () => {
    const scanId = randomUUID();
    const ids: string[] = [];
    for (let percent = 0; percent < 4; percent++) ids.push((await log.append(scanId, progress(percent)))!);
    expect(await log.after(scanId, ids[1])).toEqual([
      { id: ids[2], event: progress(2) },
      { id: ids[3], event: progress(3) },
    ]);
    expect(await log.after(scanId, ids[3])).toEqual([]);
    expect(await log.after(scanId, LOG_START)).toHaveLength(4);
    expect(await log.after(scanId, '1-0')).toBeUndefined();
    expect(await log.after(randomUUID(), ids[1])).toBeUndefined();
  });

  it('starts empty: the start is position LOG_START, with nothing after it', async () => {
    const scanId = randomUUID();
    expect(await log.last(scanId)).toEqual({ id: LOG_START, terminal: false });
    expect(await log.after(scanId, LOG_START)).toEqual([]);
  });

  it('keeps at most its maximum length; an id trimmed away, or the start, can no longer be placed', async () => {
    const scanId = randomUUID();
    const ids: string[] = [];
    for (let percent = 0; percent < 5; percent++) ids.push((await shortLog.append(scanId, progress(percent)))!);
    expect(await shortLog.after(scanId, ids[0])).toBeUndefined();
    expect(await shortLog.after(scanId, LOG_START)).toBeUndefined();
    expect((await shortLog.after(scanId, ids[2]))!.map((logged) => logged.id)).toEqual(ids.slice(3));
  });

  it('expires a log a day after its last event', async () => {
    const scanId = randomUUID();
    await log.append(scanId, progress(1));
    const ttl = await redis.client.pttl(redis.key('scan-log', scanId));
    expect(ttl).toBeGreaterThan(SCAN_EVENT_LOG_TTL_MS - 60_000);
    expect(ttl).toBeLessThanOrEqual(SCAN_EVENT_LOG_TTL_MS);
  });

  it('ends once: later progress is dropped, a later end answers the first end and is not published', async () => {
    const scanId = randomUUID();
    await log.append(scanId, progress(10));
    const end = (await log.append(scanId, { type: 'cancelled' }))!;
    expect(await log.append(scanId, progress(20))).toBeNull();
    expect(await log.append(scanId, { type: 'error', error: 'late' })).toBe(end);
    expect(await log.last(scanId)).toEqual({ id: end, terminal: true });
    // Messages reach a subscriber in publish order: once a later one is heard, nothing dropped was published.
    const later = randomUUID();
    await log.append(later, progress(0));
    await heardOn(later, 1);
    expect(heard.get(scanId)!.map((logged) => logged.event.type)).toEqual(['progress', 'cancelled']);
  });

  it('publishes a complete event whole and logs it without its snapshot', async () => {
    const scanId = randomUUID();
    const start = await log.append(scanId, progress(90));
    const complete: ScanEvent = { type: 'complete', data: { items: [1, 2, 3] }, snapshotId: 'snap-1' };
    const id = (await log.append(scanId, complete))!;
    expect((await heardOn(scanId, 2))[1]).toEqual({ id, event: complete });
    expect(await log.after(scanId, start!)).toEqual([{ id, event: { type: 'complete', snapshotId: 'snap-1' } }]);
  });
});
