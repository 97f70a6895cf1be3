import { InjectQueue } from '@nestjs/bull';
import { Inject, Injectable } from '@nestjs/common';
import type { Queue } from 'bull';
import { randomUUID } from 'node:crypto';
import type { Principal } from '../../common/auth/principal';
import { ApiError, notFound } from '../../common/errors/api-error';
import { DrainService } from '../../common/lifecycle/drain.service';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { MetricsService } from '../../infra/metrics/metrics.service';
import { secondsBetween } from '../../infra/metrics/seconds-between';
import { SCANS_QUEUE } from '../../infra/queues/queue-names';
import { BudgetService } from '../budget/budget.service';
import { liveProjection } from '../snapshots/snapshot-projection';
import { SnapshotsService, type SnapshotView } from '../snapshots/snapshots.service';
import type { ScanEstimateDto } from './dto/scan-estimate.dto';
import type { ScanStatusDto } from './dto/scan-status.dto';
import type { Scan, ScanStatus } from './entities/scan.entity';
import { EstimatorService } from './estimator/estimator.service';
import { fingerprintKey } from './estimator/estimator.fingerprint';
import { isTerminal, ScanEventsService, type ScanEvent } from './scan-events.service';
import { ScansRepository, type FinishFields } from './scans.repository';
import { scanJobOptions, type ScanJob } from './scans.jobs';
import type { ScanMode } from './pipes/scan-mode.pipe';
import type { ValidatedEstimateRequest } from './validation/scan-config.validator';
import type { ResolvedScanConfig } from '../../domain/scan-config.types';
import { isUuid } from '../../common/validation/uuid';
import { WebhookOutboxService } from '../webhooks/webhook-outbox.service';
import type { EntityManager } from 'typeorm';

/** How a scan ended, as POST /v1/scans answers it when the scan finishes within the sync wait. */
export interface ScanOutcome {
  scan_id: string;
  status: ScanStatus;
  snapshot_id: string | null;
  snapshot?: SnapshotView;
  error?: string | null;
}

/**
 * What POST /v1/scans led to: the scan finished within the sync wait (its outcome, with the snapshot when it
 * completed), or it runs on (`message` says why a sync wait let go).
 */
export type ScanCreation =
  | { finished: true; outcome: ScanOutcome }
  | { finished: false; scanId: string; message?: string };

/** How often a sync wait re-reads the scan in case its terminal event was lost. */
const SYNC_RECHECK_MS = 5000;

@Injectable()
export class ScansService {
  constructor(
    private readonly repository: ScansRepository,
    private readonly budget: BudgetService,
    private readonly snapshots: SnapshotsService,
    private readonly events: ScanEventsService,
    private readonly estimator: EstimatorService,
    @InjectQueue(SCANS_QUEUE) private readonly queue: Queue<ScanJob>,
    private readonly drain: DrainService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly metrics: MetricsService,
    private readonly webhooks: WebhookOutboxService,
  ) {}

