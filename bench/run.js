#!/usr/bin/env node
// Benchmarks of the request chain (npm run bench). Needs `npm run build` output and a Postgres + Redis:
// DATABASE_URL / REDIS_URL, else the local services on their standard ports.
// Compares GET /v1/meta/engines through the full chain (auth, rate limit, request id) with the same Nest
// handler with the chain off, and with a plain Express handler, at 50 connections.
const autocannon = require('autocannon');
const { benchEnvironment, createApiKey, startServer } = require('./lib');
const os = require('node:os');

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);

async function main() {
  process.env.LOG_LEVEL ??= 'info';
  // Benchmarks raise the limits instead of disabling the guard (decisions.md section 4).
  process.env.RATE_LIMIT_READS ??= '1000000000';
  benchEnvironment();

  const { server, port } = await startServer(process.env.BENCH_PROFILE ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_PROFILE] : []);
  const key = await createApiKey('bench');

  const run = (title, path, headers = {}) =>
    autocannon({ title, url: `http://127.0.0.1:${port}${path}`, connections: CONNECTIONS, duration: DURATION, headers });
  await run('warm-up', '/v1/meta/engines', { authorization: `Bearer ${key}` });
  const raw = await run('plain Express handler', '/__bench/raw');
  const bare = await run('Nest handler, chain off', '/__bench/engines');
  const full = await run('Nest handler, full chain', '/v1/meta/engines', { authorization: `Bearer ${key}` });
  server.disconnect();

  const row = (r) => `| ${r.title} | ${r.requests.average.toFixed(0)} | ${r.latency.p50} | ${r.latency.p99} | ${r.non2xx} |`;
  const ratio = full.requests.average / bare.requests.average;
  const lines = [
    `Machine: ${os.cpus().length} x ${os.cpus()[0].model}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}; ${CONNECTIONS} connections, ${DURATION} s each.`,
    '',
    '| route | req/s | p50 ms | p99 ms | non-2xx |',
    '|---|---|---|---|---|',
    row(raw),
    row(bare),
    row(full),
    '',
    `Auth + rate limit + request id: throughput ${(ratio * 100).toFixed(1)}% of the same handler without them (cost ${((1 - ratio) * 100).toFixed(1)}%); p99 added ${full.latency.p99 - bare.latency.p99} ms.`,
  ];
  console.log(lines.join('\n'));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
