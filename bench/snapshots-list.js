#!/usr/bin/env node
// GET /v1/snapshots at scale: one account with 100,000 snapshots, filtered list pages timed over HTTP.
//
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/rgs_bench_snapshots node bench/snapshots-list.js
//
// DATABASE_URL names a scratch database (created when missing; the service migrates it at start). The service
// runs in its own process from the build (`npm run build`; BENCH_DIST points at another build's dist/), with the
// reads limit raised rather than the guard disabled. With BENCH_BASE_URL and BENCH_API_KEY the script instead
// times an already running service that uses the same DATABASE_URL, seeding the key's account.
//
// Seeding: one real offline scan through the API gives a realistic envelope; 100,000 copies with varied
// jurisdictions, areas, horizons, kinds and creation times (about one every 5 minutes, i.e. roughly a year) are
// written with one INSERT ... SELECT generate_series, then VACUUM ANALYZE (what autovacuum does on a live table).
// BENCH_OTHER_ROWS (default 100,000) adds snapshots of 100 other accounts with the same vocabularies, so the
// table-wide GIN indexes are not only this account's.
//
// Timing: each scenario is requested BENCH_REQUESTS times (default 400, after 40 warm-up requests) one at a
// time, then again with BENCH_CONCURRENCY clients (default 8); p50/p95/p99 are exact percentiles of the
// measured round trips. Totals of at least 1,000 are cached until the account gains a snapshot, so repeated
// requests time the page query; the "total never cached" scenarios send a distinct `to` (in the future, so the
// same rows) with every request, which makes each total a fresh count in PostgreSQL: the cold path. The output is
// a markdown table, then EXPLAIN (ANALYZE, BUFFERS) of the page and count queries exactly as the repository
// builds them.
const { fork } = require('node:child_process');
const { createHash } = require('node:crypto');
const { join, resolve } = require('node:path');
const os = require('node:os');
const { performance } = require('node:perf_hooks');
const { Client } = require('pg');

const ROWS = Number(process.env.BENCH_ROWS ?? 100000);
const OTHER_ROWS = Number(process.env.BENCH_OTHER_ROWS ?? 100000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 400);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 40);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const TARGET_P95_MS = 50;
const DIST = resolve(process.env.BENCH_DIST ?? join(__dirname, '..', 'dist'));

const JURISDICTIONS = [
  'EU',
  'UK',
  'US',
  'Singapore',
  'Hong Kong',
  'Japan',
  'Australia',
  'Canada',
  'Switzerland',
  'Brazil',
  'India',
  'China',
];
const AREAS = [
  'AML / KYC',
  'Payments',
  'Sanctions',
  'Prudential',
  'Consumer Duty',
  'Crypto-assets',
  'Data protection',
  'ESG disclosure',
  'Operational resilience',
  'Market conduct',
];

/** The scenarios timed: what a dashboard asks for, from the cheapest to the deepest page. */
function scenarios(monthAgo, now) {
  return [
    { name: 'unfiltered, first page', query: '' },
    { name: 'jurisdiction=EU', query: '?jurisdiction=EU' },
    { name: 'jurisdiction=eu & area=payments', query: '?jurisdiction=eu&area=payments' },
    { name: 'area=Sanctions, last 30 days', query: `?area=Sanctions&from=${monthAgo}&to=${now}` },
    { name: 'jurisdiction=Japan & area=Crypto-assets (rare pair)', query: '?jurisdiction=Japan&area=Crypto-assets' },
    { name: 'jurisdiction=EU, offset=2000', query: '?jurisdiction=EU&offset=2000' },
    { name: 'jurisdiction=EU, limit=100, offset=20000', query: '?jurisdiction=EU&limit=100&offset=20000' },
    // A distinct `to` (all in the future, so the same rows) per request: every total is counted in PostgreSQL.
    { name: 'jurisdiction=EU, total never cached', query: '?jurisdiction=EU', uncached: true },
    { name: 'jurisdiction=eu & area=payments, total never cached', query: '?jurisdiction=eu&area=payments', uncached: true },
  ];
}

