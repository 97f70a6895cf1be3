import type { FieldError } from '../errors/api-error';

/**
 * Members a JSON body object may have. Every body of this API has at most 14 fields; a body with more is refused
 * as a whole (one error at path "") before any member is read, so a 2 MB body of 300,000 unknown members costs
 * one error instead of 300,000.
 */
export const MAX_BODY_MEMBERS = 64;

/** The one error for a body object with more than MAX_BODY_MEMBERS members; undefined when it has few enough. */
export function tooManyBodyMembers(body: object): FieldError | undefined {
  const count = Object.keys(body).length;
  if (count <= MAX_BODY_MEMBERS) return undefined;
  return { path: '', code: 'invalid', message: `The request body has ${count} members; it may have at most ${MAX_BODY_MEMBERS} members.` };
}
