import { isTransientInfraError } from './transient';

describe('isTransientInfraError', () => {
  it.each([
    [{ code: 'ECONNREFUSED' }],
    [{ code: '57P01' }],
    [{ code: '53300' }],
    [{ name: 'QueryFailedError', driverError: { code: '08006' } }],
    [{ name: 'MaxRetriesPerRequestError' }],
    [{ name: 'StorageUnavailableError', cause: { name: 'SlowDown', $metadata: { httpStatusCode: 503 } } }],
    [new Error('Connection is closed.')],
    [{ message: 'wrapped', cause: { code: 'ETIMEDOUT' } }],
  ])('treats %p as a backing service outage', (error) => {
    expect(isTransientInfraError(error)).toBe(true);
  });

  it.each([[{ code: '23505' }], [new TypeError('x is undefined')], [null], ['boom']])('treats %p as a bug, not an outage', (error) => {
    expect(isTransientInfraError(error)).toBe(false);
  });
});
