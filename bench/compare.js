#!/usr/bin/env node
// The service against a hand-written Express server doing the same per-request work (npm run bench:compare).
// Needs `npm run build` output and PostgreSQL + Redis (DATABASE_URL / REDIS_URL, else the local services).
//
// Seeding goes through the service's own API: an API key from the operator CLI, then two offline scans
// (OFFLINE_STEP_MS=0) on a service started with APP_ROLE=all so a worker runs them. The measured service is a
// fresh process with APP_ROLE=api, NODE_ENV=production, LOG_LEVEL=warn and the reads limit raised (not disabled);
// bench/bare-server.js runs beside it on the same database and Redis. Per path, both must answer 200 with the
// same JSON shape, then autocannon runs service, bare, service, bare (BENCH_CONNECTIONS, default 50;
// BENCH_SECONDS each, default 10). The ratio is service req/s over bare req/s, the mean of the two rounds' ratios.
const autocannon = require('autocannon');
const { fork } = require('node:child_process');
const { randomBytes } = require('node:crypto');
const { join } = require('node:path');
const os = require('node:os');
const { benchEnvironment, createApiKey, startServer } = require('./lib');

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const WARMUP_SECONDS = Math.min(3, DURATION);

const ALL_PATHS = [
  { name: 'GET /v1/snapshots/{id}', path: (ids) => `/v1/snapshots/${ids[0]}`, goal: 1.0 },
  { name: 'GET /v1/snapshots?limit=50', path: () => '/v1/snapshots?limit=50', goal: 0.9 },
  { name: 'GET /v1/meta/engines', path: () => '/v1/meta/engines', goal: 0.8 },
];

// BENCH_PATHS=list,engines measures only the paths whose names contain one of these words (id, list, engines).
const PATH_WORDS = { id: '{id}', list: '?limit', engines: 'engines' };
const PATHS = process.env.BENCH_PATHS
  ? ALL_PATHS.filter((p) => process.env.BENCH_PATHS.split(',').some((word) => p.name.includes(PATH_WORDS[word.trim()] ?? word)))
  : ALL_PATHS;
// BENCH_PROFILE=<dir> runs the measured service and the bare server with --cpu-prof, each writing a .cpuprofile
// there when it stops.
const SERVICE_EXEC_ARGV = process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [];

const SCANS = [
  { jurisdictions: ['EU', 'UK'], areas: ['AML / KYC', 'Payments'], horizon: 12 },
  { jurisdictions: ['US', 'Singapore'], areas: ['Sanctions'], horizon: 6 },
];

const log = (text) => process.stderr.write(`${text}\n`);

async function stop({ server }) {
  const exited = new Promise((resolve) => server.once('exit', resolve));
  server.disconnect();
  await exited;
}

/** The JSON's structure: object keys with their value shapes, arrays as the shapes of their elements. */
function shape(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return [...new Set(value.map((v) => JSON.stringify(shape(v))))].sort().map((s) => JSON.parse(s));
  if (typeof value === 'object')
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, shape(value[k])]),
    );
  return typeof value;
}

async function getJson(baseUrl, path, key) {
  const response = await fetch(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${key}` } });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${baseUrl}${path}: ${response.status} ${text.slice(0, 500)}`);
  return JSON.parse(text);
}

