import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import Redis from 'ioredis';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';

/** The shared Redis connection for our own keys (rate limits, pub/sub, caches); Bull keeps its own. */
@Injectable()
export class RedisService implements OnApplicationShutdown {
  readonly client: Redis;
  private subscriber?: Redis;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    if (!config.redisUrl) throw new Error('REDIS_URL: not set and no embedded Redis was started');
    this.client = new Redis(config.redisUrl, { maxRetriesPerRequest: 2, enableOfflineQueue: true, lazyConnect: false });
    this.client.on('error', () => undefined); // failures surface on the commands that hit them (503)
  }

  /** A key in this deployment's namespace. */
  key(...parts: string[]): string {
    return [this.config.redisPrefix, ...parts].join(':');
  }

  /** One dedicated connection for subscriptions, created on first use. */
  subscriberClient(): Redis {
    if (!this.subscriber) {
      this.subscriber = this.client.duplicate();
      this.subscriber.on('error', () => undefined);
    }
    return this.subscriber;
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.allSettled([this.client.quit(), this.subscriber?.quit()]);
  }
}
