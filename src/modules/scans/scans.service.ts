import { InjectQueue } from '@nestjs/bull';
import { Inject, Injectable } from '@nestjs/common';
import type { Queue } from 'bull';
import { randomUUID } from 'node:crypto';
import type { Principal } from '../../common/auth/principal';
import { ApiError, notFound, validationFailed } from '../../common/errors/api-error';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { SCANS_QUEUE } from '../../infra/queues/queue-names';
import { BudgetService } from '../budget/budget.service';
import { liveProjection } from '../snapshots/snapshot-projection';
import { SnapshotsService, type SnapshotView } from '../snapshots/snapshots.service';
import type { ScanEstimateDto, ScanStatusDto } from './dto/scan.dto';
import type { Scan } from './entities/scan.entity';
import { EstimatorService } from './estimator.service';
import { fingerprintKey } from './estimator/estimator.fingerprint';
import { isTerminal, ScanEventsService, type ScanEvent } from './scan-events.service';
import { ScansRepository } from './scans.repository';
import { validateEstimateRequest, validateScanConfig } from './validation/scan-config.validator';
import { isUuid } from '../../common/validation/uuid';

export interface ScanJob {
  scanId: string;
}

export const scanJobId = (scanId: string) => `scan:${scanId}`;
export const SCAN_JOB_ATTEMPTS = 3;

export interface CreateScanResult {
  status: 200 | 202;
  body: Record<string, unknown>;
  headers: Record<string, string>;
}

const MODES = ['sync', 'async'] as const;

@Injectable()
export class ScansService {
  constructor(
    private readonly repository: ScansRepository,
    private readonly budget: BudgetService,
    private readonly snapshots: SnapshotsService,
    private readonly events: ScanEventsService,
    private readonly estimator: EstimatorService,
    @InjectQueue(SCANS_QUEUE) private readonly queue: Queue<ScanJob>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async create(principal: Principal, body: unknown, mode: unknown): Promise<CreateScanResult> {
    const resolvedMode = this.mode(mode);
    const validation = validateScanConfig(body, this.config);
    if (validation.errors.length) throw validationFailed(validation.errors);
    if (validation.topLevel) throw new ApiError(422, validation.topLevel.code, validation.topLevel.detail);
    const config = validation.config!;
    if (!this.config.enabledEngines.includes(config.engine)) {
      throw new ApiError(
        503,
        'engine_unavailable',
        `Engine ${config.engine} is not loaded in this deployment (enabled: ${this.config.enabledEngines.join(', ')})`,
      );
    }

    const estimate = await this.estimator.estimateConfig(config);
    const reservation = estimate.expected_cents ?? this.config.minScanReservationCents;
    const scanId = randomUUID();
    const apiKeyId = principal.kind === 'api_key' ? principal.apiKeyId : null;
    await this.budget.reserve(principal.accountId, { type: 'scan', id: scanId, apiKeyId }, reservation);
    try {
      await this.repository.insert({
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
      });
    } catch (error) {
      await this.budget.release(principal.accountId, { type: 'scan', id: scanId });
      throw error;
    }

    // Listen before enqueueing, so a fast scan's terminal event cannot slip past a sync wait.
    const terminal = resolvedMode === 'sync' ? await this.awaitTerminal(scanId) : undefined;
    try {
      await this.queue.add(
        { scanId },
        { jobId: scanJobId(scanId), attempts: SCAN_JOB_ATTEMPTS, backoff: { type: 'exponential', delay: 2000 } },
      );
    } catch (error) {
      terminal?.cancel();
      await this.repository.transaction((m) => this.repository.finish(m, scanId, 'failed', { error: 'The scan could not be queued' }));
      await this.budget.release(principal.accountId, { type: 'scan', id: scanId });
      throw error;
    }
    const accepted = () =>
      this.accepted(
        scanId,
        resolvedMode === 'sync'
          ? `The scan is still running after the ${Math.round(this.config.scanSyncWaitMs / 1000)} s sync wait; poll status_url or follow stream_url`
          : undefined,
      );
    if (!terminal) return accepted();
    const event = await terminal.result;
    if (!event) return accepted();
    return { status: 200, body: await this.finishedBody(principal.accountId, scanId, event), headers: {} };
  }

  async estimate(body: unknown): Promise<ScanEstimateDto> {
    const validation = validateEstimateRequest(body);
    if (validation.errors.length) throw validationFailed(validation.errors);
    return this.estimator.estimateRequest(validation.request!) as Promise<ScanEstimateDto>;
  }

  async status(accountId: string, id: string): Promise<ScanStatusDto> {
    return toStatus(await this.owned(accountId, id));
  }

  async cancel(accountId: string, id: string): Promise<{ id: string; status: 'cancelled' }> {
    const scan = await this.owned(accountId, id);
    const cancelled = await this.repository.transaction((manager) =>
      this.repository.finish(manager, scan.id, 'cancelled', { progress: { ...scan.progress, message: 'Cancelled' } }),
    );
    if (!cancelled)
      throw new ApiError(
        409,
        'invalid_state',
        `Scan ${id} is already ${(await this.repository.findById(id))?.status ?? 'finished'} and cannot be cancelled`,
      );
    // Work done before the cancel is charged (decisions.md C7); the rest of the reservation is freed.
    await this.budget.settle(accountId, { type: 'scan', id: scan.id }, Number(cancelled.costCents ?? 0));
    await this.events.publish(scan.id, { type: 'cancelled' });
    return { id: scan.id, status: 'cancelled' };
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

  private awaitTerminal(scanId: string): Promise<{ result: Promise<ScanEvent | undefined>; cancel(): void }> {
    let finish!: (event: ScanEvent | undefined) => void;
    const result = new Promise<ScanEvent | undefined>((resolve) => (finish = resolve));
    const timer = setTimeout(() => finish(undefined), this.config.scanSyncWaitMs);
    return this.events
      .subscribe(scanId, (event) => {
        if (isTerminal(event)) finish(event);
      })
      .then((unsubscribe) => {
        void result.then(() => {
          clearTimeout(timer);
          unsubscribe();
        });
        return { result, cancel: () => finish(undefined) };
      });
  }

  private async finishedBody(accountId: string, scanId: string, event: ScanEvent): Promise<Record<string, unknown>> {
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

  private accepted(scanId: string, message?: string): CreateScanResult {
    const statusUrl = `/v1/scans/${scanId}`;
    return {
      status: 202,
      body: {
        scan_id: scanId,
        status: 'running',
        status_url: statusUrl,
        stream_url: `${statusUrl}/stream`,
        ...(message ? { message } : {}),
      },
      headers: { Location: statusUrl },
    };
  }

  private mode(mode: unknown): 'sync' | 'async' {
    if (mode === undefined) return 'sync';
    if (typeof mode === 'string' && (MODES as readonly string[]).includes(mode)) return mode as 'sync' | 'async';
    throw validationFailed([{ path: 'mode', code: 'invalid', message: 'mode must be sync or async' }]);
  }
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
