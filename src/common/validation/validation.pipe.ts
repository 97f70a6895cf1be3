import { ArgumentMetadata, Injectable, ValidationPipe, type ValidationPipeOptions } from '@nestjs/common';
import { validationFailed } from '../errors/api-error';
import { readRequestBody } from './request-body';
import { toFieldErrors } from './validation-errors';

const OPTIONS: ValidationPipeOptions = {
  transform: true,
  whitelist: true,
  forbidUnknownValues: false,
  stopAtFirstError: false,
  validationError: { target: false, value: true },
  exceptionFactory: (errors) => validationFailed(toFieldErrors(errors)),
};

/**
 * Global pipe: DTOs are validated with class-validator and failures become 422 `validation_error`. The scan and
 * export bodies, whose rules span fields and registries, have their own pipes (modules/scans/pipes,
 * modules/exports/pipes); every body shares the same first checks (request-body.ts).
 * Unknown body fields are rejected; unknown query parameters are ignored (clients add tracking parameters).
 */
@Injectable()
export class ApiValidationPipe extends ValidationPipe {
  private readonly queryPipe = new ValidationPipe({ ...OPTIONS, forbidNonWhitelisted: false });

  constructor() {
    super({ ...OPTIONS, forbidNonWhitelisted: true });
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'query') return this.queryPipe.transform(value, metadata);
    if (metadata.type === 'body' && metadata.metatype && metadata.metatype !== Object) {
      // An absent body reads as "every required field missing"; a non-object body (JSON null included) is the wrong shape.
      const reading = readRequestBody(value === undefined ? {} : value);
      if (!reading.ok) throw validationFailed([reading.error]);
      value = reading.body;
    }
    return super.transform(value, metadata);
  }
}
