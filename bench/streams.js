#!/usr/bin/env node
// How many scan progress streams one API process holds, and what each costs in memory.
// Usage: npm run build && node bench/streams.js   (BENCH_STREAMS, default 2000)
const http = require('node:http');
const { benchEnvironment, createApiKey, startServer } = require('./lib');
const os = require('node:os');

const STREAMS = Number(process.env.BENCH_STREAMS ?? 2000);

async function main() {
  process.env.LOG_LEVEL ??= 'warn';
  // The scan stays running while the streams are open.
  benchEnvironment({ OFFLINE_STEP_MS: '600000', RATE_LIMIT_SCANS: '1000000' });
  const { server, port } = await startServer(['--expose-gc']);
  const memory = () =>
    new Promise((resolve) => {
      server.once('message', (m) => resolve(m.memory));
      server.send('memory');
    });

  const key = await createApiKey('bench-streams');
  const auth = { Authorization: `Bearer ${key}` };
  const scan = await (
    await fetch(`http://127.0.0.1:${port}/v1/scans?mode=async`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ jurisdictions: ['EU'], areas: ['Payments'], horizon: 12 }),
    })
  ).json();

  const before = await memory();
  const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
  const requests = [];
  let firstEvents = 0;
  const started = Date.now();
  await Promise.all(
    Array.from(
      { length: STREAMS },
      () =>
        new Promise((resolve, reject) => {
          const req = http.get({ host: '127.0.0.1', port, path: scan.stream_url, headers: auth, agent }, (res) => {
            res.once('data', () => {
              firstEvents++;
              resolve();
            });
          });
          req.on('error', reject);
          requests.push(req);
        }),
    ),
  );
  const openedIn = Date.now() - started;
  const after = await memory();
  for (const req of requests) req.destroy();
  server.kill('SIGKILL');

  const perStream = (after.rss - before.rss) / STREAMS;
  const heapPerStream = (after.heapUsed - before.heapUsed) / STREAMS;
  console.log(`Machine: ${os.cpus().length} x ${os.cpus()[0].model}, Node ${process.version}.`);
  console.log('');
  console.log('| streams | got first event | opened in | RSS before | RSS after | RSS per stream | heap per stream |');
  console.log('|---|---|---|---|---|---|---|');
  console.log(
    `| ${STREAMS} | ${firstEvents} | ${openedIn} ms | ${mb(before.rss)} | ${mb(after.rss)} | ${(perStream / 1024).toFixed(1)} KiB | ${(heapPerStream / 1024).toFixed(1)} KiB |`,
  );
}

const mb = (bytes) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
