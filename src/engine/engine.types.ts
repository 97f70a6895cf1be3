import type { ResolvedScanConfig } from '../modules/scans/scan-config.types';
import type { SnapshotKind } from '../modules/snapshots/entities/snapshot.entity';

export interface EngineRunContext {
  scanId: string;
  config: ResolvedScanConfig;
  /** The real current date (YYYY-MM-DD): items are dated against it. */
  scanDate: string;
  /**
   * Records a phase boundary: progress for the client and the cost so far. Throws ScanCancelledError when the
   * scan was cancelled meanwhile, so no further work is done.
   */
  advance(phase: string, percent: number, message: string, costSoFarCents: number): Promise<void>;
  /** Waits between offline phases (OFFLINE_STEP_MS); resolves early when the scan is cancelled. */
  pace(): Promise<void>;
}

export interface EngineSnapshot {
  kind: SnapshotKind;
  /** Council seats: which seat produced it. */
  seat?: string;
  title: string;
  envelope: Record<string, unknown>;
}

export interface EngineOutput {
  /** The first is the scan's own snapshot (standard or council composite); seats follow. */
  snapshots: EngineSnapshot[];
  costCents: number;
}

/** The scan cannot succeed (bad model choice, provider not configured, ...); its message is shown to the client. */
export class EngineFailure extends Error {}

/** A provider failed in a way worth retrying (timeouts, 429, 5xx). */
export class TransientProviderError extends Error {}

export class ScanCancelledError extends Error {
  constructor() {
    super('scan cancelled');
  }
}
