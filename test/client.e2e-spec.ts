import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { createRegScanClient, RegScanProblem, type RegScanClient, type ScanEvent } from '../clients/typescript/src';
import { AccountsService } from '../src/modules/accounts/accounts.service';
import { ScanStreamService } from '../src/modules/scans/scan-stream.service';
import { startFakeVoiceServer } from './fakes/fake-media-servers';
import { pollUntil } from './support/poll';
import { startTcpProxy } from './support/tcp-proxy';
import { bootTestAppWithEnv, newAccount, type TestApp } from './support/test-app';

const run = promisify(execFile);
const ROOT = join(__dirname, '..');
const CONFIG = { jurisdictions: ['EU'], areas: ['Payments'], horizon: 12 as const };

/** Every request the client sends, and (for streams) the raw text the server sent back, as the client saw it. */
function recordingFetch() {
  const streams: Array<{ lastEventId: string | null; authorization: string | null; text: Promise<string> }> = [];
  const fetchAndRecord = async (request: Request) => {
    const response = await fetch(request);
    if (!new URL(request.url).pathname.endsWith('/stream') || !response.body) return response;
    const [forClient, forTest] = response.body.tee();
    streams.push({
      lastEventId: request.headers.get('last-event-id'),
      authorization: request.headers.get('authorization'),
      text: readAll(forTest),
    });
    return new Response(forClient, response);
  };
  return { fetch: fetchAndRecord, streams };
}

/** The text of a body up to its end or its failure (a dropped connection). */
async function readAll(body: ReadableStream<Uint8Array>): Promise<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return text;
      text += decoder.decode(value, { stream: true });
    }
  } catch {
    return text;
  }
}

async function collect(events: AsyncIterable<ScanEvent>, onEvent?: (event: ScanEvent) => void): Promise<ScanEvent[]> {
  const seen: ScanEvent[] = [];
  for await (const event of events) {
    seen.push(event);
    onEvent?.(event);
  }
  return seen;
}

