import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { ApiError } from '../../common/errors/api-error';
import { Clock } from '../../common/clock';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { MetricsService } from '../../infra/metrics/metrics.service';
import { RedisService } from '../../infra/redis/redis.service';

// Drops leases that were not renewed (their process died), then takes one if the key has room. Atomic.
const ACQUIRE_SCRIPT = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 1`;

type LeasingClient = RedisService['client'] & {
  streamSlotAcquire(key: string, now: string, expiresAt: string, limit: string, member: string, ttlMs: string): Promise<number>;
};

const RETRY_AFTER_SECONDS = '5';

export interface StreamSlot {
  /** Keeps the lease alive; called on every heartbeat. */
  renew(): void;
  release(): void;
}

/**
 * Caps open scan streams per API key (leases in a Redis sorted set shared by every API process, each lease
 * renewed by its stream's heartbeat so a dead process's leases expire) and per process (a local count).
 */
@Injectable()
export class StreamSlotsService {
  private open = 0;

  constructor(
    private readonly redis: RedisService,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly metrics: MetricsService,
  ) {
    redis.client.defineCommand('streamSlotAcquire', { numberOfKeys: 1, lua: ACQUIRE_SCRIPT });
  }

  get openStreams(): number {
    return this.open;
  }

  async acquire(subject: string): Promise<StreamSlot> {
    if (this.open >= this.config.sseMaxStreamsPerProcess) {
      throw new ApiError('transient_error', 'This server holds as many scan streams as it can; retry shortly', [], {
        'Retry-After': RETRY_AFTER_SECONDS,
      });
    }
    const key = this.redis.key('sse', subject);
    const member = randomUUID();
    const client = this.redis.client as LeasingClient;
    // A lease outlives a few missed heartbeats; the key lives as long as its most recently renewed lease.
    const ttlMs = 3 * this.config.sseHeartbeatMs + 5000;
    const limit = this.config.sseMaxStreamsPerKey;
    const now = this.clock.now();
    const granted = await client.streamSlotAcquire(key, String(now), String(now + ttlMs), String(limit), member, String(ttlMs));
    if (!granted) {
      this.metrics.rateLimitRejections.inc({ bucket: 'streams' });
      throw new ApiError('rate_limit_exceeded',
        `Rate limit exceeded for the streams bucket: at most ${limit} open scan streams per API key; close one or retry after ${RETRY_AFTER_SECONDS} s`,
        [],
        { 'Retry-After': RETRY_AFTER_SECONDS },
      );
    }
    this.open++;
    this.metrics.sseStreams.inc();
    let released = false;
    return {
      renew: () => {
        if (released) return;
        client
          .multi()
          .zadd(key, this.clock.now() + ttlMs, member)
          .pexpire(key, ttlMs)
          .exec()
          .catch(() => undefined);
      },
      release: () => {
        if (released) return;
        released = true;
        this.open--;
        this.metrics.sseStreams.dec();
        client.zrem(key, member).catch(() => undefined);
      },
    };
  }
}
