import type { RedisService } from '../../infra/redis/redis.service';
import type { ScanEvent } from './scan-event';

/** Far more entries than a scan writes (about ten per run); past it the oldest go, and resuming before them falls back. */
export const SCAN_EVENT_LOG_MAX_LENGTH = 1000;
/** A log lives this long after its last entry; a reconnect after that gets the stored state, as a fresh stream does. */
export const SCAN_EVENT_LOG_TTL_MS = 24 * 60 * 60 * 1000;
/** The position before a scan's first event: a stream that opened on an empty log gave its client this id. */
export const LOG_START = '0-0';

/** An event with its id in the scan's log (a Redis stream id, `<ms>-<seq>`). */
export interface LoggedEvent {
  id: string;
  event: ScanEvent;
}

// Appends and publishes in one step, so subscribers hear events in log order with their ids. A scan ends once:
// nothing is appended after a terminal event, and appending another terminal event answers the logged one's id.
const APPEND_SCRIPT = `
local last = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)[1]
if last and last[2][2] ~= 'progress' then
  if ARGV[1] == 'progress' then return false end
  return last[1]
end
local id = redis.call('XADD', KEYS[1], 'MAXLEN', ARGV[4], '*', 't', ARGV[1], 'e', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
redis.call('PUBLISH', ARGV[6], id .. ' ' .. ARGV[3])
return id`;

type LoggingClient = RedisService['client'] & {
  scanEventAppend(
    key: string,
    type: string,
    logged: string,
    published: string,
    maxLength: string,
    ttlMs: string,
    channel: string,
  ): Promise<string | null>;
};

type StreamEntry = [id: string, fields: string[]];

const UINT64_MAX = 2n ** 64n - 1n;

/** A Last-Event-ID as a client sent it, if it is a well-formed log id; anything else means "no position". */
export function parseEventId(raw: unknown): string | undefined {
  if (typeof raw !== 'string') return undefined;
  const match = /^(\d{1,20})-(\d{1,20})$/.exec(raw.trim());
  if (!match || BigInt(match[1]) > UINT64_MAX || BigInt(match[2]) > UINT64_MAX) return undefined;
  return `${BigInt(match[1])}-${BigInt(match[2])}`;
}

/** Orders two log ids as the log does. */
export function compareEventIds(a: string, b: string): number {
  const [am, as] = a.split('-').map(BigInt);
  const [bm, bs] = b.split('-').map(BigInt);
  if (am !== bm) return am < bm ? -1 : 1;
  return as === bs ? 0 : as < bs ? -1 : 1;
}

/** A pub/sub message of the log (`<id> <event JSON>`); undefined for anything else. */
export function parseLogMessage(message: string): LoggedEvent | undefined {
  const space = message.indexOf(' ');
  const id = space > 0 ? parseEventId(message.slice(0, space)) : undefined;
  if (!id) return undefined;
  try {
    return { id, event: JSON.parse(message.slice(space + 1)) as ScanEvent };
  } catch {
    return undefined;
  }
}

/**
 * Each scan's events in a Redis stream (`<prefix>:scan-log:<scanId>`), shared by every process, so a client that
 * reconnects with the id of the last event it got is sent the ones it missed. The log holds a `complete` event
 * without its snapshot: a stream rebuilds a terminal event from the stored scan, as any replay does.
 */
export class ScanEventLog {
  private readonly client: LoggingClient;

  constructor(
    private readonly redis: RedisService,
    private readonly maxLength = SCAN_EVENT_LOG_MAX_LENGTH,
  ) {
    this.client = redis.client as LoggingClient;
    this.client.defineCommand('scanEventAppend', { numberOfKeys: 1, lua: APPEND_SCRIPT });
  }

  /** The pub/sub channel on which the scan's appended events are published. */
  channel(scanId: string): string {
    return this.redis.key('scan-events', scanId);
  }

  /**
   * Appends the event and publishes it with its id. Answers the id, or for a terminal event after the scan's end
   * the logged end's id; null for a progress event after the end (it is dropped). Throws when Redis fails.
   */
  async append(scanId: string, event: ScanEvent): Promise<string | null> {
    const logged = event.type === 'complete' ? { type: event.type, snapshotId: event.snapshotId } : event;
    return this.client.scanEventAppend(
      this.key(scanId),
      event.type,
      JSON.stringify(logged),
      JSON.stringify(event),
      String(this.maxLength),
      String(SCAN_EVENT_LOG_TTL_MS),
      this.channel(scanId),
    );
  }

  /** The newest entry's id and whether it ends the scan; `LOG_START` for an empty (or expired) log. */
  async last(scanId: string): Promise<{ id: string; terminal: boolean }> {
    const [entry] = (await this.client.xrevrange(this.key(scanId), '+', '-', 'COUNT', 1)) as StreamEntry[];
    return entry ? { id: entry[0], terminal: fieldsOf(entry).t !== 'progress' } : { id: LOG_START, terminal: false };
  }

  /**
   * The entries after `id`, oldest first; undefined when the log cannot tell what came after it (an id this log
   * never had, or one trimmed or expired since). `LOG_START` stands for the start while nothing has been trimmed.
   */
  async after(scanId: string, id: string): Promise<LoggedEvent[] | undefined> {
    const key = this.key(scanId);
    if (id === LOG_START) {
      const [[rangeError, entries], [lengthError, length]] = (await this.client.multi().xrange(key, '-', '+').xlen(key).exec()) as [
        [Error | null, StreamEntry[]],
        [Error | null, number],
      ];
      if (rangeError ?? lengthError) throw rangeError ?? lengthError;
      return length < this.maxLength ? entries.map(toLogged) : undefined;
    }
    const [first, ...rest] = (await this.client.xrange(key, id, '+')) as StreamEntry[];
    return first?.[0] === id ? rest.map(toLogged) : undefined;
  }

  private key(scanId: string): string {
    return this.redis.key('scan-log', scanId);
  }
}

function fieldsOf(entry: StreamEntry): Record<string, string> {
  const fields: Record<string, string> = {};
  for (let i = 0; i + 1 < entry[1].length; i += 2) fields[entry[1][i]] = entry[1][i + 1];
  return fields;
}

function toLogged(entry: StreamEntry): LoggedEvent {
  return { id: entry[0], event: JSON.parse(fieldsOf(entry).e) as ScanEvent };
}
