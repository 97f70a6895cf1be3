import type { ScanProgress } from './entities/scan.entity';

/** What a scan stream sends (../shared/spec/api-v1.md, Events): one JSON object per `data:` line, told apart by `type`. */
export type ScanEvent =
  | ({ type: 'progress' } & ScanProgress)
  | { type: 'complete'; data: Record<string, unknown>; snapshotId: string }
  | { type: 'error'; error: string }
  | { type: 'cancelled' };

export const isTerminal = (event: ScanEvent) => event.type !== 'progress';
