import { ApiSchema, type ApiSchemaOptions } from '@nestjs/swagger';

/**
 * Marks a DTO's schema open (`additionalProperties: true`): readers must keep keys it does not list, as the snapshot
 * envelope gains keys within v1 (../shared/spec/api-v1.md, Versioning). @nestjs/swagger copies every ApiSchema option
 * but `name` into the schema; its type only declares `name` and `description`, hence the widening.
 */
export function ApiOpenSchema(description: string): ClassDecorator {
  return ApiSchema({ description, additionalProperties: true } as ApiSchemaOptions);
}
