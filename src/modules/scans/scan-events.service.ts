import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { transientError } from '../../common/errors/api-error';
import { RedisService } from '../../infra/redis/redis.service';
import type { ScanEvent } from './scan-event';
import { parseLogMessage, ScanEventLog, type LoggedEvent } from './scan-event-log';

export { isTerminal, type ScanEvent } from './scan-event';

export interface ScanSubscriber {
  /** `id` is the event's place in the scan's log (see ScanEventLog). */
  onEvent(event: ScanEvent, id: string): void;
  /** The subscription was interrupted and is live again: events published meanwhile were missed. */
  onGap(): void;
}

/** Long enough for a healthy Redis; short enough that a stream or sync scan answers 503 promptly in an outage. */
const SUBSCRIBE_TIMEOUT_MS = 3000;

/**
 * Scan progress fan-out over Redis pub/sub, so a stream on one API process hears a worker on another, and each
 * scan's log of events (ScanEventLog), so a client that comes back is sent what it missed. Every event is logged
 * and published in one step, with its log id. One subscriber connection per process; each scan channel is
 * subscribed while it has local listeners. Publishing is best-effort: the stored scan state is the truth, and
 * listeners re-read the log and the state after a gap.
 */
@Injectable()
export class ScanEventsService implements OnApplicationShutdown {
  private readonly logger = new Logger('ScanEventsService');
  private readonly subscribers = new Map<string, Set<ScanSubscriber>>();
  private attached = false;
  private readonly log: ScanEventLog;

  constructor(private readonly redis: RedisService) {
    this.log = new ScanEventLog(redis);
  }

  /**
   * Logs and publishes the event; answers its log id (for a terminal event after the scan's end: the logged end's
   * id). Undefined when it was not published (Redis unavailable, or progress after the end); never throws.
   */
  async publish(scanId: string, event: ScanEvent): Promise<string | undefined> {
    try {
      return (await this.log.append(scanId, event)) ?? undefined;
    } catch (error) {
      this.logger.warn({ scanId, type: event.type, err: String(error) }, 'scan event not published; listeners re-read the stored state');
      return undefined;
    }
  }

  /** The scan's logged events after `id`; undefined when the log cannot tell (unknown, trimmed or expired id). */
  missedSince(scanId: string, id: string): Promise<LoggedEvent[] | undefined> {
    return this.log.after(scanId, id);
  }

  /** The id of the scan's newest logged event (`LOG_START` when none) and whether it ended the scan. */
  lastLogged(scanId: string): Promise<{ id: string; terminal: boolean }> {
    return this.log.last(scanId);
  }

  /**
   * Resolves once the subscription is live, so nothing published afterwards is missed; 503 `transient_error`
   * when Redis does not confirm it in time (nothing is left subscribed then).
   */
  async subscribe(scanId: string, subscriber: ScanSubscriber): Promise<() => void> {
    this.attach();
    const channel = this.channel(scanId);
    let set = this.subscribers.get(channel);
    if (!set) {
      set = new Set();
      this.subscribers.set(channel, set);
    }
    set.add(subscriber);
    const unsubscribe = () => {
      const current = this.subscribers.get(channel);
      if (!current?.delete(subscriber) || current.size > 0) return;
      this.subscribers.delete(channel);
      this.redis
        .subscriberClient()
        .unsubscribe(channel)
        .catch(() => undefined);
    };
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        this.redis.subscriberClient().subscribe(channel),
        new Promise((_, reject) => (timer = setTimeout(() => reject(new Error('subscribe timed out')), SUBSCRIBE_TIMEOUT_MS))),
      ]);
    } catch {
      unsubscribe();
      throw transientError('Live scan events are temporarily unavailable; retry shortly or poll the scan');
    } finally {
      clearTimeout(timer);
    }
    return unsubscribe;
  }

  get subscriptionCount(): number {
    return this.subscribers.size;
  }

  /** After the HTTP server has stopped: nothing can subscribe any more. */
  onApplicationShutdown(): void {
    this.subscribers.clear();
  }

  private attach(): void {
    if (this.attached) return;
    this.attached = true;
    const client = this.redis.subscriberClient();
    client.on('message', (channel: string, message: string) => {
      const set = this.subscribers.get(channel);
      const logged = set && parseLogMessage(message);
      if (!set || !logged) return;
      for (const subscriber of [...set]) subscriber.onEvent(logged.event, logged.id);
    });
    // ioredis resubscribes by itself on reconnect; whatever was published while it was away is lost.
    let lost = false;
    client.on('close', () => (lost = true));
    client.on('ready', () => {
      if (!lost) return;
      lost = false;
      for (const set of this.subscribers.values()) for (const subscriber of [...set]) subscriber.onGap();
    });
  }

  private channel(scanId: string): string {
    return this.log.channel(scanId);
  }
}
