import type { Request, Response } from 'express';
import type { ScanEvent } from '../scan-event';

/** Where a scan stream writes: the service decides what to send and when; this decides how it looks on the wire. */
export interface ScanEventSink {
  /** Called once when the client goes away (or at once if it already has). */
  onClose(listener: () => void): void;
  /** Starts the stream (status and headers); nothing is written before it, so a refusal can still be a problem document. */
  start(): void;
  /** `id` becomes the SSE `id:`, which the client sends back as Last-Event-ID when it reconnects. */
  send(event: ScanEvent, id: string): void;
  heartbeat(): void;
  /** Ends the stream; with `reconnectAfterMs`, tells the client to come back after that long (SSE `retry:`). */
  end(reconnectAfterMs?: number): void;
}

/** A server-sent-events sink over an Express response: `id:` and `data:` lines (no `event:`), heartbeat comments. */
export function sseResponse(req: Request, res: Response): ScanEventSink {
  return {
    onClose(listener) {
      req.on('close', listener);
      if (req.destroyed || res.closed) listener();
    },
    start() {
      res.status(200);
      res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
      res.setHeader('Cache-Control', 'no-cache, no-transform');
      res.setHeader('X-Accel-Buffering', 'no');
      res.flushHeaders();
    },
    send(event, id) {
      res.write(`id: ${id}\ndata: ${JSON.stringify(event)}\n\n`);
    },
    heartbeat() {
      res.write(': heartbeat\n\n');
    },
    end(reconnectAfterMs) {
      res.end(reconnectAfterMs === undefined ? '' : `retry: ${reconnectAfterMs}\n: the server is restarting; reconnect\n\n`);
    },
  };
}
