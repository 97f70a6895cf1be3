import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { transientError } from '../../common/errors/api-error';
import type { ScanProgress } from './entities/scan.entity';
import { RedisService } from '../../infra/redis/redis.service';

export type ScanEvent =
  | ({ type: 'progress' } & ScanProgress)
  | { type: 'complete'; data: Record<string, unknown>; snapshotId: string }
  | { type: 'error'; error: string }
  | { type: 'cancelled' };

export const isTerminal = (event: ScanEvent) => event.type !== 'progress';

export interface ScanSubscriber {
  onEvent(event: ScanEvent): void;
  /** The subscription was interrupted and is live again: events published meanwhile were missed. */
  onGap(): void;
}

/** Long enough for a healthy Redis; short enough that a stream or sync scan answers 503 promptly in an outage. */
const SUBSCRIBE_TIMEOUT_MS = 3000;

/**
 * Scan progress fan-out over Redis pub/sub, so a stream on one API process hears a worker on another.
 * One subscriber connection per process; each scan channel is subscribed while it has local listeners.
 * Publishing is best-effort: the stored scan state is the truth, and listeners re-read it after a gap.
 */
@Injectable()
export class ScanEventsService implements OnApplicationShutdown {
  private readonly logger = new Logger('ScanEventsService');
  private readonly subscribers = new Map<string, Set<ScanSubscriber>>();
  private attached = false;

  constructor(private readonly redis: RedisService) {}

  /** False when the event could not be published (Redis unavailable); never throws. */
  async publish(scanId: string, event: ScanEvent): Promise<boolean> {
    try {
      await this.redis.client.publish(this.channel(scanId), JSON.stringify(event));
      return true;
    } catch (error) {
      this.logger.warn({ scanId, type: event.type, err: String(error) }, 'scan event not published; listeners re-read the stored state');
      return false;
    }
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
      if (!set) return;
      let event: ScanEvent;
      try {
        event = JSON.parse(message) as ScanEvent;
      } catch {
        return;
      }
      for (const subscriber of [...set]) subscriber.onEvent(event);
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
    return this.redis.key('scan-events', scanId);
  }
}
