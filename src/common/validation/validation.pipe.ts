import { ArgumentMetadata, Injectable, ValidationPipe } from '@nestjs/common';
import { validationFailed } from '../errors/api-error';
import { toFieldErrors } from './validation-errors';

/** Global pipe: DTOs are validated with class-validator and failures become 422 `validation_error`. */
@Injectable()
export class ApiValidationPipe extends ValidationPipe {
  constructor() {
    super({
      transform: true,
      whitelist: true,
      forbidNonWhitelisted: true,
      forbidUnknownValues: false,
      stopAtFirstError: false,
      validationError: { target: false, value: true },
      exceptionFactory: (errors) => validationFailed(toFieldErrors(errors)),
    });
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'body' && metadata.metatype && metadata.metatype !== Object) {
      // An absent body reads as "every required field missing"; a non-object body is the wrong shape.
      if (value === undefined || value === null) value = {};
      if (typeof value !== 'object' || Array.isArray(value)) {
        throw validationFailed([{ path: '', code: 'invalid', message: 'The request body must be a JSON object' }]);
      }
    }
    return super.transform(value, metadata);
  }
}
