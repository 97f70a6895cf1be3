import { InjectQueue } from '@nestjs/bull';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { Job, Queue } from 'bull';
import { randomUUID } from 'node:crypto';
import { Clock } from '../../common/clock';
import { isTransientInfraError } from '../../common/errors/transient';
import { DrainService } from '../../common/lifecycle/drain.service';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { ScanCancelledError, type EngineOutput } from '../../engine/engine.types';
import { SNAPSHOT_TITLE_MAX_LENGTH, ScanEngineService } from '../../engine/scan-engine.service';
import { MetricsService } from '../../infra/metrics/metrics.service';
import { secondsBetween } from '../../infra/metrics/seconds-between';
import { SCANS_QUEUE } from '../../infra/queues/queue-names';
import { BudgetService } from '../budget/budget.service';
import type { Snapshot } from '../snapshots/entities/snapshot.entity';
import { liveProjection } from '../snapshots/snapshot-projection';
import { SnapshotsService } from '../snapshots/snapshots.service';
import type { Scan } from './entities/scan.entity';
import { EstimatorService } from './estimator/estimator.service';
import { ScanEventsService } from './scan-events.service';
import { ScansRepository } from './scans.repository';
import { scanJobId, scanJobOptions, type ScanJob } from './scans.jobs';
import { ScansService } from './scans.service';
import { EngineFailure } from '../../domain/failures';
import { ProviderTransientError } from '../../infra/providers/provider-errors';

export const WORKER_LOST = 'The worker running this scan stopped before it finished; no charge was made. Please run the scan again.';
const FAILED_UNEXPECTEDLY = 'The scan failed unexpectedly; no charge was made. Please run the scan again.';
const STORES_UNAVAILABLE =
  'The scan could not finish because a backing service stayed unavailable; no charge was made. Please run the scan again.';
const RESTARTED =
  'The previous run of this scan was interrupted (a worker stopped or a service was briefly unavailable); it restarts from the beginning';
/** Attempts a scan gets when its provider fails transiently (its job retries more often for store outages). */
const PROVIDER_ATTEMPTS = 3;
/** A scan younger than this may still be on its way into the queue (the API inserts, then enqueues). */
const ENQUEUE_GRACE_SECONDS = 10;
/** A hold whose scan does not exist is released only after this long (nothing creates one now; older data might). */
const ORPHAN_HOLD_SECONDS = 600;
const RECONCILE_BATCH = 200;

