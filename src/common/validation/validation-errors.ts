import type { ValidationError } from 'class-validator';
import type { FieldError } from '../errors/api-error';

/** class-validator constraint names mapped to the spec's field codes. */
const CODE_BY_CONSTRAINT: Record<string, string> = {
  isDefined: 'required',
  maxLength: 'too_long',
  arrayMaxSize: 'invalid',
  whitelistValidation: 'unknown',
};

// A wrong type explains every other failure on the same value, so it is the one reported.
const TYPE_CONSTRAINTS = ['isString', 'isInt', 'isNumber', 'isBoolean', 'isArray', 'isObject', 'isUUID', 'isDateString', 'isISO8601'];

function primaryConstraint(names: string[]): string {
  return names.find((n) => TYPE_CONSTRAINTS.includes(n)) ?? names.find((n) => n !== 'isDefined') ?? names[0];
}

function joinPath(parent: string, property: string): string {
  if (/^\d+$/.test(property)) return `${parent}[${property}]`;
  return parent ? `${parent}.${property}` : property;
}

/** Flattens class-validator's tree into `{path, code, message}` entries, one per field. */
export function toFieldErrors(errors: ValidationError[], parent = ''): FieldError[] {
  const out: FieldError[] = [];
  for (const error of errors) {
    const path = joinPath(parent, error.property);
    const constraints = error.constraints ?? {};
    const names = Object.keys(constraints);
    if (names.length > 0) {
      // The first failing rule wins per field; "missing" outranks shape complaints about an absent value.
      const name =
        error.value === undefined || error.value === null
          ? (names.find((n) => n === 'isDefined') ?? names[0])
          : primaryConstraint(names);
      const code = error.value === undefined || error.value === null ? 'required' : (CODE_BY_CONSTRAINT[name] ?? 'invalid');
      out.push({ path, code, message: constraints[name] });
    }
    if (error.children?.length) out.push(...toFieldErrors(error.children, path));
  }
  return out;
}
