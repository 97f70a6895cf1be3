// The baseline of `npm run bench:compare`: a hand-written Express 5 server doing the per-request work the service
// does for three read routes, on the same PostgreSQL (pg) and Redis (ioredis), with none of Nest, TypeORM or the
// service's caches. Per request: a request id, the SHA-256 of the bearer key looked up by the unique index on
// api_keys.key_hash, one Redis round trip for the rate-limit window (INCR + PEXPIRE in a MULTI), then the route's
// own reads. Forked by bench/compare.js: DATABASE_URL, REDIS_URL, REDIS_PREFIX and BARE_ENGINES (the JSON the
// service returns for GET /v1/meta/engines) come from the environment; the port goes back over IPC.
const { createHash, randomInt } = require('node:crypto');
const express = require('express');
const Redis = require('ioredis');
const { Pool } = require('pg');

const WINDOW_SECONDS = 60;
const LIMIT = Number(process.env.RATE_LIMIT_READS ?? 60);
const PREFIX = process.env.REDIS_PREFIX ?? 'rgs';
const ENGINES = JSON.parse(process.env.BARE_ENGINES ?? '{}');
const PRIVATE_KEYS = new Set(['_auditor_private', '_plain', '_beyond_cap']);
const CITATION_MARKER = /\s?\[\[cite:\d+\]\]/g;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

// The service's pool size (src/infra/database/data-source-options.ts), so neither side gets more connections.
const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 20 });
const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');

function requestId() {
  let out = 'req_';
  for (let i = 0; i < 24; i++) out += BASE62[randomInt(62)];
  return out;
}

const problem = (res, status, code) => res.status(status).type('application/problem+json').send(JSON.stringify({ status, code }));

/** Request id, bearer key by hash, rate-limit window: what the service's middleware and guards do for these routes. */
async function authenticate(req, res, next) {
  res.setHeader('X-Request-Id', requestId());
  const match = /^Bearer (\S+)$/.exec(req.get('authorization') ?? '');
  if (!match) return problem(res, 401, 'unauthorized');
  const hash = createHash('sha256').update(match[1]).digest('hex');
  const { rows } = await pool.query('SELECT id, account_id, revoked_at FROM api_keys WHERE key_hash = $1', [hash]);
  if (!rows.length || rows[0].revoked_at) return problem(res, 401, 'unauthorized');
  const now = Date.now();
  const window = Math.floor(now / (WINDOW_SECONDS * 1000));
  const key = `${PREFIX}:bare:rl:reads:key:${rows[0].id}:${window}`;
  const [[, count]] = await redis
    .multi()
    .incr(key)
    .pexpire(key, WINDOW_SECONDS * 1000 + 5000)
    .exec();
  const reset = Math.max(1, Math.ceil(((window + 1) * WINDOW_SECONDS * 1000 - now) / 1000));
  res.setHeader('RateLimit-Policy', `${LIMIT};w=${WINDOW_SECONDS}`);
  res.setHeader('RateLimit', `limit=${LIMIT}, remaining=${Math.max(0, LIMIT - count)}, reset=${reset}`);
  if (count > LIMIT) return problem(res, 429, 'rate_limit_exceeded');
  req.accountId = rows[0].account_id;
  next();
}

/** Markers stripped from prose at any depth; `url` and `citations` values kept as they are. */
function stripProse(value) {
  if (typeof value === 'string') return value.replace(CITATION_MARKER, '');
  if (Array.isArray(value)) return value.map(stripProse);
  if (value && typeof value === 'object') {
    const out = {};
    for (const [k, v] of Object.entries(value)) out[k] = k === 'citations' || k === 'url' ? v : stripProse(v);
    return out;
  }
  return value;
}

function envelope(data) {
  const out = {};
  for (const [k, v] of Object.entries(data)) if (!PRIVATE_KEYS.has(k)) out[k] = v;
  return stripProse(out);
}

const cost = (row) => (row.cost_cents !== null ? Number(row.cost_cents) : row.estimate_cents);

const app = express();
app.disable('x-powered-by');
app.set('etag', false);

app.get('/v1/meta/engines', authenticate, (_req, res) => res.json(ENGINES));

app.get('/v1/snapshots', authenticate, async (req, res) => {
  const limit = Math.min(100, Math.max(1, Number(req.query.limit ?? 20) || 20));
  const offset = Math.max(0, Number(req.query.offset ?? 0) || 0);
  const [page, count] = await Promise.all([
    pool.query(
      `SELECT id, title, scan_id, engine, horizon, jurisdictions, areas, item_count, cost_cents, estimate_cents, created_at, kind
       FROM snapshots WHERE account_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3`,
      [req.accountId, limit, offset],
    ),
    pool.query('SELECT count(*)::int AS total FROM snapshots WHERE account_id = $1', [req.accountId]),
  ]);
  const data = page.rows.map((row) => ({
    id: row.id,
    title: row.title,
    scan_id: row.scan_id,
    engine: row.engine,
    horizon: Number(row.horizon),
    jurisdictions: row.jurisdictions,
    areas: row.areas,
    item_count: row.item_count,
    cost_cents: cost(row),
    created_at: new Date(row.created_at).toISOString(),
    kind: row.kind,
  }));
  res.json({ data, pagination: { limit, offset, total: count.rows[0].total } });
});

app.get('/v1/snapshots/:id', authenticate, async (req, res) => {
  const { rows } = /^[0-9a-f-]{36}$/i.test(req.params.id)
    ? await pool.query(
        'SELECT id, title, config, data, cost_cents, estimate_cents, created_at FROM snapshots WHERE id = $1 AND account_id = $2',
        [req.params.id, req.accountId],
      )
    : { rows: [] };
  if (!rows.length) return problem(res, 404, 'not_found');
  const row = rows[0];
  const json = JSON.stringify({
    id: row.id,
    title: row.title,
    config: row.config,
    data: envelope(row.data),
    cost_cents: cost(row),
    created_at: row.created_at.toISOString(),
  });
  res.setHeader('ETag', `"${createHash('sha256').update(json).digest('base64url')}"`);
  res.setHeader('Cache-Control', 'private, no-cache');
  res.type('application/json; charset=utf-8').send(json);
});

const server = app.listen(0, '127.0.0.1', () => process.send?.({ port: server.address().port }));
// Requests the load generator abandoned at the end of a round may still be running: let them finish first.
process.on('disconnect', () => {
  server.close(() => setTimeout(() => Promise.all([pool.end(), redis.quit()]).finally(() => process.exit(0)), 500));
  server.closeIdleConnections();
});