async function main() {
  if (process.argv[2] === '--serve') return serve();
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) throw new Error('Set DATABASE_URL to a scratch database (created when missing)');
  await ensureDatabase(databaseUrl);

  let server;
  let baseUrl = process.env.BENCH_BASE_URL;
  let key = process.env.BENCH_API_KEY;
  if (!baseUrl) {
    server = await startServer(databaseUrl);
    baseUrl = server.baseUrl;
  }
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    if (!key) key = await createKey(databaseUrl);
    const [{ account_id: accountId }] = (
      await db.query('SELECT account_id FROM api_keys WHERE key_hash = $1', [createHash('sha256').update(key).digest('hex')])
    ).rows;
    const http = (path, init = {}) =>
      fetch(`${baseUrl}${path}`, {
        ...init,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...init.headers },
      });

    log(`seeding ${ROWS} snapshots for account ${accountId} (+${OTHER_ROWS} for other accounts)`);
    const template = await templateSnapshot(http);
    const seeded = await seed(db, accountId, template, ROWS);
    if (OTHER_ROWS > 0) await seedOthers(db, template, OTHER_ROWS);
    await db.query('VACUUM ANALYZE snapshots');
    log(`seeded in ${(seeded / 1000).toFixed(1)} s`);

    const now = new Date().toISOString();
    const monthAgo = new Date(Date.now() - 30 * 86400_000).toISOString();
    const results = [];
    for (const scenario of scenarios(monthAgo, now)) {
      let n = 0;
      const base = `/v1/snapshots${scenario.query}`;
      const path = scenario.uncached ? () => `${base}&to=${new Date(Date.now() + 86400_000 + n++).toISOString()}` : () => base;
      const first = await http(path());
      if (first.status !== 200) throw new Error(`${base}: ${first.status} ${await first.text()}`);
      const body = await first.json();
      await time(http, path, WARMUP, 1);
      const serial = await time(http, path, REQUESTS, 1);
      const concurrent = await time(http, path, REQUESTS, CONCURRENCY);
      results.push({ ...scenario, total: body.pagination.total, rows: body.data.length, serial, concurrent });
    }

    const { listPageQuery, listCountQuery } = require(join(DIST, 'src/modules/snapshots/snapshots.repository.js'));
    const filter = { jurisdiction: 'eu', area: 'payments', limit: 50, offset: 0 };
    const page = listPageQuery(accountId, filter);
    const count = listCountQuery(accountId, filter);
    const broadCount = listCountQuery(accountId, { jurisdiction: 'eu', limit: 50, offset: 0 });
    const deep = listPageQuery(accountId, { jurisdiction: 'eu', limit: 100, offset: 20000 });
    const unfiltered = listPageQuery(accountId, { limit: 50, offset: 0 });
    const plan = async (q) => (await db.query(`EXPLAIN (ANALYZE, BUFFERS) ${q.sql}`, q.params)).rows.map((r) => r['QUERY PLAN']).join('\n');
    const [{ version }] = (await db.query('SHOW server_version')).rows.map((r) => ({ version: r.server_version }));
    const [{ size }] = (await db.query("SELECT pg_size_pretty(pg_total_relation_size('snapshots')) AS size")).rows;

    const fmt = (n) => n.toFixed(1);
    const met = results.filter((r) => r.serial.p95 < TARGET_P95_MS);
    const lines = [
      `Machine: ${os.cpus().length} x ${os.cpus()[0].model}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, PostgreSQL ${version}; service, database and load generator share the machine.`,
      `Data: ${ROWS} snapshots in the benchmarked account, ${OTHER_ROWS} in 100 others; table with indexes and TOAST ${size}. ${REQUESTS} requests per scenario after ${WARMUP} warm-up, one at a time ("serial") and with ${CONCURRENCY} concurrent clients.`,
      '',
      `| scenario | total matched | rows | serial p50 ms | serial p95 ms | serial p99 ms | p95 < ${TARGET_P95_MS} ms | x${CONCURRENCY} p50 ms | x${CONCURRENCY} p95 ms | x${CONCURRENCY} req/s |`,
      '|---|---|---|---|---|---|---|---|---|---|',
      ...results.map(
        (r) =>
          `| ${r.name} | ${r.total} | ${r.rows} | ${fmt(r.serial.p50)} | ${fmt(r.serial.p95)} | ${fmt(r.serial.p99)} | ${r.serial.p95 < TARGET_P95_MS ? 'yes' : 'no'} | ${fmt(r.concurrent.p50)} | ${fmt(r.concurrent.p95)} | ${r.concurrent.rps.toFixed(0)} |`,
      ),
      '',
      `Serial p95 under ${TARGET_P95_MS} ms in ${met.length} of ${results.length} scenarios${
        met.length < results.length
          ? `; not in: ${results
              .filter((r) => !met.includes(r))
              .map((r) => r.name)
              .join('; ')}`
          : ''
      }.`,
      '',
      'Unfiltered, first page (the page query; its total is the account count read in the same statement):',
      '```',
      await plan(unfiltered),
      '```',
      '',
      '`jurisdiction=eu&area=payments`, first page (the page query):',
      '```',
      await plan(page),
      '```',
      '',
      'Its total when not cached (the count query, run after the page when the page cannot tell it):',
      '```',
      await plan(count),
      '```',
      '',
      '`jurisdiction=eu` total when not cached (a broad filter: every match is visited):',
      '```',
      await plan(broadCount),
      '```',
      '',
      '`jurisdiction=eu`, limit=100, offset=20000 (a deep page):',
      '```',
      await plan(deep),
      '```',
    ];
    console.log(lines.join('\n'));
  } finally {
    await db.end();
    server?.stop();
  }
}

