import { abortReason, sleep } from '../http/abortable-sleep';
import { BodyTooLargeError, type BytesResponse } from '../http/provider-http';
import { ProviderTransientError } from '../provider-errors';

export interface ResultDownload {
  /** One GET of the result's bytes. */
  request: () => Promise<BytesResponse>;
  attempts: number;
  pollIntervalMs: number;
  /** Why an empty body is not a result ("the podcast is empty"). */
  emptyReason: string;
  signal?: AbortSignal;
}

/**
 * The bytes of a finished generation job, retried while the service answers transient failures or an empty body
 * (results can lag behind the job's status). Resolves `{ failure }` with the last reason when they cannot be had:
 * the caller names the job in its ResultUnavailableError.
 */
export async function downloadResult(download: ResultDownload): Promise<{ bytes: Buffer; contentType: string } | { failure: string }> {
  const { signal } = download;
  let failure = '';
  for (let attempt = 1; attempt <= Math.max(1, download.attempts); attempt++) {
    let response: BytesResponse | undefined;
    try {
      response = await download.request();
    } catch (error) {
      if (signal?.aborted) throw abortReason(signal);
      failure = error instanceof Error ? error.message : String(error);
      if (!(error instanceof ProviderTransientError) || error instanceof BodyTooLargeError) break;
    }
    if (response && response.bytes.length > 0) return { bytes: response.bytes, contentType: response.contentType };
    if (response) failure = download.emptyReason;
    if (attempt < download.attempts) await sleep(download.pollIntervalMs, signal);
  }
  return { failure };
}
