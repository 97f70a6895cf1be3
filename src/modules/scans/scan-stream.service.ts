import { Inject, Injectable, Logger } from '@nestjs/common';
import { transientError } from '../../common/errors/api-error';
import { DrainService } from '../../common/lifecycle/drain.service';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import type { Scan } from './entities/scan.entity';
import type { ScanEventSink } from './http/sse-response';
import { isTerminal, type ScanEvent } from './scan-event';
import { compareEventIds, LOG_START, parseEventId, type LoggedEvent } from './scan-event-log';
import { ScanEventsService } from './scan-events.service';
import { ScansRepository } from './scans.repository';
import { ScansService } from './scans.service';
import { StreamSlotsService } from './stream-slots.service';

/** What a client told to leave (server draining) waits before reconnecting, through the SSE `retry:` field. */
const RECONNECT_HINT_MS = 2000;

const EVENTS_UNAVAILABLE = 'Live scan events are temporarily unavailable; retry shortly or poll the scan';

/**
 * GET /v1/scans/{id}/stream: server-sent events, `id:` and `data:` lines, heartbeat comments, one terminal event.
 * Each event's id is its place in the scan's log (ScanEventLog), so a client that reconnects with Last-Event-ID
 * gets the logged events after it, then live ones; without one, or with one the log cannot place, it gets the
 * current state first, as a fresh subscription does. The stored scan is the truth: a stream that may have missed
 * an event (Redis gap, lost publish) re-reads the log and the scan, and every heartbeat does too, so a client
 * always gets its terminal event or a clean close.
 */
@Injectable()
export class ScanStreamService {
  private readonly logger = new Logger('ScanStreamService');

  constructor(
    private readonly events: ScanEventsService,
    private readonly scans: ScansService,
    private readonly repository: ScansRepository,
    private readonly slots: StreamSlotsService,
    private readonly drain: DrainService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  get openStreams(): number {
    return this.slots.openStreams;
  }

  /**
   * Throws (a problem document, nothing written yet) when the stream cannot be served: caps, Redis down, draining.
   * `lastEventId` is as the client sent it: anything that is not an id of this scan's log counts as none.
   */
  async open(scan: Scan, subject: string, sink: ScanEventSink, lastEventId?: unknown): Promise<void> {
    const resumeFrom = parseEventId(lastEventId);
    const slot = await this.slots.acquire(subject);
    let closed = false;
    let unsubscribe = () => {};
    let heartbeat: NodeJS.Timeout | undefined;
    const cleanup = () => {
      if (closed) return;
      closed = true;
      clearInterval(heartbeat);
      unsubscribe();
      slot.release();
      this.drain.signal.removeEventListener('abort', leave);
    };
    const end = (reconnectAfterMs?: number) => {
      if (closed) return;
      cleanup();
      sink.end(reconnectAfterMs);
    };
    const leave = () => end(RECONNECT_HINT_MS);
    // A client that left while the slot was being taken has already closed; one that leaves later is heard.
    sink.onClose(cleanup);

    // The id of the last event the client has: nothing at or before it is sent again (a terminal event aside).
    let position = LOG_START;
    const emit = (event: ScanEvent, id: string) => {
      if (closed) return;
      sink.send(event, id);
      if (compareEventIds(id, position) > 0) position = id;
      if (isTerminal(event)) end();
    };
    const deliver = ({ event, id }: LoggedEvent) => {
      if (compareEventIds(id, position) > 0) emit(event, id);
    };
    // A terminal event always comes from the stored scan (the spec's projection for a replay), with its log id.
    const replay = (missed: LoggedEvent[]) => {
      for (const logged of missed) {
        if (isTerminal(logged.event)) return;
        deliver(logged);
      }
    };

    // Live events wait while the log and the scan are read, then go out in order; the ids drop the duplicates.
    const pending: LoggedEvent[] = [];
    let syncing = true;
    let syncAgain = false;
    const flush = () => {
      for (const logged of pending.splice(0)) deliver(logged);
    };
    const catchUp = async () => {
      replay((await this.events.missedSince(scan.id, position).catch(() => undefined)) ?? []);
      const current = await this.repository.findById(scan.id);
      const terminal = current ? await this.scans.storedTerminalEvent(current) : undefined;
      if (terminal) emit(terminal, await this.endId(scan.id, terminal, position));
    };
    const resync = () => {
      syncAgain = true;
      if (syncing || closed) return;
      syncing = true;
      const settle = async () => {
        while (syncAgain && !closed) {
          syncAgain = false;
          await catchUp();
        }
      };
      settle()
        .catch((error: unknown) => this.logger.warn({ scanId: scan.id, err: String(error) }, 'stream could not re-read the scan'))
        .finally(() => {
          syncing = false;
          flush();
        });
    };

    // Subscribe first, then read the log and the stored state: an event published in between is not lost.
    try {
      unsubscribe = await this.events.subscribe(scan.id, {
        onEvent: (event, id) => (syncing ? pending.push({ event, id }) : deliver({ event, id })),
        onGap: resync,
      });
    } catch (error) {
      cleanup();
      throw error;
    }
    if (closed) return unsubscribe();
    if (this.drain.draining) {
      cleanup();
      throw transientError('This server is shutting down; reconnect to follow the scan');
    }

    let missed: LoggedEvent[] | undefined;
    let current: Scan;
    let terminal: ScanEvent | undefined;
    let terminalId: string | undefined;
    try {
      missed = resumeFrom ? await this.events.missedSince(scan.id, resumeFrom).catch(() => undefined) : undefined;
      // Not resuming: the state read next is at least as new as the newest logged event, so it takes that id.
      position = resumeFrom && missed ? resumeFrom : await this.lastLoggedId(scan.id);
      current = (await this.repository.findById(scan.id)) ?? scan;
      terminal = await this.scans.storedTerminalEvent(current);
      if (terminal) terminalId = await this.endId(scan.id, terminal, position);
    } catch (error) {
      cleanup();
      throw error;
    }
    if (closed) return;
    sink.start();
    if (missed) replay(missed);
    if (terminal) return emit(terminal, terminalId!);

    this.drain.signal.addEventListener('abort', leave, { once: true });
    heartbeat = setInterval(() => {
      if (closed) return;
      sink.heartbeat();
      slot.renew();
      resync();
    }, this.config.sseHeartbeatMs);
    heartbeat.unref();
    if (!missed) emit({ type: 'progress', ...current.progress }, position);
    syncing = false;
    if (syncAgain) resync();
    else flush();
  }

  private async lastLoggedId(scanId: string): Promise<string> {
    try {
      return (await this.events.lastLogged(scanId)).id;
    } catch {
      throw transientError(EVENTS_UNAVAILABLE);
    }
  }

  /**
   * The log id of the scan's end: the logged terminal event's, else the stored end's, logged now so that every
   * stream names it alike. `fallback` (the client's position) when Redis fails: a reconnect then replays the end.
   */
  private async endId(scanId: string, terminal: ScanEvent, fallback: string): Promise<string> {
    try {
      const last = await this.events.lastLogged(scanId);
      if (last.terminal) return last.id;
    } catch {
      return fallback;
    }
    return (await this.events.publish(scanId, terminal)) ?? fallback;
  }
}
