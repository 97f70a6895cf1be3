import { Inject, Injectable, type PipeTransform } from '@nestjs/common';
import { ApiError, validationFailed } from '../../../common/errors/api-error';
import { APP_CONFIG, type AppConfig } from '../../../config/app-config';
import type { ResolvedScanConfig } from '../../../domain/scan-config.types';
import { validateScanConfig } from '../validation/scan-config.validator';

/**
 * The body of POST /v1/scans, checked against its schema (scan-config.validator.ts) and resolved with the
 * deployment's defaults: the controller receives a complete configuration or the request ends in a 422.
 */
@Injectable()
export class ScanConfigPipe implements PipeTransform<unknown, ResolvedScanConfig> {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  transform(body: unknown): ResolvedScanConfig {
    const validation = validateScanConfig(body, this.config);
    if (validation.errors.length) throw validationFailed(validation.errors);
    if (validation.topLevel) throw new ApiError(validation.topLevel.code, validation.topLevel.detail);
    return validation.config!;
  }
}
