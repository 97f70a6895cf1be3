import { MAX_BODY_MEMBERS, tooManyBodyMembers } from './body-members';

describe('tooManyBodyMembers', () => {
  const body = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`f${i}`, i]));

  it('lets a body of up to 64 members through', () => {
    expect(tooManyBodyMembers(body(MAX_BODY_MEMBERS))).toBeUndefined();
  });

  it('answers a larger body with one error at the root', () => {
    expect(tooManyBodyMembers(body(300_000))).toEqual({
      path: '',
      code: 'invalid',
      message: 'The request body has 300000 members; it may have at most 64 members.',
    });
  });
});