describe('the typed client (clients/typescript) against the running service', () => {
  let t: TestApp;
  let baseUrl: string;

  beforeAll(async () => {
    // Slow enough that a stream opened right after the 202 sees the scan running (about 1.6 s per scan).
    t = await bootTestAppWithEnv({ OFFLINE_STEP_MS: '200' });
    const server = t.app.getHttpServer().listen(0);
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await t.close();
  });

  const clientFor = async (options: { baseUrl?: string; fetch?: (request: Request) => Promise<Response> } = {}) => {
    const owner = await newAccount(t);
    return { owner, client: createRegScanClient({ baseUrl: options.baseUrl ?? baseUrl, apiKey: owner.apiKey, fetch: options.fetch }) };
  };
  const syncScan = async (client: RegScanClient) => {
    const { data, response } = await client.POST('/v1/scans', { body: CONFIG });
    expect(response.status).toBe(200);
    if (!data || !('snapshot_id' in data) || !data.snapshot_id) throw new Error(`no snapshot: ${JSON.stringify(data)}`);
    return data.snapshot_id;
  };
  const asyncScan = async (client: RegScanClient) => {
    const { data, response } = await client.POST('/v1/scans', { params: { query: { mode: 'async' } }, body: CONFIG });
    expect(response.status).toBe(202);
    return data!.scan_id;
  };

  it('keeps clients/typescript/src/schema.d.ts in step with openapi/openapi.json (run `npm run client:generate`)', async () => {
    const scripts = (await import('../package.json')).scripts as Record<string, string>;
    const [, ...args] = scripts['client:generate']!.split(' ');
    const cli = join(dirname(require.resolve('openapi-typescript/package.json')), 'bin', 'cli.js');
    const result = await run(process.execPath, [cli, ...args, '--check'], { cwd: ROOT }).then(
      () => 0,
      (error: { code: number }) => error.code,
    );
    expect(result).toBe(0);
  }, 60_000);

  it('estimates, scans asynchronously, follows the stream to complete, reads the snapshot and its drift, exports a PDF', async () => {
    const { client } = await clientFor();
    const estimate = await client.POST('/v1/scans/estimate', { body: CONFIG });
    expect(estimate.response.status).toBe(200);
    expect(estimate.data).toMatchObject({ engine: 'v4', confidence: expect.any(String) });
    const baselineId = await syncScan(client);

    const events = await collect(client.streamScan(await asyncScan(client)));
    const last = events[events.length - 1]!;
    if (last.type !== 'complete') throw new Error(`ended with ${JSON.stringify(last)}`);
    const progress = events.slice(0, -1);
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.every((event) => event.type === 'progress')).toBe(true);
    const percents = progress.map((event) => (event.type === 'progress' ? event.percent : NaN));
    expect(percents).toEqual([...percents].sort((a, b) => a - b));

    const snapshot = await client.GET('/v1/snapshots/{id}', { params: { path: { id: last.snapshotId } } });
    expect(snapshot.data).toMatchObject({ id: last.snapshotId, config: expect.objectContaining({ jurisdictions: ['EU'] }) });
    expect(snapshot.data!.data.items).toHaveLength((last.data.items as unknown[]).length);
    const drift = await client.GET('/v1/snapshots/{id}/drift', { params: { path: { id: last.snapshotId } } });
    expect(drift.data).toMatchObject({ available: true, baseline_snapshot_id: baselineId });

    const created = await client.POST('/v1/exports', {
      body: { snapshot_id: last.snapshotId, provider: 'internal-pdf', artifact_type: 'pdf' },
    });
    expect(created.response.status).toBe(202);
    const job = await client.waitForExport(created.data!.export_job_id, { intervalMs: 200, timeoutMs: 30_000 });
    expect(job).toMatchObject({ status: 'completed', result_mime: 'application/pdf' });
    const whole = await client.downloadExport(job.id);
    expect(whole).toMatchObject({ status: 200, contentType: 'application/pdf', filename: job.result_filename, contentRange: null });
    expect(whole.bytes.length).toBe(job.result_size_bytes);
    expect(Buffer.from(whole.bytes.subarray(0, 5)).toString()).toBe('%PDF-');
    // Only audio and video answer ranges (docs/decisions.md, "Downloads"): a PDF comes whole, 200.
    const ranged = await client.downloadExport(job.id, { range: 'bytes=0-99' });
    expect(ranged).toMatchObject({ status: 200, contentRange: null });
    expect(ranged.bytes).toEqual(whole.bytes);
  });

  it('downloads a byte range of an audio export (206), and a range past the end is a RegScanProblem 416', async () => {
    const voice = await startFakeVoiceServer();
    try {
      const { owner, client } = await clientFor();
      const accounts = t.app.get(AccountsService);
      await accounts.setIntegration(await accounts.ensureAccount(owner.accountId), 'voicePodcast', {
        apiKey: voice.apiKey,
        baseUrl: voice.baseUrl,
      });
      const snapshotId = await syncScan(client);
      const created = await client.POST('/v1/exports', {
        body: { snapshot_id: snapshotId, provider: 'voice-briefing', artifact_type: 'podcast-briefing', options: { voiceId: 'voice-123' } },
      });
      const job = await client.waitForExport(created.data!.export_job_id, { intervalMs: 200, timeoutMs: 30_000 });
      expect(job).toMatchObject({ status: 'completed', result_mime: 'audio/mpeg' });

      const whole = await client.downloadExport(job.id);
      expect(whole).toMatchObject({ status: 200, contentType: 'audio/mpeg', filename: expect.stringMatching(/\.mp3$/) });
      const size = whole.bytes.length;
      const part = await client.downloadExport(job.id, { range: 'bytes=0-99' });
      expect(part).toMatchObject({ status: 206, contentRange: `bytes 0-99/${size}` });
      expect(part.bytes).toEqual(whole.bytes.subarray(0, 100));
      await expect(client.downloadExport(job.id, { range: `bytes=${size}-` })).rejects.toMatchObject({
        name: 'RegScanProblem',
        status: 416,
        code: 'range_not_satisfiable',
      });
    } finally {
      await voice.close();
    }
  });

  it('waits out a 429 for its Retry-After while polling an export', async () => {
    const polls: number[] = [];
    const throttleFirstPoll = async (request: Request) => {
      if (!/\/v1\/exports\/[^/]+$/.test(new URL(request.url).pathname)) return fetch(request);
      polls.push(Date.now());
      if (polls.length > 1) return fetch(request);
      // The reads bucket takes a minute to empty for real; this answer is the one the service gives when it does.
      const problem = {
        type: `${baseUrl}/problems/rate-limit-exceeded`,
        title: 'Rate limit exceeded',
        status: 429,
        code: 'rate_limit_exceeded',
      };
      return Response.json(problem, { status: 429, headers: { 'Content-Type': 'application/problem+json', 'Retry-After': '1' } });
    };
    const { client } = await clientFor({ fetch: throttleFirstPoll });
    const snapshotId = await syncScan(client);
    const created = await client.POST('/v1/exports', { body: { snapshot_id: snapshotId, provider: 'internal-csv', artifact_type: 'csv' } });
    const job = await client.waitForExport(created.data!.export_job_id, { intervalMs: 50, timeoutMs: 30_000 });
    expect(job.status).toBe('completed');
    expect(polls[1]! - polls[0]!).toBeGreaterThanOrEqual(1000);
  });

  it('reconnects a dropped stream and still delivers the terminal event (Last-Event-ID only when the server sent ids)', async () => {
    const proxy = await startTcpProxy({ host: '127.0.0.1', port: Number(new URL(baseUrl).port) });
    try {
      const recorder = recordingFetch();
      const { client } = await clientFor({ baseUrl: `http://127.0.0.1:${proxy.port}`, fetch: recorder.fetch });
      const scanId = await asyncScan(client);
      let dropped = false;
      const events = await collect(client.streamScan(scanId, { reconnectDelayMs: 50 }), () => {
        if (dropped) return;
        dropped = true;
        proxy.cut();
        proxy.restore();
      });
      expect(events[events.length - 1]).toMatchObject({ type: 'complete' });
      expect(recorder.streams.length).toBeGreaterThanOrEqual(2);
      const firstText = await recorder.streams[0]!.text;
      const idsSent = [...firstText.slice(0, firstText.lastIndexOf('\n\n')).matchAll(/^id: ?(.*)$/gm)].map((match) => match[1]);
      expect(recorder.streams[1]!.lastEventId).toBe(idsSent.length ? idsSent[idsSent.length - 1] : null);
      expect(recorder.streams.every((stream) => stream.authorization?.startsWith('Bearer rgs_'))).toBe(true);
    } finally {
      // Also drops the client's idle keep-alive sockets, which would hold close() until they time out.
      proxy.cut();
      await proxy.close();
    }
  });

  it('closes the connection when the caller stops reading or aborts, not when the scan ends', async () => {
    const { client } = await clientFor();
    const scanId = await asyncScan(client);
    const streamsClosed = () => pollUntil(async () => t.app.get(ScanStreamService).openStreams === 0, 5000, 20);
    for await (const event of client.streamScan(scanId)) {
      expect(event.type).toBe('progress');
      break;
    }
    await streamsClosed();
    const controller = new AbortController();
    const aborted = collect(client.streamScan(scanId, { signal: controller.signal }), () => controller.abort(new Error('enough')));
    await expect(aborted).rejects.toThrow('enough');
    await streamsClosed();
    const scan = await client.GET('/v1/scans/{id}', { params: { path: { id: scanId } } });
    expect(scan.data?.status).toBe('running');
  });

  it('throws RegScanProblem carrying the problem document for refusals', async () => {
    const { client } = await clientFor();
    const unknown = randomUUID();
    const notFound = {
      name: 'RegScanProblem',
      status: 404,
      code: 'not_found',
      title: 'Not found',
      errors: [],
      requestId: expect.any(String),
    };
    await expect(collect(client.streamScan(unknown))).rejects.toMatchObject(notFound);
    await expect(client.waitForExport(unknown)).rejects.toMatchObject(notFound);
    const refused = await client.downloadExport(unknown).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(RegScanProblem);
    expect(refused).toMatchObject({ ...notFound, type: expect.stringMatching(/\/problems\/not-found$/), detail: expect.any(String) });

    const stranger = createRegScanClient({ baseUrl, apiKey: `rgs_live_${'x'.repeat(32)}` });
    await expect(stranger.downloadExport(unknown)).rejects.toMatchObject({ status: 401, code: 'authentication_invalid' });
  });
});