/** Sends `count` requests over `concurrency` keep-alive clients; exact percentiles of the round trips. */
async function time(http, path, count, concurrency) {
  const durations = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        next++;
        const t0 = performance.now();
        const url = path();
        const response = await http(url);
        await response.arrayBuffer();
        if (response.status !== 200) throw new Error(`${url}: ${response.status}`);
        durations.push(performance.now() - t0);
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  durations.sort((a, b) => a - b);
  const pct = (p) => durations[Math.min(durations.length - 1, Math.ceil((p / 100) * durations.length) - 1)];
  return { p50: pct(50), p95: pct(95), p99: pct(99), max: durations[durations.length - 1], rps: durations.length / elapsed };
}

/** One real scan through the API: its stored row is the template every seeded snapshot copies. */
async function templateSnapshot(http) {
  const response = await http('/v1/scans', {
    method: 'POST',
    body: JSON.stringify({ jurisdictions: ['EU', 'UK'], areas: ['AML / KYC', 'Payments'], horizon: 12 }),
  });
  const body = await response.json();
  if (response.status !== 200 || !body.snapshot_id) throw new Error(`template scan: ${response.status} ${JSON.stringify(body)}`);
  return body.snapshot_id;
}

const SEED_COLUMNS = `id, account_id, scan_id, kind, parent_snapshot_id, title, config, data, engine, horizon, jurisdictions, areas,
  jurisdiction_keys, area_keys, item_count, cost_cents, estimate_cents, created_at`;

/** 1 to 3 jurisdictions and 1 to 2 areas per row, drawn deterministically from g; lower-cased key copies alongside. */
const SEED_SELECT = (accountExpr) => `
  SELECT gen_random_uuid(), ${accountExpr}, gen_random_uuid(),
         CASE WHEN g % 50 = 0 THEN 'council_composite' WHEN g % 50 IN (1, 2) THEN 'council_seat' ELSE 'standard' END,
         NULL, 'Seeded horizon #' || g, t.config, t.data, t.engine, (ARRAY[3, 6, 12, 18, 24, 36])[1 + g % 6],
         j.list, a.list,
         ARRAY(SELECT lower(x) FROM unnest(j.list) AS x), ARRAY(SELECT lower(x) FROM unnest(a.list) AS x),
         t.item_count, (g % 900) + 0.25, 50 + g % 400,
         now() - make_interval(mins => 5 * g)
  FROM generate_series(1, $2::int) AS g
  CROSS JOIN (SELECT config, data, engine, item_count FROM snapshots WHERE id = $3) AS t
  CROSS JOIN LATERAL (
    SELECT ARRAY(SELECT DISTINCT ($4::text[])[1 + ((g * 7 + k * 5) % cardinality($4::text[]))] FROM generate_series(0, g % 3) AS k) AS list
  ) AS j
  CROSS JOIN LATERAL (
    SELECT ARRAY(SELECT DISTINCT ($5::text[])[1 + ((g * 3 + k * 7) % cardinality($5::text[]))] FROM generate_series(0, (g / 3) % 2) AS k) AS list
  ) AS a`;

