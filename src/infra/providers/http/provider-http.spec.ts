import { errorDetail, httpError, redact } from './provider-http';
import { ProviderFailure, ProviderTransientError } from '../provider-errors';

describe('provider http helpers', () => {
  it('redacts every occurrence of a secret', () => {
    expect(redact('key abcd1234 and abcd1234', ['abcd1234', undefined])).toBe('key [redacted] and [redacted]');
  });

  it('extracts the message from each vendor error shape', () => {
    expect(errorDetail('{"type":"error","error":{"type":"x","message":"anthropic says"}}')).toBe('anthropic says');
    expect(errorDetail('{"error":{"message":"openai says","code":null}}')).toBe('openai says');
    expect(errorDetail('{"message":"cohere says"}')).toBe('cohere says');
    expect(errorDetail('<html><body><h1>502 Bad Gateway</h1></body></html>')).toBe('502 Bad Gateway');
    expect(errorDetail('x'.repeat(1000))).toHaveLength(300);
  });

  it('classifies statuses', () => {
    const context = { provider: 'p', body: '', headers: new Headers(), secrets: [] };
    expect(httpError({ ...context, status: 408 })).toBeInstanceOf(ProviderTransientError);
    expect(httpError({ ...context, status: 529 })).toBeInstanceOf(ProviderTransientError);
    expect(httpError({ ...context, status: 400 })).toBeInstanceOf(ProviderFailure);
    expect(httpError({ ...context, status: 401, envKey: 'P_API_KEY' }).message).toMatch(/API key.*Check P_API_KEY/);
    expect(httpError({ ...context, status: 429, headers: new Headers({ 'retry-after': '1.5' }) })).toMatchObject({
      status: 429,
      retryAfterMs: 1500,
    });
  });
});
