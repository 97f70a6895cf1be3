const TRANSIENT_NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH']);
// Postgres SQLSTATEs meaning "not now": connection exceptions, insufficient resources, operator intervention.
const TRANSIENT_SQLSTATE_CLASSES = ['08', '53', '57'];

/** True when a backing service (Postgres, Redis, the artefact store) is unavailable rather than the request being wrong. */
export function isTransientInfraError(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth++) {
    const err = current as { code?: unknown; name?: unknown; message?: unknown; driverError?: unknown; cause?: unknown };
    if (typeof err.code === 'string') {
      if (TRANSIENT_NETWORK_CODES.has(err.code)) return true;
      if (/^[0-9A-Z]{5}$/.test(err.code) && TRANSIENT_SQLSTATE_CLASSES.includes(err.code.slice(0, 2))) return true;
    }
    // ioredis gave up on a command; the artefact store is down or overloaded (src/infra/storage/storage-unavailable.error.ts).
    if (err.name === 'MaxRetriesPerRequestError' || err.name === 'StorageUnavailableError') return true;
    if (typeof err.message === 'string' && /Connection is closed|Connection terminated|timeout exceeded when trying to connect|Stream isn't writeable|connect ECONNREFUSED/i.test(err.message)) {
      return true;
    }
    current = err.driverError ?? err.cause;
  }
  return false;
}
