import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';

/** A request as a loopback fake received it, kept so tests can check what the adapter sent on the wire. */
export interface RecordedRequest {
  method: string;
  /** Path and query, e.g. `/v1/messages`. */
  path: string;
  headers: IncomingHttpHeaders;
  rawBody: string;
  /** Parsed JSON body, undefined when absent or not JSON. */
  body: unknown;
}

/** Reads the whole request and records it. */
export function recordRequest(req: IncomingMessage): Promise<RecordedRequest> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('error', reject);
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try {
        body = rawBody === '' ? undefined : (JSON.parse(rawBody) as unknown);
      } catch {
        body = undefined;
      }
      resolve({ method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers, rawBody, body });
    });
  });
}
