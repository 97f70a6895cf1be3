import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { RedisService } from '../../infra/redis/redis.module';
import type { ScanProgress } from './entities/scan.entity';

export type ScanEvent =
  | ({ type: 'progress' } & ScanProgress)
  | { type: 'complete'; data: Record<string, unknown>; snapshotId: string }
  | { type: 'error'; error: string }
  | { type: 'cancelled' };

export const isTerminal = (event: ScanEvent) => event.type !== 'progress';

type Listener = (event: ScanEvent) => void;

/**
 * Scan progress fan-out over Redis pub/sub, so a stream on one API process hears a worker on another.
 * One subscriber connection per process; each scan channel is subscribed while it has local listeners.
 */
@Injectable()
export class ScanEventsService implements OnModuleDestroy {
  private readonly listeners = new Map<string, Set<Listener>>();
  private attached = false;

  constructor(private readonly redis: RedisService) {}

  async publish(scanId: string, event: ScanEvent): Promise<void> {
    await this.redis.client.publish(this.channel(scanId), JSON.stringify(event));
  }

  /** Resolves once the subscription is live, so nothing published afterwards is missed. */
  async subscribe(scanId: string, listener: Listener): Promise<() => void> {
    this.attach();
    const channel = this.channel(scanId);
    let set = this.listeners.get(channel);
    if (!set) {
      set = new Set();
      this.listeners.set(channel, set);
    }
    set.add(listener);
    await this.redis.subscriberClient().subscribe(channel);
    return () => {
      const current = this.listeners.get(channel);
      if (!current) return;
      current.delete(listener);
      if (current.size === 0) {
        this.listeners.delete(channel);
        void this.redis
          .subscriberClient()
          .unsubscribe(channel)
          .catch(() => undefined);
      }
    };
  }

  get subscriptionCount(): number {
    return this.listeners.size;
  }

  onModuleDestroy(): void {
    this.listeners.clear();
  }

  private attach(): void {
    if (this.attached) return;
    this.attached = true;
    this.redis.subscriberClient().on('message', (channel: string, message: string) => {
      const set = this.listeners.get(channel);
      if (!set) return;
      let event: ScanEvent;
      try {
        event = JSON.parse(message) as ScanEvent;
      } catch {
        return;
      }
      for (const listener of [...set]) listener(event);
    });
  }

  private channel(scanId: string): string {
    return this.redis.key('scan-events', scanId);
  }
}
