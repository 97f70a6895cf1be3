import { Injectable } from '@nestjs/common';

/**
 * The process is shutting down (SIGTERM): set once, first thing, so every part can let go in an orderly way.
 * Streams end with a reconnect hint, sync scan waits answer 202, responses say `Connection: close`, readiness
 * answers 503 and workers stop taking new phases, all before the HTTP server and the stores are closed.
 */
@Injectable()
export class DrainService {
  private readonly controller = new AbortController();

  get draining(): boolean {
    return this.controller.signal.aborted;
  }

  /** Aborted when draining starts. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  start(): void {
    this.controller.abort();
  }
}
