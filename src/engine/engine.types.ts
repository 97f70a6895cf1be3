import type { ResolvedScanConfig } from '../domain/scan-config.types';
import { type SnapshotKind } from '../domain/snapshot-kinds';

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

export class ScanCancelledError extends Error {
  constructor() {
    super('scan cancelled');
  }
}
