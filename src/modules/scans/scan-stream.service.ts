import { Inject, Injectable, Logger } from '@nestjs/common';
import { transientError } from '../../common/errors/api-error';
import { DrainService } from '../../common/lifecycle/drain.service';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import type { Scan } from './entities/scan.entity';
import type { ScanEventSink } from './http/sse-response';
import { isTerminal, ScanEventsService, type ScanEvent } from './scan-events.service';
import { ScansRepository } from './scans.repository';
import { ScansService } from './scans.service';
import { StreamSlotsService } from './stream-slots.service';

/** What a client told to leave (server draining) waits before reconnecting, through the SSE `retry:` field. */
const RECONNECT_HINT_MS = 2000;

/**
 * GET /v1/scans/{id}/stream: server-sent events, `data:` lines only, heartbeat comments, one terminal event.
 * The stored scan is the truth: a stream that may have missed an event (Redis gap, lost publish) re-reads it,
 * and every heartbeat re-checks it, so a client always gets its terminal event or a clean close.
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

  /** Throws (a problem document, nothing written yet) when the stream cannot be served: caps, Redis down, draining. */
  async open(scan: Scan, subject: string, sink: ScanEventSink): Promise<void> {
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

    const send = (event: ScanEvent) => {
      if (closed) return;
      sink.send(event);
      if (isTerminal(event)) end();
    };
    // Subscribe first, then read the stored state: an event published in between is not lost.
    const pending: ScanEvent[] = [];
    let live = false;
    const resync = () => {
      void this.storedTerminal(scan)
        .then((terminal) => terminal && send(terminal))
        .catch((error: unknown) => this.logger.warn({ scanId: scan.id, err: String(error) }, 'stream could not re-read the scan'));
    };
    try {
      unsubscribe = await this.events.subscribe(scan.id, {
        onEvent: (event) => (live ? send(event) : pending.push(event)),
        onGap: () => live && resync(),
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

    let current: Scan;
    let terminal: ScanEvent | undefined;
    try {
      current = (await this.repository.findById(scan.id)) ?? scan;
      terminal = await this.scans.storedTerminalEvent(current);
    } catch (error) {
      cleanup();
      throw error;
    }
    if (closed) return;
    sink.start();
    if (terminal) return send(terminal);

    this.drain.signal.addEventListener('abort', leave, { once: true });
    heartbeat = setInterval(() => {
      if (closed) return;
      sink.heartbeat();
      slot.renew();
      resync();
    }, this.config.sseHeartbeatMs);
    heartbeat.unref();
    send({ type: 'progress', ...current.progress });
    live = true;
    for (const event of pending) send(event);
  }

  private async storedTerminal(scan: Scan): Promise<ScanEvent | undefined> {
    const current = await this.repository.findById(scan.id);
    return current ? this.scans.storedTerminalEvent(current) : undefined;
  }
}
