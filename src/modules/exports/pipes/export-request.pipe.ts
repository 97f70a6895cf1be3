import { Injectable, type PipeTransform } from '@nestjs/common';
import { ApiError, validationFailed } from '../../../common/errors/api-error';
import { readRequestBody } from '../../../common/validation/request-body';
import { isUuid } from '../../../common/validation/uuid';
import { validateExportRequest, type NormalizedExportRequest } from '../export-types/export-options.validator';

const EXPORT_REQUEST_FIELDS = ['snapshot_id', 'provider', 'artifact_type', 'options'] as const;

/** A POST /v1/exports body that passed its schema: the snapshot to export and the normalised type and options. */
export interface ExportRequest extends NormalizedExportRequest {
  snapshotId: string;
}

/**
 * The body of POST /v1/exports, checked against the export-type registry and its option schemas
 * (export-options.validator.ts). What depends on the account (its integrations, the snapshot's owner) is the
 * service's to check.
 */
@Injectable()
export class ExportRequestPipe implements PipeTransform<unknown, ExportRequest> {
  transform(value: unknown): ExportRequest {
    const reading = readRequestBody(value, EXPORT_REQUEST_FIELDS);
    if (!reading.ok) throw validationFailed([reading.error]);
    const { body, errors } = reading;
    const snapshotId = body.snapshot_id;
    if (snapshotId === undefined || snapshotId === null)
      errors.push({ path: 'snapshot_id', code: 'required', message: 'snapshot_id is required' });
    else if (!isUuid(snapshotId)) errors.push({ path: 'snapshot_id', code: 'invalid', message: 'snapshot_id must be a UUID' });
    const validation = validateExportRequest({ provider: body.provider, artifact_type: body.artifact_type, options: body.options });
    errors.push(...validation.errors);
    if (errors.length) throw validationFailed(errors);
    if (validation.localeError) throw new ApiError('unsupported_locale', validation.localeError);
    return { snapshotId: snapshotId as string, ...validation.normalized! };
  }
}
