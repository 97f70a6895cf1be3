import { Injectable } from '@nestjs/common';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { processMetricsRegistry } from './process-metrics';

/** Seconds: from a fast read to a slow export or a long scan stream. */
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 120];
/** Seconds from creation to the final state: queueing included, as a client waits for it. */
const WORK_BUCKETS = [0.5, 1, 2.5, 5, 10, 20, 30, 60, 120, 300, 600, 1800];

export type ScanOutcome = 'completed' | 'failed' | 'cancelled';
export type LedgerMovement = 'reserved' | 'settled' | 'released';

/**
 * The metrics of one app, in a registry of its own (not prom-client's global one: tests boot many apps in one
 * process, and each must start from zero without "already registered" errors). Labels are bounded vocabularies
 * only: route templates, buckets, engines, export types, queue names; never an account, key, scan or snapshot id.
 */
@Injectable()
export class MetricsService {
  readonly registry = new Registry();
  private readonly beforeScrape: Array<() => Promise<void>> = [];

  readonly httpRequests = new Counter({
    name: 'regscan_http_requests_total',
    help: 'HTTP requests answered, by route template, method and status',
    labelNames: ['route', 'method', 'status'],
    registers: [this.registry],
  });

  readonly httpDuration = new Histogram({
    name: 'regscan_http_request_duration_seconds',
    help: 'Time from a request arriving to its response ending (a scan stream: its lifetime)',
    labelNames: ['route', 'method', 'status'],
    buckets: HTTP_BUCKETS,
    registers: [this.registry],
  });

  readonly rateLimitRejections = new Counter({
    name: 'regscan_rate_limit_rejections_total',
    help: 'Requests refused with 429 because a rate-limit bucket was used up (streams: open-stream cap per key)',
    labelNames: ['bucket'],
    registers: [this.registry],
  });

  readonly queueJobs = new Gauge({
    name: 'regscan_queue_jobs',
    help: 'Jobs of each Bull queue by state, read from Redis when scraped',
    labelNames: ['queue', 'state'],
    registers: [this.registry],
  });

  readonly queueStalled = new Counter({
    name: 'regscan_queue_stalled_jobs_total',
    help: 'Jobs this worker process found stalled (their worker stopped renewing the lock) and moved back to waiting',
    labelNames: ['queue'],
    registers: [this.registry],
  });

  private readonly scans = new Counter({
    name: 'regscan_scans_total',
    help: 'Scans that reached a final state, by engine and outcome',
    labelNames: ['engine', 'outcome'],
    registers: [this.registry],
  });

  private readonly scanDuration = new Histogram({
    name: 'regscan_scan_duration_seconds',
    help: 'Time from a scan being created to its final state, by engine and outcome',
    labelNames: ['engine', 'outcome'],
    buckets: WORK_BUCKETS,
    registers: [this.registry],
  });

  private readonly exports = new Counter({
    name: 'regscan_exports_total',
    help: 'Exports that reached a final state, by provider, artefact type and outcome',
    labelNames: ['provider', 'artifact_type', 'outcome'],
    registers: [this.registry],
  });

  private readonly exportDuration = new Histogram({
    name: 'regscan_export_duration_seconds',
    help: 'Time from an export being created to its final state, by provider, artefact type and outcome',
    labelNames: ['provider', 'artifact_type', 'outcome'],
    buckets: WORK_BUCKETS,
    registers: [this.registry],
  });

  private readonly ledger: Record<LedgerMovement, Counter> = {
    reserved: this.ledgerCounter('reserved', 'Cents held for work when it was accepted (committed ledger reservations)'),
    settled: this.ledgerCounter('settled', 'Cents charged for finished work (committed ledger settlements)'),
    released: this.ledgerCounter('released', 'Cents of holds freed without a charge (failed or withdrawn work)'),
  };

  readonly sseStreams = new Gauge({
    name: 'regscan_sse_open_streams',
    help: 'Scan progress streams (server-sent events) open in this process',
    registers: [this.registry],
  });

  recordScan(engine: string, outcome: ScanOutcome, seconds: number): void {
    this.scans.inc({ engine, outcome });
    this.scanDuration.observe({ engine, outcome }, Math.max(0, seconds));
  }

  recordExport(provider: string, artifactType: string, outcome: string, seconds: number): void {
    const labels = { provider, artifact_type: artifactType, outcome };
    this.exports.inc(labels);
    this.exportDuration.observe(labels, Math.max(0, seconds));
  }

  recordLedger(movement: LedgerMovement, referenceType: string, cents: number): void {
    this.ledger[movement].inc({ reference_type: referenceType }, cents);
  }

  /** Work to do before each scrape (reading queue counts): gauges that are only true when read. */
  onScrape(refresh: () => Promise<void>): void {
    this.beforeScrape.push(refresh);
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /** This app's metrics followed by the process metrics, in the text exposition format. */
  async exposition(): Promise<string> {
    await Promise.all(this.beforeScrape.map((refresh) => refresh()));
    return (await this.registry.metrics()) + (await processMetricsRegistry().metrics());
  }

  private ledgerCounter(movement: LedgerMovement, help: string): Counter {
    return new Counter({
      name: `regscan_budget_${movement}_cents_total`,
      help,
      labelNames: ['reference_type'],
      registers: [this.registry],
    });
  }
}
