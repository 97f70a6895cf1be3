import { Injectable, type PipeTransform } from '@nestjs/common';
import { validationFailed } from '../../../common/errors/api-error';

export const SCAN_MODES = ['sync', 'async'] as const;
export type ScanMode = (typeof SCAN_MODES)[number];

/** The `mode` query parameter of POST /v1/scans: sync when absent. */
@Injectable()
export class ScanModePipe implements PipeTransform<unknown, ScanMode> {
  transform(mode: unknown): ScanMode {
    if (mode === undefined) return 'sync';
    if (typeof mode === 'string' && (SCAN_MODES as readonly string[]).includes(mode)) return mode as ScanMode;
    throw validationFailed([{ path: 'mode', code: 'invalid', message: 'mode must be sync or async' }]);
  }
}