/** Runs scans from the `scans` queue (APP_ROLE all or worker) and keeps every scan moving towards a final state. */
@Injectable()
export class ScansProcessor implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('ScansProcessor');
  private reconcileTimer?: NodeJS.Timeout;

  constructor(
    @InjectQueue(SCANS_QUEUE) private readonly queue: Queue<ScanJob>,
    private readonly repository: ScansRepository,
    private readonly scans: ScansService,
    private readonly engine: ScanEngineService,
    private readonly snapshots: SnapshotsService,
    private readonly budget: BudgetService,
    private readonly events: ScanEventsService,
    private readonly estimator: EstimatorService,
    private readonly drain: DrainService,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly metrics: MetricsService,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.appRole === 'api') return;
    this.queue.on('error', (error: Error) => this.logger.warn({ err: error.message }, 'scans queue: Redis error (Bull reconnects)'));
    this.queue.on('failed', (job: Job<ScanJob>, error: Error) => {
      this.onJobFailed(job, error).catch((failure: unknown) => this.logger.error({ err: String(failure) }, 'failed-job handler'));
    });
    this.queue
      .process(this.config.scanWorkerConcurrency, (job) => this.handle(job))
      .catch((error: unknown) => {
        this.logger.error({ err: String(error) }, 'scans queue stopped processing');
      });
    this.reconcileTimer = setInterval(() => {
      this.reconcile().catch((error: unknown) => this.logger.error({ err: String(error) }, 'scan reconciliation'));
    }, this.config.reconcileIntervalMs);
    this.reconcileTimer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.reconcileTimer);
  }

  async handle(job: Job<ScanJob>): Promise<void> {
    const scan = await this.repository.findById(job.data.scanId);
    if (!scan || scan.status !== 'running') return;
    if (job.attemptsMade > 0 || scan.progress.phase !== 'queued') await this.advance(scan, 'queued', 0, RESTARTED);
    const ceiling = costCeiling(Number(scan.reservedCents), this.config);
    let output: EngineOutput;
    try {
      output = await this.engine.run({
        scanId: scan.id,
        config: scan.config,
        scanDate: new Date(this.clock.now()).toISOString().slice(0, 10),
        advance: async (phase, percent, message, costSoFar) => {
          if (costSoFar > ceiling) {
            throw new EngineFailure(
              `The scan stopped: its cost reached ${round2(costSoFar)} cents, past its ceiling of ${round2(ceiling)} cents ` +
                `(${this.config.scanCostCeilingPercent}% of the ${round2(Number(scan.reservedCents))} cents reserved); no charge was made`,
            );
          }
          await this.advance(scan, phase, percent, message, costSoFar);
        },
        pace: () => sleep(this.config.offlineStepMs, this.drain.signal),
      });
    } catch (error) {
      return this.onEngineError(job, scan, error);
    }
    await this.complete(scan, output);
  }

  /**
   * Keeps every unfinished scan moving: re-queues scans whose job vanished (a Redis restart without persistence),
   * fails those whose job failed without the failure being written (the database was down), and closes budget
   * holds whose scan is final. Runs on every worker; each step is safe to repeat and to race.
   */
  async reconcile(): Promise<{ requeued: number; failed: number; holdsClosed: number }> {
    const outcome = { requeued: 0, failed: 0, holdsClosed: 0 };
    try {
      for (const scan of await this.repository.findRunningOlderThan(ENQUEUE_GRACE_SECONDS, RECONCILE_BATCH)) {
        const job = await this.queue.getJob(scanJobId(scan.id));
        const state = job ? await job.getState() : 'missing';
        if (state === 'failed') {
          if (await this.fail(scan.id, /stalled/i.test(job?.failedReason ?? '') ? WORKER_LOST : STORES_UNAVAILABLE)) outcome.failed++;
        } else if (state === 'missing' || state === 'completed') {
          await job?.remove();
          await this.queue.add({ scanId: scan.id }, scanJobOptions(scan.id));
          this.logger.warn({ scanId: scan.id, state }, 'scan job was missing from the queue: re-queued');
          outcome.requeued++;
        }
      }
      outcome.holdsClosed = await this.closeFinishedHolds();
    } catch (error) {
      this.logger.warn({ err: String(error) }, 'scan reconciliation skipped a round (a store is unavailable)');
    }
    return outcome;
  }

  /** Budget holds whose scan is final (or was never created) are closed as the scan's final state says. */
  private async closeFinishedHolds(): Promise<number> {
    let closed = 0;
    for (const hold of await this.budget.openReservations('scan', RECONCILE_BATCH)) {
      const scan = await this.repository.findById(hold.referenceId).catch(() => null);
      const reference = { type: 'scan', id: hold.referenceId };
      if (scan && scan.status === 'running') continue;
      if (!scan && this.clock.now() - hold.createdAt.getTime() < ORPHAN_HOLD_SECONDS * 1000) continue;
      if (!scan || scan.status === 'failed') await this.budget.release(hold.accountId, reference);
      else await this.budget.settle(hold.accountId, reference, Number(scan.costCents ?? 0));
      this.logger.warn({ scanId: hold.referenceId, status: scan?.status ?? 'missing' }, 'closed a budget hold left open');
      closed++;
    }
    return closed;
  }

  private async onEngineError(job: Job<ScanJob>, scan: Scan, error: unknown): Promise<void> {
    if (error instanceof ScanCancelledError) return;
    // Retried by Bull: another worker takes it, or this one once the store is back (see queue backoff).
    if (error instanceof WorkerStoppingError || isTransientInfraError(error)) throw error;
    if (error instanceof ProviderTransientError) {
      const failures = (job.data.providerFailures ?? 0) + 1;
      if (failures < PROVIDER_ATTEMPTS) {
        await job.update({ ...job.data, providerFailures: failures }).catch(() => undefined);
        throw error;
      }
    }
    const message = error instanceof EngineFailure || error instanceof ProviderTransientError ? error.message : FAILED_UNEXPECTEDLY;
    if (!(error instanceof EngineFailure)) this.logger.error({ scanId: scan.id, err: describe(error) }, 'scan failed');
    await this.fail(scan.id, message);
  }

  /** Bull gave the job up (retries exhausted, or its worker died twice): the scan fails, if that can be written now. */
  private async onJobFailed(job: Job<ScanJob>, error: Error): Promise<void> {
    const stalled = /stalled/i.test(error.message);
    if (!stalled && job.attemptsMade < (job.opts.attempts ?? 1)) return;
    try {
      await this.fail(job.data.scanId, stalled ? WORKER_LOST : isTransientInfraError(error) ? STORES_UNAVAILABLE : FAILED_UNEXPECTEDLY);
    } catch (failure) {
      this.logger.warn({ scanId: job.data.scanId, err: String(failure) }, 'could not record the failed scan yet; the reconciler will');
    }
  }

  private async advance(scan: Scan, phase: string, percent: number, message: string, costSoFar = 0): Promise<void> {
    if (!(await this.repository.recordProgress(scan.id, { phase, percent, message }, costSoFar))) throw new ScanCancelledError();
    await this.events.publish(scan.id, { type: 'progress', phase, percent, message });
  }

  private async complete(scan: Scan, output: EngineOutput): Promise<void> {
    const [primary, ...seats] = output.snapshots;
    const primaryId = randomUUID();
    const finished = await this.repository
      .transaction(async (manager) => {
        // The terminal transition first: it waits for, then loses to, a concurrent cancel or completion.
        const done = await this.repository.finish(manager, scan.id, 'completed', {
          snapshotId: primaryId,
          costCents: output.costCents,
          progress: { phase: 'complete', percent: 100, message: 'Scan complete' },
        });
        if (!done) throw new ScanCancelledError();
        await this.snapshots.insert(manager, this.snapshotRow(scan, primary, primaryId, null, output.costCents));
        for (const seat of seats) await this.snapshots.insert(manager, this.snapshotRow(scan, seat, randomUUID(), primaryId, null));
        await this.budget.settle(scan.accountId, { type: 'scan', id: scan.id }, output.costCents, manager);
        await this.scans.announce(manager, done);
        return done;
      })
      .catch((error: unknown) => {
        if (error instanceof ScanCancelledError) return null;
        throw error;
      });
    if (!finished) return;
    this.metrics.recordScan(finished.engine, 'completed', secondsBetween(finished.createdAt, finished.completedAt));
    await this.estimator
      .recordActual(this.estimator.fingerprintOfConfig(scan.config), output.costCents, new Date(this.clock.now()))
      .catch(() => undefined);
    await this.events.publish(scan.id, { type: 'complete', data: liveProjection(primary.envelope), snapshotId: primaryId });
  }

  private async fail(scanId: string, error: string): Promise<boolean> {
    const scan = await this.repository.findById(scanId);
    if (!scan) return false;
    const failed = await this.scans.finishWithMoney(scan.accountId, scanId, 'failed', {
      error,
      progress: { phase: 'failed', percent: 100, message: error },
    });
    if (!failed) return false;
    await this.events.publish(scanId, { type: 'error', error });
    return true;
  }

  private snapshotRow(
    scan: Scan,
    snapshot: EngineOutput['snapshots'][number],
    id: string,
    parentId: string | null,
    costCents: number | null,
  ): Snapshot {
    const items = Array.isArray(snapshot.envelope.items) ? snapshot.envelope.items : [];
    return {
      id,
      accountId: scan.accountId,
      scanId: scan.id,
      kind: snapshot.kind,
      parentSnapshotId: parentId,
      title: snapshot.title.slice(0, SNAPSHOT_TITLE_MAX_LENGTH),
      config: scan.config,
      data: snapshot.envelope,
      engine: scan.engine,
      horizon: scan.config.horizon,
      jurisdictions: scan.config.jurisdictions,
      areas: scan.config.areas,
      jurisdictionKeys: scan.config.jurisdictions.map((j) => j.toLowerCase()),
      areaKeys: scan.config.areas.map((a) => a.toLowerCase()),
      itemCount: items.length,
      costCents: costCents === null ? null : String(costCents),
      estimateCents: scan.estimateCents,
      createdAt: new Date(this.clock.now()),
    } as Snapshot;
  }
}

/**
 * Past this a running scan stops: a multiple of its hold, with a fixed headroom so that small holds (a cold-start
 * estimate) leave room for an ordinary scan.
 */
export function costCeiling(reservedCents: number, config: Pick<AppConfig, 'scanCostCeilingPercent' | 'scanCostHeadroomCents'>): number {
  return Math.max((reservedCents * config.scanCostCeilingPercent) / 100, reservedCents + config.scanCostHeadroomCents);
}

class WorkerStoppingError extends Error {
  constructor() {
    super('the worker is shutting down; the scan goes back to the queue');
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(new WorkerStoppingError());
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', stop);
      resolve();
    }, ms);
    const stop = () => {
      clearTimeout(timer);
      reject(new WorkerStoppingError());
    };
    signal.addEventListener('abort', stop, { once: true });
  });
}

const round2 = (cents: number) => Math.round(cents * 100) / 100;

function describe(error: unknown): Record<string, unknown> {
  return error instanceof Error ? { name: error.name, message: error.message, stack: error.stack } : { value: String(error) };
}
