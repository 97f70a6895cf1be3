import type { FieldError } from '../errors/api-error';
import { tooManyBodyMembers } from './body-members';

export type RequestBody = Record<string, unknown>;

export type RequestBodyReading =
  | { ok: true; body: RequestBody; errors: FieldError[] }
  /** The body cannot be read field by field: this one error is the whole answer. */
  | { ok: false; error: FieldError };

/**
 * The checks every JSON request body gets before its own schema: it is a plain object, its member count is bounded
 * (see body-members.ts), and, when `accepted` is given, each member is a field of that request (`unknown` errors,
 * reported together with the schema's own).
 */
export function readRequestBody(value: unknown, accepted?: readonly string[]): RequestBodyReading {
  if (!isPlainObject(value)) return { ok: false, error: { path: '', code: 'invalid', message: 'The request body must be a JSON object.' } };
  const tooMany = tooManyBodyMembers(value);
  if (tooMany) return { ok: false, error: tooMany };
  const errors: FieldError[] = [];
  for (const key of accepted ? Object.keys(value) : []) {
    if (!accepted!.includes(key)) {
      errors.push({ path: key, code: 'unknown', message: `Unknown field ${key}; accepted fields are ${accepted!.join(', ')}.` });
    }
  }
  return { ok: true, body: value, errors };
}

function isPlainObject(value: unknown): value is RequestBody {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
