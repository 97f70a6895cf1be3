import http from 'node:http';

export interface SseCapture {
  status: number;
  contentType: string | undefined;
  events: Array<Record<string, unknown>>;
  /** The SSE `id:` each event came with (undefined when it had none), index for index with `events`. */
  ids: Array<string | undefined>;
  comments: string[];
  raw: string;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close(): void;
  /** Resolves once an event matching the predicate has arrived. */
  waitFor(predicate: (event: Record<string, unknown>) => boolean, timeoutMs?: number): Promise<Record<string, unknown>>;
}

/** A minimal SSE client over node:http that records every `data:` event (with its `id:`) and comment line. */
export function openSse(baseUrl: string, path: string, headers: Record<string, string>): Promise<SseCapture> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${baseUrl}${path}`, { headers: { Accept: 'text/event-stream', ...headers } }, (res) => {
      let buffer = '';
      let endedResolve!: () => void;
      const waiters: Array<() => void> = [];
      const capture: SseCapture = {
        status: res.statusCode ?? 0,
        contentType: res.headers['content-type'],
        events: [],
        ids: [],
        comments: [],
        raw: '',
        ended: new Promise((r) => (endedResolve = r)),
        close: () => req.destroy(),
        waitFor(predicate, timeoutMs = 15000) {
          return new Promise((ok, fail) => {
            const check = () => {
              const found = capture.events.find(predicate);
              if (found) {
                clearTimeout(timer);
                ok(found);
                return true;
              }
              return false;
            };
            const timer = setTimeout(
              () => fail(new Error(`no matching event in ${timeoutMs} ms; got ${JSON.stringify(capture.events.map((e) => e.type))}`)),
              timeoutMs,
            );
            // Checked again after every chunk until it matches (a chunk may hold only a heartbeat).
            const waiter = () => {
              if (!check()) waiters.push(waiter);
            };
            waiter();
          });
        },
      };
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        capture.raw += chunk;
        buffer += chunk;
        let index: number;
        while ((index = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, index);
          buffer = buffer.slice(index + 2);
          const lines = block.split('\n');
          const id = lines.find((line) => line.startsWith('id: '))?.slice(4);
          for (const line of lines) {
            if (line.startsWith('data: ')) {
              capture.events.push(JSON.parse(line.slice(6)));
              capture.ids.push(id);
            } else if (line.startsWith(':')) capture.comments.push(line);
          }
        }
        for (const waiter of waiters.splice(0)) waiter();
      });
      res.on('end', () => endedResolve());
      res.on('close', () => endedResolve());
      resolve(capture);
    });
    req.on('error', reject);
  });
}
