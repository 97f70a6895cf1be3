import { RECOVERABLE_BACKOFF, RECOVERABLE_JOB_ATTEMPTS } from '../../infra/queues/retry-backoff';

/** An `exports` queue job: ids only; the export's state lives in PostgreSQL. */
export interface ExportJobData {
  exportId: string;
}

export const exportJobId = (id: string) => `export:${id}`;

/**
 * Deterministic id (duplicate enqueues collapse), retries with backoff through provider and store outages, and the
 * lane's priority (export-account-rules.ts), which Bull keeps in Redis through retries and stalls.
 */
export const exportJobOptions = (id: string, priority: number) => ({
  jobId: exportJobId(id),
  attempts: RECOVERABLE_JOB_ATTEMPTS,
  backoff: { type: RECOVERABLE_BACKOFF },
  priority,
});
