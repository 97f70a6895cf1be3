import { Injectable, type PipeTransform } from '@nestjs/common';
import { validationFailed } from '../../../common/errors/api-error';
import { validateEstimateRequest, type ValidatedEstimateRequest } from '../validation/scan-config.validator';

/** The body of POST /v1/scans/estimate, checked against its schema (scan-config.validator.ts). */
@Injectable()
export class EstimateRequestPipe implements PipeTransform<unknown, ValidatedEstimateRequest> {
  transform(body: unknown): ValidatedEstimateRequest {
    const validation = validateEstimateRequest(body);
    if (validation.errors.length) throw validationFailed(validation.errors);
    return validation.request!;
  }
}
