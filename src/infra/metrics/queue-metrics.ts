import { InjectQueue } from '@nestjs/bull';
import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import type { Queue } from 'bull';
import { EXPORTS_QUEUE, SCANS_QUEUE } from '../queues/queue-names';
import { MetricsService } from './metrics.service';

/** States reported per queue; `completed` is left out: finished jobs are trimmed (removeOnComplete), so it means nothing. */
const STATES = ['waiting', 'active', 'delayed', 'failed', 'paused'] as const;
/** A scrape answers within this even when Redis does not: the queue gauges are then left out of that scrape. */
const COUNTS_TIMEOUT_MS = 2000;

/** Queue gauges read from Redis at scrape time (shared by every process), and the stalled jobs this process found. */
@Injectable()
export class QueueMetrics implements OnModuleInit {
  private readonly logger = new Logger('QueueMetrics');

  constructor(
    private readonly metrics: MetricsService,
    @InjectQueue(SCANS_QUEUE) private readonly scans: Queue,
    @InjectQueue(EXPORTS_QUEUE) private readonly exports: Queue,
  ) {}

  onModuleInit(): void {
    for (const queue of [this.scans, this.exports]) {
      // Bull emits 'stalled' in the process whose stalled-job check moved the job: a worker's.
      this.metrics.queueStalled.inc({ queue: queue.name }, 0);
      queue.on('stalled', () => this.metrics.queueStalled.inc({ queue: queue.name }));
    }
    this.metrics.onScrape(() => this.refresh());
  }

  private async refresh(): Promise<void> {
    await Promise.all([this.scans, this.exports].map((queue) => this.refreshQueue(queue)));
  }

  private async refreshQueue(queue: Queue): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    try {
      const counts = await Promise.race([
        queue.getJobCounts(),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`no answer from Redis within ${COUNTS_TIMEOUT_MS} ms`)), COUNTS_TIMEOUT_MS);
        }),
      ]);
      const byState = counts as unknown as Record<string, number | undefined>;
      for (const state of STATES) this.metrics.queueJobs.set({ queue: queue.name, state }, byState[state] ?? 0);
    } catch (error) {
      for (const state of STATES) this.metrics.queueJobs.remove({ queue: queue.name, state });
      this.logger.warn({ queue: queue.name, err: String(error) }, 'queue counts unavailable for this scrape');
    } finally {
      clearTimeout(timer);
    }
  }
}