describe('the typed client against a server that sends event ids', () => {
  it('resumes with Last-Event-ID, honours retry:, skips comments and joins multi-line data', async () => {
    const requests: IncomingHttpHeaders[] = [];
    const server = createServer((req, res) => {
      requests.push(req.headers);
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      if (requests.length === 1) {
        const progress = JSON.stringify({ type: 'progress', phase: 'plan', percent: 5, message: 'Planning' });
        res.write(`retry: 10\r\n: heartbeat\r\n\r\nid: 7\r\ndata: ${progress}\r\n\r\n`, () => res.socket?.destroy());
      } else {
        res.write('data: {"type":"complete",\r');
        res.end('\ndata: "snapshotId":"s-1","data":{}}\r\n\r\n');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const client = createRegScanClient({
        baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        apiKey: 'rgs_live_test',
      });
      const events = await collect(client.streamScan('5f0c7a1e-0000-4000-8000-000000000000', { reconnectDelayMs: 5000 }));
      expect(events).toEqual([
        { type: 'progress', phase: 'plan', percent: 5, message: 'Planning' },
        { type: 'complete', snapshotId: 's-1', data: {} },
      ]);
      expect(requests.map((headers) => headers['last-event-id'])).toEqual([undefined, '7']);
      expect(requests.every((headers) => headers.authorization === 'Bearer rgs_live_test' && headers.accept === 'text/event-stream')).toBe(
        true,
      );
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  }, 4000);
});