  async create(principal: Principal, config: ResolvedScanConfig, resolvedMode: ScanMode): Promise<ScanCreation> {
    if (!this.config.enabledEngines.includes(config.engine)) {
      throw new ApiError('engine_unavailable',
        `Engine ${config.engine} is not loaded in this deployment (enabled: ${this.config.enabledEngines.join(', ')})`,
      );
    }

    const estimate = await this.estimator.estimateConfig(config);
    const reservation = estimate.expected_cents ?? this.config.minScanReservationCents;
    const scanId = randomUUID();
    const apiKeyId = principal.kind === 'api_key' ? principal.apiKeyId : null;
    // Listen before anything exists, so a fast scan's terminal event cannot slip past a sync wait, and a Redis
    // outage answers 503 before any money is held.
    const terminal = resolvedMode === 'sync' ? await this.awaitTerminal(scanId) : undefined;
    try {
      // The hold and the scan commit together: no hold without an owner, no scan without its hold.
      await this.repository.transaction(async (manager) => {
        await this.budget.reserve(principal.accountId, { type: 'scan', id: scanId, apiKeyId }, reservation, manager);
        await this.repository.insert(
          {
            id: scanId,
            accountId: principal.accountId,
            apiKeyId,
            status: 'running',
            progress: { phase: 'queued', percent: 0, message: 'Queued' },
            config,
            engine: config.engine,
            mode: resolvedMode,
            estimateCents: estimate.expected_cents,
            reservedCents: String(reservation),
            costCents: null,
            fingerprintKey: fingerprintKey(this.estimator.fingerprintOfConfig(config)),
          },
          manager,
        );
      });
      await this.queue.add({ scanId }, scanJobOptions(scanId));
    } catch (error) {
      terminal?.cancel();
      // Inserted but not queued: fail it now if the database answers; otherwise the reconciler queues it.
      await this.finishWithMoney(principal.accountId, scanId, 'failed', { error: 'The scan could not be queued' }).catch(() => undefined);
      throw error;
    }
    if (!terminal) return { finished: false, scanId };
    const event = await terminal.result;
    if (event) return { finished: true, outcome: await this.finishedOutcome(principal.accountId, scanId, event) };
    const message = this.drain.draining
      ? 'This server is restarting; the scan goes on: poll status_url or follow stream_url'
      : `The scan is still running after the ${Math.round(this.config.scanSyncWaitMs / 1000)} s sync wait; poll status_url or follow stream_url`;
    return { finished: false, scanId, message };
  }

  estimate(request: ValidatedEstimateRequest): Promise<ScanEstimateDto> {
    return this.estimator.estimateRequest(request) as Promise<ScanEstimateDto>;
  }

  async status(accountId: string, id: string): Promise<ScanStatusDto> {
    return toStatus(await this.owned(accountId, id));
  }

  async cancel(accountId: string, id: string): Promise<{ id: string; status: 'cancelled' }> {
    const scan = await this.owned(accountId, id);
    // Work done before the cancel is charged (../shared/spec/decisions.md C7); the rest of the reservation is freed.
    const cancelled = await this.finishWithMoney(accountId, scan.id, 'cancelled', { progress: { ...scan.progress, message: 'Cancelled' } });
    if (!cancelled)
      throw new ApiError('invalid_state',
        `Scan ${id} is already ${(await this.repository.findById(id))?.status ?? 'finished'} and cannot be cancelled`,
      );
    await this.events.publish(scan.id, { type: 'cancelled' });
    return { id: scan.id, status: 'cancelled' };
  }

  /**
   * Moves a running scan to a terminal state and closes its budget hold in the same transaction (../shared/spec/decisions.md C7:
   * completed and cancelled pay for the work done, failed pays nothing). Null when the scan was not running.
   */
  async finishWithMoney(
    accountId: string,
    scanId: string,
    status: Exclude<ScanStatus, 'running'>,
    fields: FinishFields,
  ): Promise<Scan | null> {
    const finished = await this.repository.transaction(async (manager) => {
      const finished = await this.repository.finish(manager, scanId, status, status === 'failed' ? { ...fields, costCents: 0 } : fields);
      if (!finished) return null;
      const reference = { type: 'scan', id: scanId };
      if (status === 'failed') await this.budget.release(accountId, reference, manager);
      else await this.budget.settle(accountId, reference, Number(finished.costCents ?? 0), manager);
      await this.announce(manager, finished);
      return finished;
    });
    if (finished) this.metrics.recordScan(finished.engine, status, secondsBetween(finished.createdAt, finished.completedAt));
    return finished;
  }

  /** Records the scan's terminal event for webhooks, in the transaction that finished it. */
  async announce(manager: EntityManager, scan: Scan): Promise<void> {
    await this.webhooks.record(manager, scan.accountId, `scan.${scan.status as Exclude<ScanStatus, 'running'>}`, {
      scan_id: scan.id,
      status: scan.status,
      snapshot_id: scan.snapshotId,
      cost_cents: Number(scan.costCents ?? 0),
      error: scan.error,
      completed_at: scan.completedAt?.toISOString() ?? null,
    });
  }

  async owned(accountId: string, id: string): Promise<Scan> {
    const scan = isUuid(id) ? await this.repository.findOwned(accountId, id) : null;
    if (!scan) throw notFound(`Scan ${id} not found`);
    return scan;
  }

