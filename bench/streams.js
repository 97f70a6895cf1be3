#!/usr/bin/env node
// How many scan progress streams one API process holds, and what each costs in memory.
// Usage: npm run build && node bench/streams.js   (BENCH_STREAMS, default 2000)
const http = require('node:http');
const { fork, execFileSync } = require('node:child_process');
const { join } = require('node:path');
const os = require('node:os');

const STREAMS = Number(process.env.BENCH_STREAMS ?? 2000);

async function main() {
  process.env.DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/rgs_bench';
  process.env.REDIS_URL ??= 'redis://127.0.0.1:6379/9';
  process.env.REDIS_PREFIX ??= 'rgs_bench';
  process.env.LOG_LEVEL ??= 'warn';
  process.env.OFFLINE_STEP_MS = '600000'; // the scan stays running while the streams are open
  process.env.RATE_LIMIT_SCANS = '1000000';
  ensureDatabase(process.env.DATABASE_URL);
  require('reflect-metadata');
  const { runCli } = require('../dist/src/cli/run-cli');

  const server = fork(join(__dirname, 'server.js'), { stdio: ['ignore', 'ignore', 'inherit', 'ipc'], execArgv: ['--expose-gc'] });
  const port = await new Promise((resolve) => server.once('message', (m) => resolve(m.port)));
  const memory = () => new Promise((resolve) => { server.once('message', (m) => resolve(m.memory)); server.send('memory'); });

  let key = '';
  await runCli(['keys:create', '--account', `bench-streams-${Date.now()}`, '--name', 'bench'], { out: (t) => (key += t), err: () => undefined });
  key = key.trim();
  const auth = { Authorization: `Bearer ${key}` };
  const scan = await (await fetch(`http://127.0.0.1:${port}/v1/scans?mode=async`, {
    method: 'POST',
    headers: { ...auth, 'Content-Type': 'application/json' },
    body: JSON.stringify({ jurisdictions: ['EU'], areas: ['Payments'], horizon: 12 }),
  })).json();

  const before = await memory();
  const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
  const requests = [];
  let firstEvents = 0;
  const started = Date.now();
  await Promise.all(
    Array.from({ length: STREAMS }, () =>
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
  server.disconnect();

  const perStream = (after.rss - before.rss) / STREAMS;
  const heapPerStream = (after.heapUsed - before.heapUsed) / STREAMS;
  console.log(`Machine: ${os.cpus().length} x ${os.cpus()[0].model}, Node ${process.version}.`);
  console.log('');
  console.log('| streams | got first event | opened in | RSS before | RSS after | RSS per stream | heap per stream |');
  console.log('|---|---|---|---|---|---|---|');
  console.log(`| ${STREAMS} | ${firstEvents} | ${openedIn} ms | ${mb(before.rss)} | ${mb(after.rss)} | ${(perStream / 1024).toFixed(1)} KiB | ${(heapPerStream / 1024).toFixed(1)} KiB |`);
}

const mb = (bytes) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;

function ensureDatabase(url) {
  const parsed = new URL(url);
  const name = parsed.pathname.slice(1);
  parsed.pathname = '/postgres';
  try {
    execFileSync('psql', [parsed.toString(), '-qc', `CREATE DATABASE "${name}"`], { stdio: 'ignore' });
  } catch {
    // exists already
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
