import { ValidationError } from 'class-validator';
import { toFieldErrors } from './validation-errors';

const error = (property: string, value: unknown, constraints: Record<string, string>, children: ValidationError[] = []) =>
  Object.assign(new ValidationError(), { property, value, constraints, children });

describe('toFieldErrors', () => {
  it('reports a missing value as required whatever else failed', () => {
    expect(toFieldErrors([error('name', undefined, { maxLength: 'too long', isString: 'not a string', isDefined: 'name is required' })])).toEqual([
      { path: 'name', code: 'required', message: 'name is required' },
    ]);
  });

  it('prefers the type failure over length failures', () => {
    expect(toFieldErrors([error('name', 42, { maxLength: 'too long', isString: 'name must be a string' })])).toEqual([
      { path: 'name', code: 'invalid', message: 'name must be a string' },
    ]);
  });

  it('maps maxLength to too_long and unknown properties to unknown', () => {
    expect(toFieldErrors([error('name', 'x'.repeat(300), { maxLength: 'at most 200' }), error('extra', 1, { whitelistValidation: 'not allowed' })])).toEqual([
      { path: 'name', code: 'too_long', message: 'at most 200' },
      { path: 'extra', code: 'unknown', message: 'not allowed' },
    ]);
  });

  it('builds paths with indexes and dots for nested values', () => {
    const nested = error('options', {}, {}, [error('2', 'x', { isIn: 'bad value' }, []), error('styleSlug', 'y', { isIn: 'bad slug' })]);
    expect(toFieldErrors([nested]).map((e) => e.path)).toEqual(['options[2]', 'options.styleSlug']);
  });
});
