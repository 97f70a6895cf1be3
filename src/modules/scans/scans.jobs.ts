import { RECOVERABLE_BACKOFF, RECOVERABLE_JOB_ATTEMPTS } from '../../infra/queues/retry-backoff';

/** A `scans` queue job: ids only; the scan's state lives in PostgreSQL. */
export interface ScanJob {
  scanId: string;
  /** Provider failures so far, carried across the job's retries. */
  providerFailures?: number;
}

export const scanJobId = (scanId: string) => `scan:${scanId}`;

/** Deterministic id (duplicate enqueues collapse), retries with backoff through provider and store outages. */
export const scanJobOptions = (scanId: string) => ({
  jobId: scanJobId(scanId),
  attempts: RECOVERABLE_JOB_ATTEMPTS,
  backoff: { type: RECOVERABLE_BACKOFF },
});
