// Shared set-up of the benchmark scripts: a scratch database and Redis namespace, the service in its own
// process (bench/server.js, so the load generator does not share its event loop), and an API key.
const { execFileSync, fork } = require('node:child_process');
const { join } = require('node:path');

/** Points the service at the bench database (created if missing) and Redis namespace unless overridden. */
function benchEnvironment(overrides = {}) {
  process.env.DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/rgs_bench';
  process.env.REDIS_URL ??= 'redis://127.0.0.1:6379/9';
  process.env.REDIS_PREFIX ??= 'rgs_bench';
  Object.assign(process.env, overrides);
  const parsed = new URL(process.env.DATABASE_URL);
  const name = parsed.pathname.slice(1);
  parsed.pathname = '/postgres';
  try {
    execFileSync('psql', [parsed.toString(), '-qc', `CREATE DATABASE "${name}"`], { stdio: 'ignore' });
  } catch {
    // exists already (or psql is absent and the database was made by hand)
  }
}

/** Forks bench/server.js and resolves with the child and the port it listens on. */
async function startServer(execArgv = []) {
  const server = fork(join(__dirname, 'server.js'), { stdio: ['ignore', 'ignore', 'inherit', 'ipc'], execArgv });
  const port = await new Promise((resolve, reject) => {
    server.once('message', (message) => resolve(message.port));
    server.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
  return { server, port };
}

/** A fresh account's API key, minted with the operator CLI. */
async function createApiKey(label) {
  require('reflect-metadata');
  const { runCli } = require('../dist/src/cli/run-cli');
  let key = '';
  await runCli(['keys:create', '--account', `${label}-${Date.now()}`, '--name', label], {
    out: (text) => (key += text),
    err: (text) => process.stderr.write(text),
  });
  return key.trim();
}

module.exports = { benchEnvironment, startServer, createApiKey };