/** Seeds through a service that also runs the worker (APP_ROLE=all): a key and two completed offline scans. */
async function seed() {
  process.env.APP_ROLE = 'all';
  const seeder = await startServer();
  try {
    const key = (await createApiKey('compare')).split('\n').pop().trim();
    const ids = [];
    for (const body of SCANS) {
      const response = await fetch(`http://127.0.0.1:${seeder.port}/v1/scans`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const result = await response.json();
      if (response.status !== 200 || !result.snapshot_id) throw new Error(`seed scan: ${response.status} ${JSON.stringify(result)}`);
      ids.push(result.snapshot_id);
    }
    return { key, ids };
  } finally {
    await stop(seeder);
  }
}

function startBare(engines) {
  const server = fork(join(__dirname, 'bare-server.js'), {
    execArgv: SERVICE_EXEC_ARGV,
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    env: { ...process.env, BARE_ENGINES: JSON.stringify(engines) },
  });
  return new Promise((resolve, reject) => {
    server.once('message', (message) => resolve({ server, port: message.port }));
    server.once('exit', (code) => reject(new Error(`bare server exited with ${code}`)));
  });
}

function load(port, path, key, duration = DURATION) {
  return autocannon({
    url: `http://127.0.0.1:${port}${path}`,
    connections: CONNECTIONS,
    duration,
    headers: { authorization: `Bearer ${key}` },
  });
}

async function main() {
  process.env.LOG_LEVEL ??= 'warn';
  process.env.NODE_ENV = 'production';
  // Production refuses the generated development secret; the bench never mints dashboard sessions.
  process.env.DASHBOARD_JWT_SECRET ??= randomBytes(32).toString('hex');
  // Benchmarks raise the limits instead of disabling the guard (decisions.md section 4).
  process.env.RATE_LIMIT_READS ??= '1000000000';
  process.env.RATE_LIMIT_SCANS ??= '1000';
  process.env.OFFLINE_STEP_MS = '0';
  benchEnvironment();

  log('seeding: API key and two offline scans through the service');
  const { key, ids } = await seed();

  process.env.APP_ROLE = 'api';
  const service = await startServer(SERVICE_EXEC_ARGV);
  const engines = await getJson(`http://127.0.0.1:${service.port}`, '/v1/meta/engines', key);
  const bare = await startBare(engines);
  const results = [];
  try {
    for (const target of PATHS) {
      const path = target.path(ids);
      const [a, b] = await Promise.all([service, bare].map(({ port }) => getJson(`http://127.0.0.1:${port}`, path, key)));
      if (JSON.stringify(shape(a)) !== JSON.stringify(shape(b))) {
        throw new Error(
          `${path}: the service and the bare server answer different JSON shapes\n${JSON.stringify(a)}\n${JSON.stringify(b)}`,
        );
      }
      const identical = JSON.stringify(a) === JSON.stringify(b);
      log(
        `${target.name}: same shape${identical ? ', identical bodies' : ' (bodies differ in values)'}, ${Buffer.byteLength(JSON.stringify(a))} bytes; warming up`,
      );
      const warmUps = { service: await load(service.port, path, key, WARMUP_SECONDS), bare: await load(bare.port, path, key, WARMUP_SECONDS) };
      const rounds = { service: [], bare: [] };
      for (let round = 0; round < 2; round++) {
        rounds.service.push(await load(service.port, path, key));
        rounds.bare.push(await load(bare.port, path, key));
      }
      if (process.env.BENCH_PROFILE) {
        // What bench/profile-summary.js --requests needs to turn a profile into CPU time per request.
        for (const side of ['service', 'bare']) {
          const answered = [warmUps[side], ...rounds[side]].reduce((sum, r) => sum + r.requests.total, 0);
          log(`${target.name}: the ${side} answered ${answered} requests while profiled`);
        }
      }
      for (const r of [...rounds.service, ...rounds.bare]) {
        if (r.non2xx || r.errors) throw new Error(`${path}: ${r.non2xx} non-2xx answers, ${r.errors} errors under load`);
      }
      results.push({ ...target, ...rounds });
    }
  } finally {
    await Promise.all([stop(service), stop(bare)]);
  }

  const rps = (runs) => runs.map((r) => r.requests.average.toFixed(0)).join(' / ');
  const p99 = (runs) => runs.map((r) => r.latency.p99).join(' / ');
  const lines = [
    `Machine: ${os.cpus().length} x ${os.cpus()[0].model}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}; ${CONNECTIONS} connections, ${DURATION} s per round, rounds service, bare, service, bare.`,
    '',
    '| path | service req/s (round 1 / 2) | bare req/s (round 1 / 2) | ratio service/bare | goal | service p99 ms | bare p99 ms |',
    '|---|---|---|---|---|---|---|',
    ...results.map((r) => {
      const ratio =
        (r.service[0].requests.average / r.bare[0].requests.average + r.service[1].requests.average / r.bare[1].requests.average) / 2;
      return `| ${r.name} | ${rps(r.service)} | ${rps(r.bare)} | ${ratio.toFixed(2)} | ≥ ${r.goal.toFixed(1)} ${ratio >= r.goal ? 'met' : 'not met'} | ${p99(r.service)} | ${p99(r.bare)} |`;
    }),
  ];
  console.log(lines.join('\n'));
}

main()
  .then(() => process.exit(0))
  .catch((error) => {
    console.error(error);
    process.exit(1);
  });
