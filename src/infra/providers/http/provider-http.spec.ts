import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BodyTooLargeError, errorDetail, httpError, redact, requestJson } from './provider-http';
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

describe('requestJson body bound', () => {
  let server: Server;
  let url: string;
  beforeAll(async () => {
    server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ data: 'x'.repeat(4096) }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/anything`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const request = (maxBytes?: number) => ({ provider: 'openai', url, headers: {}, body: {}, timeoutMs: 5000, secrets: [], maxBytes });

  it('reads a body within the bound', async () => {
    expect(await requestJson(request())).toEqual({ data: 'x'.repeat(4096) });
  });

  it('refuses a body past the bound instead of holding it all in memory', async () => {
    await expect(requestJson(request(1024))).rejects.toBeInstanceOf(BodyTooLargeError);
  });
});
