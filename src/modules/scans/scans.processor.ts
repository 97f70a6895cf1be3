import { InjectQueue } from '@nestjs/bull';
import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { Job, Queue } from 'bull';
import { randomUUID } from 'node:crypto';
import { Clock } from '../../common/clock';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { EngineFailure, ScanCancelledError, TransientProviderError, type EngineOutput } from '../../engine/engine.types';
import { ScanEngineService } from '../../engine/scan-engine.service';
import { SCANS_QUEUE } from '../../infra/queues/queue-names';
import { BudgetService } from '../budget/budget.service';
import type { Snapshot } from '../snapshots/entities/snapshot.entity';
import { liveProjection } from '../snapshots/snapshot-projection';
import { SnapshotsService } from '../snapshots/snapshots.service';
import type { Scan } from './entities/scan.entity';
import { EstimatorService } from './estimator.service';
import { ScanEventsService } from './scan-events.service';
import { ScansRepository } from './scans.repository';
import { SCAN_JOB_ATTEMPTS, scanJobId, type ScanJob } from './scans.service';

const WORKER_LOST = 'The worker running this scan stopped before it finished; no charge was made. Please run the scan again.';
const SWEEP_INTERVAL_MS = 60_000;
/** A running scan with no progress for this long, and no live job, is failed by the sweeper. */
export const STALE_SCAN_SECONDS = 15 * 60;

/** Runs scans from the `scans` queue (APP_ROLE all or worker) and keeps stuck scans from staying `running`. */
@Injectable()
export class ScansProcessor implements OnApplicationBootstrap, BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly logger = new Logger('ScansProcessor');
  private sweepTimer?: NodeJS.Timeout;
  /** Aborted on shutdown: running scans stop at their next phase and go back to the queue for another worker. */
  private readonly stopping = new AbortController();

  constructor(
    @InjectQueue(SCANS_QUEUE) private readonly queue: Queue<ScanJob>,
    private readonly repository: ScansRepository,
    private readonly engine: ScanEngineService,
    private readonly snapshots: SnapshotsService,
    private readonly budget: BudgetService,
    private readonly events: ScanEventsService,
    private readonly estimator: EstimatorService,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.appRole === 'api') return;
    void this.queue.process(this.config.scanWorkerConcurrency, (job) => this.handle(job));
    // A job that exhausted its retries or stalled past Bull's limit (its worker died) fails its scan.
    this.queue.on('failed', (job: Job<ScanJob>, error: Error) => {
      if (job.attemptsMade >= (job.opts.attempts ?? 1) || /stalled/i.test(error.message)) {
        void this.fail(job.data.scanId, /stalled/i.test(error.message) ? WORKER_LOST : `The scan failed: ${error.message}`);
      }
    });
    this.sweepTimer = setInterval(() => void this.sweep(STALE_SCAN_SECONDS).catch(() => undefined), SWEEP_INTERVAL_MS);
    this.sweepTimer.unref();
  }

  beforeApplicationShutdown(): void {
    this.stopping.abort();
  }

  onApplicationShutdown(): void {
    clearInterval(this.sweepTimer);
  }

  async handle(job: Job<ScanJob>): Promise<void> {
    const scan = await this.repository.findById(job.data.scanId);
    if (!scan || scan.status !== 'running') return;
    let output: EngineOutput;
    try {
      output = await this.engine.run({
        scanId: scan.id,
        config: scan.config,
        scanDate: new Date(this.clock.now()).toISOString().slice(0, 10),
        advance: async (phase, percent, message, costSoFar) => {
          if (!(await this.repository.recordProgress(scan.id, { phase, percent, message }, costSoFar))) throw new ScanCancelledError();
          await this.events.publish(scan.id, { type: 'progress', phase, percent, message });
        },
        pace: () => sleep(this.config.offlineStepMs, this.stopping.signal),
      });
    } catch (error) {
      if (error instanceof ScanCancelledError) return;
      // Requeued: Bull retries the job (another worker, or this one after a restart).
      if (error instanceof WorkerStoppingError) throw error;
      if (error instanceof TransientProviderError && job.attemptsMade + 1 < SCAN_JOB_ATTEMPTS) throw error;
      const message =
        error instanceof EngineFailure || error instanceof TransientProviderError ? error.message : 'The scan failed unexpectedly';
      if (!(error instanceof EngineFailure)) this.logger.error({ scanId: scan.id, err: String(error) }, 'scan failed');
      await this.fail(scan.id, message);
      return;
    }
    await this.complete(scan, output);
  }

  /** Fails running scans whose job is gone or dead; returns how many it failed. */
  async sweep(staleSeconds: number): Promise<number> {
    let failed = 0;
    for (const scan of await this.repository.findStale(staleSeconds, 100)) {
      const job = await this.queue.getJob(scanJobId(scan.id));
      const state = job ? await job.getState() : 'missing';
      if (['active', 'waiting', 'delayed', 'paused'].includes(state)) continue;
      if (await this.fail(scan.id, WORKER_LOST)) failed++;
    }
    return failed;
  }

  private async complete(scan: Scan, output: EngineOutput): Promise<void> {
    const [primary, ...seats] = output.snapshots;
    const primaryId = randomUUID();
    const finished = await this.repository
      .transaction(async (manager) => {
        await this.snapshots.insert(manager, this.snapshotRow(scan, primary, primaryId, null, output.costCents));
        for (const seat of seats) await this.snapshots.insert(manager, this.snapshotRow(scan, seat, randomUUID(), primaryId, null));
        const done = await this.repository.finish(manager, scan.id, 'completed', {
          snapshotId: primaryId,
          costCents: output.costCents,
          progress: { phase: 'complete', percent: 100, message: 'Scan complete' },
        });
        // Cancelled (or failed by the sweeper) meanwhile: the result is discarded, the terminal state stands.
        if (!done) throw new ScanCancelledError();
        return done;
      })
      .catch((error: unknown) => {
        if (error instanceof ScanCancelledError) return null;
        throw error;
      });
    if (!finished) return;
    await this.budget.settle(scan.accountId, { type: 'scan', id: scan.id }, output.costCents);
    await this.estimator
      .recordActual(this.estimator.fingerprintOfConfig(scan.config), output.costCents, new Date(this.clock.now()))
      .catch(() => undefined);
    await this.events.publish(scan.id, { type: 'complete', data: liveProjection(primary.envelope), snapshotId: primaryId });
  }

  private async fail(scanId: string, error: string): Promise<boolean> {
    const failed = await this.repository.transaction((manager) =>
      this.repository.finish(manager, scanId, 'failed', {
        error,
        costCents: 0,
        progress: { phase: 'failed', percent: 100, message: error },
      }),
    );
    if (!failed) return false;
    await this.budget.release(failed.accountId, { type: 'scan', id: scanId });
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
      title: snapshot.title,
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
