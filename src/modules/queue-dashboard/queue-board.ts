import { createBullBoard } from '@bull-board/api';
import { BullAdapter } from '@bull-board/api/bullAdapter';
import { ExpressAdapter } from '@bull-board/express';
import type { Queue } from 'bull';
import type { Express } from 'express';

export const QUEUE_DASHBOARD_PATH = '/admin/queues';

/** Bull Board's Express app for these queues, to be mounted at QUEUE_DASHBOARD_PATH behind the access check. */
export function createQueueBoard(queues: Queue[], readOnly: boolean): Express {
  const serverAdapter = new ExpressAdapter().setBasePath(QUEUE_DASHBOARD_PATH);
  createBullBoard({
    queues: queues.map((queue) => new BullAdapter(queue, { readOnlyMode: readOnly, allowRetries: !readOnly })),
    serverAdapter,
    options: { uiConfig: { boardTitle: 'Regscan queues', hideDocsLink: true } },
  });
  const board = serverAdapter.getRouter() as Express;
  board.disable('x-powered-by');
  return board;
}
