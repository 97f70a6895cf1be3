import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { Clock } from '../../common/clock';
import { NO_API_KEY, UsageRepository, type UsageCount } from './usage.repository';

const FLUSH_INTERVAL_MS = 2000;

export interface UsageEvent {
  accountId: string;
  apiKeyId: string | null;
  endpoint: string;
  status: number;
  scans: number;
  exports: number;
}


/**
 * Counts requests in memory and adds them to Postgres every few seconds in one statement, so metering
 * costs no database write on the request path. A crash loses at most one interval of counts.
 */
@Injectable()
export class UsageRecorder implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('UsageRecorder');
  private pending = new Map<string, UsageCount>();
  private timer?: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly repository: UsageRepository,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.timer = setInterval(() => void this.flush(), FLUSH_INTERVAL_MS);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  record(event: UsageEvent): void {
    const minute = new Date(Math.floor(this.clock.now() / 60000) * 60000).toISOString();
    const apiKeyId = event.apiKeyId ?? NO_API_KEY;
    const id = `${event.accountId}|${apiKeyId}|${event.endpoint}|${event.status}|${minute}`;
    const counter = this.pending.get(id) ?? {
      accountId: event.accountId,
      apiKeyId,
      endpoint: event.endpoint,
      status: event.status,
      minuteStart: minute,
      requests: 0,
      scans: 0,
      exports: 0,
    };
    counter.requests += 1;
    counter.scans += event.scans;
    counter.exports += event.exports;
    this.pending.set(id, counter);
  }

  /** Writes what has been counted so far; concurrent calls queue behind each other. */
  flush(): Promise<void> {
    this.flushing = this.flushing
      .then(() => this.write())
      .catch((error: unknown) => this.logger.warn({ err: String(error) }, 'usage flush failed; counts kept for the next try'));
    return this.flushing;
  }

  private async write(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = [...this.pending.values()];
    this.pending = new Map();
    try {
      await this.repository.addCounts(batch);
    } catch (error) {
      for (const row of batch) this.merge(row);
      throw error;
    }
  }

  private merge(row: UsageCount): void {
    const id = `${row.accountId}|${row.apiKeyId}|${row.endpoint}|${row.status}|${row.minuteStart}`;
    const existing = this.pending.get(id);
    if (!existing) this.pending.set(id, row);
    else {
      existing.requests += row.requests;
      existing.scans += row.scans;
      existing.exports += row.exports;
    }
  }
}
