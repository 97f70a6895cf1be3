import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { Clock } from '../clock';
import { BUCKET_WINDOW_SECONDS, bucketLimit, type RateLimitBucket } from './rate-limit.buckets';
import { decide, windowIndex, type RateLimitDecision } from './rate-limit.math';
import { RedisService } from '../../infra/redis/redis.service';

// Count and expiry in one atomic step; the key outlives its window slightly so late readers see the count.
const CONSUME_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return count`;

type ConsumingClient = RedisService['client'] & { rateLimitConsume(key: string, ttlMs: string): Promise<number> };

/** Fixed-window counters in Redis, shared by every API process. */
@Injectable()
export class RateLimitService {
  constructor(
    private readonly redis: RedisService,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    // Sent once, then called by its SHA (EVALSHA) on every request.
    redis.client.defineCommand('rateLimitConsume', { numberOfKeys: 1, lua: CONSUME_SCRIPT });
  }

  async consume(bucket: RateLimitBucket, subject: string): Promise<RateLimitDecision> {
    const now = this.clock.now();
    const windowSeconds = BUCKET_WINDOW_SECONDS[bucket];
    const key = this.redis.key('rl', bucket, subject, String(windowIndex(now, windowSeconds)));
    const count = Number(await (this.redis.client as ConsumingClient).rateLimitConsume(key, String(windowSeconds * 1000 + 5000)));
    return decide(bucket, count, bucketLimit(this.config, bucket), now, windowSeconds);
  }
}
