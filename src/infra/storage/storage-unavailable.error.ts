/**
 * The artefact store did not answer, or answered that it cannot serve now (5xx, throttling). Recognised by
 * isTransientInfraError (src/common/errors/transient.ts) by name: a download answers 503 transient_error and an
 * export job is retried, as for a Postgres or Redis outage. The SDK's error is the cause.
 */
export class StorageUnavailableError extends Error {
  override readonly name = 'StorageUnavailableError';

  constructor(operation: string, key: string, cause: unknown) {
    super(`artefact storage unavailable: ${operation} ${key}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}