  /** The terminal event as a stream replays it from storage (the snapshot projection of GET /v1/snapshots/{id}). */
  async storedTerminalEvent(scan: Scan): Promise<ScanEvent | undefined> {
    if (scan.status === 'running') return undefined;
    if (scan.status === 'failed') return { type: 'error', error: scan.error ?? 'The scan failed' };
    if (scan.status === 'cancelled') return { type: 'cancelled' };
    const snapshot = scan.snapshotId ? await this.snapshots.findOwned(scan.accountId, scan.snapshotId) : null;
    if (!snapshot) return { type: 'error', error: 'The snapshot of this scan is missing' };
    return { type: 'complete', data: this.snapshots.view(snapshot).data, snapshotId: snapshot.id };
  }

  /**
   * Waits up to the sync window for the scan to finish. Events are the fast path; the stored state is re-read after
   * a pub/sub gap and every few seconds, so a lost event costs seconds, not the window. Resolves undefined (answer
   * 202) on timeout, on cancel(), or when the process starts draining.
   */
  private async awaitTerminal(scanId: string): Promise<{ result: Promise<ScanEvent | undefined>; cancel(): void }> {
    let finish!: (event: ScanEvent | undefined) => void;
    const result = new Promise<ScanEvent | undefined>((resolve) => (finish = resolve));
    const recheck = () =>
      void this.repository
        .findById(scanId)
        .then((scan) => scan && scan.status !== 'running' && finish(storedOutcome(scan)))
        .catch(() => undefined);
    const unsubscribe = await this.events.subscribe(scanId, {
      onEvent: (event) => isTerminal(event) && finish(event),
      onGap: recheck,
    });
    const timer = setTimeout(() => finish(undefined), this.config.scanSyncWaitMs);
    const poll = setInterval(recheck, SYNC_RECHECK_MS);
    const leave = () => finish(undefined);
    this.drain.signal.addEventListener('abort', leave, { once: true });
    if (this.drain.draining) leave();
    void result.then(() => {
      clearTimeout(timer);
      clearInterval(poll);
      this.drain.signal.removeEventListener('abort', leave);
      unsubscribe();
    });
    return { result, cancel: () => finish(undefined) };
  }

  private async finishedOutcome(accountId: string, scanId: string, event: ScanEvent): Promise<ScanOutcome> {
    if (event.type === 'complete') {
      const snapshot = await this.snapshots.findOwned(accountId, event.snapshotId);
      const view: SnapshotView | undefined = snapshot
        ? { ...this.snapshots.view(snapshot), data: liveProjection(snapshot.data) }
        : undefined;
      return { scan_id: scanId, status: 'completed', snapshot_id: event.snapshotId, snapshot: view };
    }
    const scan = await this.repository.findById(scanId);
    return {
      scan_id: scanId,
      status: scan?.status ?? (event.type === 'error' ? 'failed' : 'cancelled'),
      snapshot_id: null,
      error: scan?.error ?? (event.type === 'error' ? event.error : 'The scan was cancelled'),
    };
  }

}

/** The outcome a finished scan's row records, as the event that would have announced it. */
function storedOutcome(scan: Scan): ScanEvent | undefined {
  if (scan.status === 'completed' && scan.snapshotId) return { type: 'complete', data: {}, snapshotId: scan.snapshotId };
  if (scan.status === 'failed') return { type: 'error', error: scan.error ?? 'The scan failed' };
  if (scan.status === 'cancelled') return { type: 'cancelled' };
  return undefined;
}

export function toStatus(scan: Scan): ScanStatusDto {
  const finished = scan.status !== 'running';
  return {
    id: scan.id,
    status: scan.status,
    progress: scan.progress,
    snapshot_id: scan.status === 'completed' ? scan.snapshotId : null,
    created_at: scan.createdAt.toISOString(),
    completed_at: scan.completedAt?.toISOString() ?? null,
    error: scan.status === 'failed' ? scan.error : null,
    cost_cents: finished && scan.costCents !== null ? Number(scan.costCents) : scan.estimateCents,
  };
}
