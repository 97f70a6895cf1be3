import { getSchemaPath } from '@nestjs/swagger';
import { ScanCancelledEventDto } from './scan-cancelled-event.dto';
import { ScanCompleteEventDto } from './scan-complete-event.dto';
import { ScanErrorEventDto } from './scan-error-event.dto';
import { ScanProgressEventDto } from './scan-progress-event.dto';

export const SCAN_EVENTS = [ScanProgressEventDto, ScanCompleteEventDto, ScanErrorEventDto, ScanCancelledEventDto];

/** Each SSE message's `data:` line is one of these objects, told apart by `type`. */
export const SCAN_EVENT_SCHEMA = {
  description:
    'The JSON object on the `data:` line of each message (the stream itself is text/event-stream, one `id:` and one `data:` line per message)',
  oneOf: SCAN_EVENTS.map((event) => ({ $ref: getSchemaPath(event) })),
  discriminator: {
    propertyName: 'type',
    mapping: {
      progress: getSchemaPath(ScanProgressEventDto),
      complete: getSchemaPath(ScanCompleteEventDto),
      error: getSchemaPath(ScanErrorEventDto),
      cancelled: getSchemaPath(ScanCancelledEventDto),
    },
  },
};

/** One example per event type, as the JSON of its `data:` line. */
export const SCAN_EVENT_EXAMPLES = {
  progress: {
    summary: 'A phase advanced (also sent at once on subscribe)',
    value: { type: 'progress', phase: 'analyse', percent: 55, message: 'Analysed 12 item(s) into 4 trend(s)' },
  },
  complete: {
    summary: 'Terminal: the scan completed (data is the snapshot envelope, shortened here)',
    value: {
      type: 'complete',
      snapshotId: '0d6c1f8e-3a4b-4c5d-9e0f-1a2b3c4d5e6f',
      data: { items: [], trends: [], executive_narrative: '…', _meta: { engine_mode: 'offline' } },
    },
  },
  error: {
    summary: 'Terminal: the scan failed',
    value: {
      type: 'error',
      error: 'model "anthropic-large" belongs to provider anthropic, which is not configured on this deployment (set ANTHROPIC_API_KEY)',
    },
  },
  cancelled: { summary: 'Terminal: the scan was cancelled', value: { type: 'cancelled' } },
};
