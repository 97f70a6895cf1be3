import { delay } from './delay';
import type { RegScanApi, Schemas } from './regscan-api';
import { RegScanProblem } from './regscan-problem';
import { SseParser } from './sse-parser';

/** One message of GET /v1/scans/{id}/stream (../shared/spec/api-v1.md, "Events"); all but `progress` end the scan. */
export type ScanEvent =
  | ({ type: 'progress' } & Schemas['ScanProgressDto'])
  | { type: 'complete'; snapshotId: string; data: Schemas['SnapshotDto']['data'] }
  | { type: 'error'; error: string }
  | { type: 'cancelled' };

const EVENT_TYPES = new Set<string>(['progress', 'complete', 'error', 'cancelled'] satisfies ScanEvent['type'][]);
const MAX_RECONNECT_DELAY_MS = 30_000;

export interface StreamScanOptions {
  signal?: AbortSignal;
  /** Resume after this event id (sent as Last-Event-ID); later ids from the server replace it. */
  lastEventId?: string;
  /** Wait before reconnecting, until the server sets one with `retry:`; doubled per consecutive failure. */
  reconnectDelayMs?: number;
  /** Consecutive reconnects without a single event before giving up. */
  maxReconnects?: number;
}

type Connection = { body: ReadableStream<Uint8Array> } | { retryAfterMs?: number; failure?: unknown };

/**
 * Follows a scan's event stream until its terminal event, reconnecting when the connection drops or the server
 * sends it away (draining, a stream cap) and resuming with Last-Event-ID when the server gave ids. Leaving the
 * loop early (break, or aborting `signal`) closes the connection. Throws RegScanProblem on a refusal that retrying
 * cannot fix (401, 404), and `signal.reason` when aborted.
 */
export async function* streamScan(
  api: RegScanApi,
  scanId: string,
  options: StreamScanOptions = {},
): AsyncGenerator<ScanEvent, void, undefined> {
  const { signal, maxReconnects = 5 } = options;
  let lastEventId = options.lastEventId ?? '';
  let reconnectDelayMs = options.reconnectDelayMs ?? 1000;
  let failures = 0;
  let lastFailure: unknown;
  for (;;) {
    const connection = await connect(api, scanId, lastEventId, signal);
    let waitMs = 0;
    if ('body' in connection) {
      const parser = new SseParser(lastEventId);
      const reader = connection.body.getReader();
      const decoder = new TextDecoder();
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          for (const message of parser.push(decoder.decode(value, { stream: true }))) {
            const event = parseEvent(message.data);
            if (!event) continue;
            failures = 0;
            yield event;
            if (event.type !== 'progress') return;
          }
        }
      } catch (error) {
        if (signal?.aborted) throw signal.reason;
        lastFailure = error;
      } finally {
        lastEventId = parser.lastEventId;
        reconnectDelayMs = parser.retryMs ?? reconnectDelayMs;
        await reader.cancel().catch(() => undefined);
      }
    } else {
      lastFailure = connection.failure ?? lastFailure;
      waitMs = connection.retryAfterMs ?? 0;
    }
    failures += 1;
    if (failures > maxReconnects) {
      throw new Error(`The stream of scan ${scanId} dropped ${failures} times in a row without an event`, { cause: lastFailure });
    }
    await delay(Math.max(waitMs, Math.min(reconnectDelayMs * 2 ** (failures - 1), MAX_RECONNECT_DELAY_MS)), signal);
  }
}

async function connect(api: RegScanApi, scanId: string, lastEventId: string, signal: AbortSignal | undefined): Promise<Connection> {
  try {
    const { data, error, response } = await api.GET('/v1/scans/{id}/stream', {
      params: { path: { id: scanId } },
      headers: { Accept: 'text/event-stream', 'Last-Event-ID': lastEventId || undefined },
      parseAs: 'stream',
      signal,
    });
    if (response.ok && data) return { body: data };
    const problem = RegScanProblem.from(error, response);
    if (!problem.retryable) throw problem;
    return { retryAfterMs: problem.retryAfterMs, failure: problem };
  } catch (error) {
    if (error instanceof RegScanProblem || signal?.aborted) throw error;
    // A network failure (server restarting, connection refused): retried like a dropped stream.
    return { failure: error };
  }
}

function parseEvent(data: string): ScanEvent | undefined {
  try {
    const event: unknown = JSON.parse(data);
    // Types a newer server may add are skipped rather than handed out under a union that does not name them.
    if (typeof event === 'object' && event !== null && EVENT_TYPES.has((event as { type?: unknown }).type as string))
      return event as ScanEvent;
  } catch {
    // Not JSON: nothing this client can hand out.
  }
  return undefined;
}
