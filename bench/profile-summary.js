#!/usr/bin/env node
// Where a server's time went, from a V8 CPU profile (`npm run bench:compare` with BENCH_PROFILE=<dir> writes one
// per server):
//
//   node bench/profile-summary.js <file.cpuprofile> [--requests N]
//
// Each sample is charged to the innermost frame on its stack that belongs to a stage of the request chain below
// (so a socket write made by the PostgreSQL driver counts as PostgreSQL, the rate-limit guard's own code as rate
// limiting); samples outside any stage go to "other". Module loading at start-up is its own line, so the table
// describes the steady state. With --requests (the requests the server answered while profiled) it also prints
// the CPU microseconds per request of each stage.
const { readFileSync } = require('node:fs');

/** Stages, first match wins per frame; `test` sees "<function> <url>". */
const STAGES = [
  ['start-up (module loading, app init)', /node:internal\/modules|wrapSafe|compileSourceTextModule|internalModuleStat|app\.module\.js|app\.factory\.js/],
  ['request logging (pino-http, pino)', /node_modules\/(pino-http|pino|@pinojs|pino-std-serializers)\//],
  ['rate limit guard', /rate-limit\.(guard|service)\.js/],
  ['auth guard (key cache)', /auth\.guard\.js|api-key|key-cache/],
  ['request id, drain, body check, usage middleware', /request-id\.middleware|http-drain|json-body\.middleware|usage\.middleware|usage-recorder/],
  ['PostgreSQL (TypeORM, pg)', /node_modules\/(typeorm|pg|pg-protocol|pg-pool|postgres-[a-z]+|pg-types)\//],
  ['Redis (ioredis)', /node_modules\/(ioredis|redis-parser|@ioredis)\//],
  ['validation pipe (class-validator, class-transformer)', /node_modules\/(class-validator|class-transformer)\/|validation\.pipe\.js/],
  ['Nest routing, guards, interceptors (incl. rxjs)', /node_modules\/(@nestjs|rxjs)\//],
  ['route handlers and services (app code)', /\/dist\/src\/|bare-server\.js/],
  ['Express routing and response', /node_modules\/(express|router|path-to-regexp|send|finalhandler|on-finished|content-type|mime-types|qs)\/|node:_http_outgoing/],
];
/** Node's own HTTP and socket work: charged here only when no stage above is on the stack (a request's parsing, the
 * response's write), so a socket write made by a driver counts as that driver's. */
const NODE_IO = ['HTTP parsing and socket I/O (Node)', /node:_http_(server|common|incoming)|node:net|stream_base_commons|writeUtf8String|writev/];

function summarise(profile) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const frameOf = (id) => `${byId.get(id).callFrame.functionName} ${byId.get(id).callFrame.url}`;
  // The innermost stage on the stack from this frame up, ignoring Node's I/O; null when there is none.
  const componentOf = new Map();
  const component = (id) => {
    if (componentOf.has(id)) return componentOf.get(id);
    const { functionName } = byId.get(id).callFrame;
    const own = functionName === '(idle)' ? 'idle' : functionName === '(garbage collector)' ? 'garbage collection' : STAGES.find(([, test]) => test.test(frameOf(id)))?.[0];
    const result = own ?? (parent.has(id) ? component(parent.get(id)) : null);
    componentOf.set(id, result);
    return result;
  };
  const ioOnStack = (id) => {
    for (let at = id; at !== undefined; at = parent.get(at)) if (NODE_IO[1].test(frameOf(at))) return true;
    return false;
  };
  const stage = (id) => component(id) ?? (ioOnStack(id) ? NODE_IO[0] : 'other');
  const totals = new Map();
  let all = 0;
  profile.samples.forEach((id, i) => {
    const micros = profile.timeDeltas[i] ?? 0;
    all += micros;
    totals.set(stage(id), (totals.get(stage(id)) ?? 0) + micros);
  });
  return { totals, all };
}

function main() {
  const [file, ...rest] = process.argv.slice(2);
  if (!file) {
    console.error('usage: node bench/profile-summary.js <file.cpuprofile> [--requests N]');
    process.exit(2);
  }
  const requests = rest[0] === '--requests' ? Number(rest[1]) : undefined;
  const { totals, all } = summarise(JSON.parse(readFileSync(file, 'utf8')));
  const busy = all - (totals.get('idle') ?? 0) - (totals.get('start-up (module loading, app init)') ?? 0);
  const rows = [...totals].filter(([name]) => name !== 'idle' && !name.startsWith('start-up')).sort((a, b) => b[1] - a[1]);
  console.log(`| stage | share of busy time |${requests ? ' CPU µs per request |' : ''}`);
  console.log(`|---|---|${requests ? '---|' : ''}`);
  for (const [name, micros] of rows) {
    const share = `${((100 * micros) / busy).toFixed(1)}%`;
    console.log(`| ${name} | ${share} |${requests ? ` ${(micros / requests).toFixed(0)} |` : ''}`);
  }
  console.log(
    `\nbusy ${(busy / 1e6).toFixed(2)} s of ${(all / 1e6).toFixed(2)} s profiled (idle ${(((totals.get('idle') ?? 0) / all) * 100).toFixed(0)}%, start-up excluded)`,
  );
}

main();
