/** Test helper: the error mapping every HTTP API adapter must honour, run against its loopback fake. */
import { FakeKind, FakeProvider, startFakeProvider } from '../fakes/fake-provider-servers';
import { EngineFailure } from '../../src/domain/failures';
import { ProviderTransientError } from '../../src/infra/providers/provider-errors';

export type AdapterCall = (settings: { baseUrl: string; apiKey: string; timeoutMs: number }, signal?: AbortSignal) => Promise<unknown>;

async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the call to fail');
}

export function describeErrorMapping(kind: FakeKind, call: AdapterCall): void {
  describe(`${kind} error mapping`, () => {
    let fake: FakeProvider;
    const settings = (overrides: Partial<{ apiKey: string; timeoutMs: number }> = {}) => ({
      baseUrl: fake.baseUrl,
      apiKey: fake.apiKey ?? 'unused',
      timeoutMs: 5000,
      ...overrides,
    });

    beforeEach(async () => {
      fake = await startFakeProvider(kind);
    });
    afterEach(() => fake.close());

    it('a rejected API key is a permanent EngineFailure whose message never contains the key', async () => {
      const wrongKey = 'sk-wrong-key-9f8e7d6c5b4a39281706';
      const error = await failure(call(settings({ apiKey: wrongKey })));
      expect(error).toBeInstanceOf(EngineFailure);
      expect(error).not.toBeInstanceOf(ProviderTransientError);
      expect(error.message).toMatch(/API key/);
      expect(error.message).not.toContain(wrongKey);
      expect(error.message).not.toContain(fake.apiKey!);
      expect(fake.requests).toHaveLength(1);
    });

    it.each([429, 500, 503])('HTTP %d is a ProviderTransientError naming the status', async (status) => {
      fake.failNext(status);
      const error = await failure(call(settings()));
      expect(error).toBeInstanceOf(ProviderTransientError);
      expect(error.message).toContain(String(status));
      expect((error as ProviderTransientError).status).toBe(status);
      if (status === 429) expect((error as ProviderTransientError).retryAfterMs).toBe(2000);
    });

    it('a request that outlives the timeout is a ProviderTransientError', async () => {
      fake.failNext('timeout');
      const started = Date.now();
      const error = await failure(call(settings({ timeoutMs: 200 })));
      expect(error).toBeInstanceOf(ProviderTransientError);
      expect(error.message).toMatch(/timed out/);
      expect(Date.now() - started).toBeLessThan(3000);
    });

    it('a 200 whose body is not JSON is an EngineFailure', async () => {
      fake.failNext('malformed');
      const error = await failure(call(settings()));
      expect(error).toBeInstanceOf(EngineFailure);
      expect(error.message).toMatch(/not valid JSON/);
    });

    it('a connection refused is a ProviderTransientError', async () => {
      const baseUrl = fake.baseUrl;
      await fake.close();
      const error = await failure(call({ ...settings(), baseUrl }));
      expect(error).toBeInstanceOf(ProviderTransientError);
      expect(error.message).toMatch(/network error/);
    });

    it("the caller's abort is passed through as its own reason", async () => {
      fake.failNext('timeout');
      const controller = new AbortController();
      const reason = new Error('scan cancelled');
      setTimeout(() => controller.abort(reason), 50);
      const error = await failure(call(settings(), controller.signal));
      expect(error).toBe(reason);
    });
  });
}
