import { Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import type { Scan } from './entities/scan.entity';
import { isTerminal, ScanEventsService, type ScanEvent } from './scan-events.service';
import { ScansRepository } from './scans.repository';
import { ScansService } from './scans.service';

/** GET /v1/scans/{id}/stream: server-sent events, `data:` lines only, heartbeat comments, one terminal event. */
@Injectable()
export class ScanStreamService {
  private readonly open_ = new Set<Response>();

  constructor(
    private readonly events: ScanEventsService,
    private readonly scans: ScansService,
    private readonly repository: ScansRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  get openStreams(): number {
    return this.open_.size;
  }

  async open(scan: Scan, req: Request, res: Response): Promise<void> {
    res.status(200);
    res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
    res.setHeader('Cache-Control', 'no-cache, no-transform');
    res.setHeader('Connection', 'keep-alive');
    res.setHeader('X-Accel-Buffering', 'no');
    res.flushHeaders();

    let closed = false;
    const send = (event: ScanEvent) => {
      if (closed) return;
      res.write(`data: ${JSON.stringify(event)}\n\n`);
      if (isTerminal(event)) close();
    };
    // Subscribe first, then read the stored state: an event published in between is not lost.
    const pending: ScanEvent[] = [];
    let ready = false;
    const unsubscribe = await this.events.subscribe(scan.id, (event) => (ready ? send(event) : pending.push(event)));
    const heartbeat = setInterval(() => !closed && res.write(': heartbeat\n\n'), this.config.sseHeartbeatMs);
    heartbeat.unref();
    this.open_.add(res);
    function cleanup(this: ScanStreamService) {
      closed = true;
      clearInterval(heartbeat);
      unsubscribe();
      this.open_.delete(res);
    }
    const close = () => {
      if (closed) return;
      cleanup.call(this);
      res.end();
    };
    req.on('close', () => !closed && cleanup.call(this));

    const current = (await this.repository.findById(scan.id)) ?? scan;
    const terminal = await this.scans.storedTerminalEvent(current);
    if (terminal) return send(terminal);
    send({ type: 'progress', ...current.progress });
    ready = true;
    for (const event of pending) send(event);
  }
}
