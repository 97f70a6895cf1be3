#!/usr/bin/env node
// Estimator latency with 100,000 historical scans behind it: seeds estimator_stats (the per-fingerprint
// samples a finished scan feeds) in the bench database, then measures POST /v1/scans/estimate.
// Usage: npm run build && node bench/estimator.js
const autocannon = require('autocannon');
const { benchEnvironment, createApiKey, startServer } = require('./lib');
const os = require('node:os');

const SCANS = Number(process.env.BENCH_SCANS ?? 100000);

async function main() {
  process.env.LOG_LEVEL ??= 'warn';
  benchEnvironment({ RATE_LIMIT_READS: '1000000000' });
  const { scanFingerprint, fingerprintKey } = require('../dist/src/modules/scans/estimator/estimator.fingerprint');
  const { MAX_SAMPLES } = require('../dist/src/modules/scans/estimator/estimator');

  const { server, port } = await startServer();

  // Every fingerprint the API can produce, each with its share of the history (capped as the service caps it).
  const { Client } = require('pg');
  const db = new Client({ connectionString: process.env.DATABASE_URL });
  await db.connect();
  await db.query('TRUNCATE estimator_stats');
  const fingerprints = [];
  for (const engine of ['v4', 'v4.5-alpha', 'v4.5-beta', 'council'])
    for (const j of [1, 2, 5, 9, 15, 25])
      for (const a of [1, 2, 5, 9, 15, 25])
        for (const horizon of [3, 12, 36, null])
          for (const providers of [{}, { analystProvider: 'anthropic' }, { seekerProvider: 'perplexity', analystProvider: 'openai' }])
            fingerprints.push(scanFingerprint({ jurisdictionCount: j, areaCount: a, horizon, engine, providers }));
  const perFingerprint = Math.ceil(SCANS / fingerprints.length);
  let stored = 0;
  for (const fp of fingerprints) {
    const samples = Array.from(
      { length: Math.min(perFingerprint, MAX_SAMPLES) },
      (_, i) => 10 + ((i * 37) % 90) + fp.jurisdiction_bucket.length,
    );
    stored += samples.length;
    await db.query(
      'INSERT INTO estimator_stats (fingerprint_key, engine_version, fingerprint, samples, last_seen_at) VALUES ($1, $2, $3, $4, now()) ON CONFLICT DO NOTHING',
      [fingerprintKey(fp), fp.engine_version, JSON.stringify(fp), JSON.stringify(samples)],
    );
  }
  await db.end();

  const key = await createApiKey('bench-estimates');
  const result = await autocannon({
    url: `http://127.0.0.1:${port}/v1/scans/estimate`,
    method: 'POST',
    connections: Number(process.env.BENCH_CONNECTIONS ?? 10),
    duration: Number(process.env.BENCH_SECONDS ?? 10),
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ jurisdictions: ['EU', 'UK', 'US'], areas: ['AML / KYC', 'Payments'], horizon: 12, engine: 'v4' }),
  });
  server.kill('SIGKILL');
  console.log(
    `Machine: ${os.cpus().length} x ${os.cpus()[0].model}, Node ${process.version}. ${SCANS} historical scans over ${fingerprints.length} fingerprints (${stored} samples kept).`,
  );
  console.log('');
  console.log('| req/s | p50 ms | p90 ms | p97.5 ms | p99 ms | non-2xx |');
  console.log('|---|---|---|---|---|---|');
  console.log(
    `| ${result.requests.average.toFixed(0)} | ${result.latency.p50} | ${result.latency.p90} | ${result.latency.p97_5} | ${result.latency.p99} | ${result.non2xx} |`,
  );
  process.exit(0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