async function seed(db, accountId, template, rows) {
  const started = Date.now();
  await db.query(`INSERT INTO snapshots (${SEED_COLUMNS}) ${SEED_SELECT('$1::uuid')}`, [accountId, rows, template, JURISDICTIONS, AREAS]);
  return Date.now() - started;
}

/** Noise: snapshots of 100 other (new) accounts, so GIN matches are not all the benchmarked account's. */
async function seedOthers(db, template, rows) {
  const stamp = Date.now().toString(36);
  const { rows: accounts } = await db.query(
    `INSERT INTO accounts (external_id) SELECT 'bench-noise-' || $1 || '-' || n FROM generate_series(1, 100) AS n RETURNING id`,
    [stamp],
  );
  const ids = accounts.map((a) => a.id);
  await db.query(`INSERT INTO snapshots (${SEED_COLUMNS}) ${SEED_SELECT('($1::uuid[])[1 + g % 100]')}`, [
    ids,
    rows,
    template,
    JURISDICTIONS,
    AREAS,
  ]);
}

async function createKey(databaseUrl) {
  process.env.DATABASE_URL = databaseUrl;
  process.env.REDIS_URL ??= 'redis://127.0.0.1:6379/9';
  process.env.REDIS_PREFIX ??= 'rgs_bench_snapshots';
  process.env.LOG_LEVEL ??= 'silent';
  require('reflect-metadata');
  const { runCli } = require(join(DIST, 'src/cli/run-cli.js'));
  let out = '';
  const code = await runCli(['keys:create', '--account', `bench-snapshots-${Date.now()}`, '--name', 'bench'], {
    out: (t) => (out += t),
    err: (t) => process.stderr.write(t),
  });
  if (code !== 0) throw new Error('keys:create failed');
  return out.trim().split('\n').pop().trim();
}

async function ensureDatabase(url) {
  const parsed = new URL(url);
  const name = decodeURIComponent(parsed.pathname.slice(1));
  parsed.pathname = '/postgres';
  const admin = new Client({ connectionString: parsed.toString() });
  await admin.connect();
  try {
    const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) await admin.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
  } finally {
    await admin.end();
  }
}

/** The service in a child process (its own event loop), migrated at start, reads limit raised. */
function startServer(databaseUrl) {
  const child = fork(__filename, ['--serve'], {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379/9',
      REDIS_PREFIX: process.env.REDIS_PREFIX ?? 'rgs_bench_snapshots',
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
      RATE_LIMIT_READS: process.env.RATE_LIMIT_READS ?? '1000000000',
      OFFLINE_STEP_MS: process.env.OFFLINE_STEP_MS ?? '5',
    },
  });
  return new Promise((resolvePort, reject) => {
    child.once('message', (message) => resolvePort({ baseUrl: `http://127.0.0.1:${message.port}`, stop: () => child.disconnect() }));
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
}

async function serve() {
  require('reflect-metadata');
  const { createHttpApp } = require(join(DIST, 'src/app.factory.js'));
  const app = await createHttpApp();
  await app.listen(0, '127.0.0.1');
  process.send({ port: app.getHttpServer().address().port });
  process.on('disconnect', () => app.close().then(() => process.exit(0)));
}

const log = (text) => process.stderr.write(`${text}\n`);

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
