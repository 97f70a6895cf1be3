import { type AdapterOptions, DEFAULT_TIMEOUT_MS, requestJson, requestJsonObject, trimBase } from '../http/provider-http';

/**
 * What every LLM vendor adapter shares: its base URL (overridable, so tests reach a loopback fake), its timeout,
 * its credential, and one JSON POST with the shared error mapping and key redaction of provider-http.ts. An
 * adapter adds only its vendor's wire format.
 */
export abstract class VendorApi {
  abstract readonly provider: string;
  protected readonly baseUrl: string;
  protected readonly timeoutMs: number;

  protected constructor(
    protected readonly options: AdapterOptions,
    defaultBaseUrl: string,
    /** The environment variable holding the key, named in authentication errors. */
    private readonly envKey: string,
  ) {
    this.baseUrl = trimBase(options.baseUrl ?? defaultBaseUrl);
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  /** The headers that carry the credential. */
  protected abstract authHeaders(): Record<string, string>;

  /** POSTs `body` as JSON to `path` and returns the parsed reply. */
  protected post(path: string, body: unknown, model: string, signal?: AbortSignal): Promise<unknown> {
    return requestJson(this.request(path, body, model, signal));
  }

  /** As post, for endpoints whose reply must be a JSON object. */
  protected postForObject(path: string, body: unknown, model: string, signal?: AbortSignal): Promise<Record<string, unknown>> {
    return requestJsonObject(this.request(path, body, model, signal));
  }

  private request(path: string, body: unknown, model: string, signal?: AbortSignal) {
    return {
      provider: this.provider,
      url: `${this.baseUrl}${path}`,
      headers: this.authHeaders(),
      body,
      timeoutMs: this.timeoutMs,
      signal,
      secrets: [this.options.apiKey],
      envKey: this.envKey,
      subject: `model ${model}`,
    };
  }
}
