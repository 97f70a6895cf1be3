#!/usr/bin/env node
// Render times of the in-process export renderers for a 100-item snapshot (plain Node, no Jest).
// Builds the service and the test fixtures into node_modules/.cache/rgs-bench-build first (the shipped dist/ holds
// no fixtures). BENCH_RUNS (default 5) timed runs per type
// after the first (timed on its own), BENCH_ITEMS (default 100) items, BENCH_TYPES a comma
// list of artifact types (default: all). Prints a table; the targets (PDF under 1 s, PPTX under 2 s) are
// checked against the median and reported, not enforced: the exit code is 0 whatever the times.
// "first" is the first render of that type in this process: module loading, font parsing, shaping caches and
// JIT included (a worker pays that at start-up: renderer-warm-up.ts, measured by bench/render-first.js). The
// timed runs re-render the same snapshot, so PDF runs also reuse the word-shape cache (pdf-kit.ts); a new snapshot
// shares most of it.
// BENCH_BUILD_DIR overrides the build folder (worktrees that share one node_modules should not share it).
// bench/render-first.js reuses build() for first-versus-tenth renders after the worker warm-up.
const { performance } = require('node:perf_hooks');
const { execFileSync } = require('node:child_process');
const { join } = require('node:path');
const os = require('node:os');

const root = join(__dirname, '..');
const out = process.env.BENCH_BUILD_DIR ?? join(root, 'node_modules', '.cache', 'rgs-bench-build');
const dist = join(out, 'src', 'modules', 'exports', 'renderers');

function build() {
  execFileSync(process.execPath, [join(root, 'scripts', 'build.js'), out], { cwd: root, stdio: 'inherit' });
  const swc = require.resolve('@swc/cli/bin/swc.js');
  const args = ['test/fixtures', '-d', join(out, 'test'), '--strip-leading-paths', '--config-file', '.swcrc', '-q'];
  execFileSync(process.execPath, [swc, ...args], { cwd: root, stdio: 'inherit' });
}
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const ITEMS = Number(process.env.BENCH_ITEMS ?? 100);
const TARGETS_MS = { pdf: 1000, 'slide-deck': 2000 };

async function main() {
  let renderers;
  let fixtures;
  try {
    build();
    renderers = require(join(dist, 'index.js'));
    fixtures = require(join(out, 'test', 'fixtures', 'snapshots.js'));
  } catch (error) {
    console.error(`Cannot build or load the renderers into ${out}.\n${error.message}`);
    process.exit(1);
  }
  const snapshot = fixtures.syntheticSnapshot(ITEMS);
  const types = process.env.BENCH_TYPES ? process.env.BENCH_TYPES.split(',') : renderers.RENDERED_ARTIFACT_TYPES;
  console.log(
    `node ${process.version}, ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, load ${os.loadavg()[0].toFixed(1)}; ${snapshot.data.items.length} items; ${RUNS} runs after the first\n`,
  );
  console.log(
    [
      'artifact type'.padEnd(20),
      'first'.padStart(8),
      'min'.padStart(8),
      'median'.padStart(8),
      'max'.padStart(8),
      'size'.padStart(10),
      '  target',
    ].join(' '),
  );
  for (const type of types) {
    const input = { snapshot, options: {}, locale: 'en' };
    let start = performance.now();
    const first = await renderers.renderArtefact(type, input);
    const firstMs = performance.now() - start;
    const times = [];
    for (let i = 0; i < RUNS; i++) {
      start = performance.now();
      await renderers.renderArtefact(type, input);
      times.push(performance.now() - start);
    }
    times.sort((a, b) => a - b);
    const median = times[Math.floor(times.length / 2)];
    const target = TARGETS_MS[type];
    const verdict = target === undefined ? '' : median < target ? `  under ${target} ms: ok` : `  over ${target} ms: SLOW`;
    console.log(
      [
        type.padEnd(20),
        ms(firstMs).padStart(8),
        ms(times[0]).padStart(8),
        ms(median).padStart(8),
        ms(times[times.length - 1]).padStart(8),
        `${(first.bytes.length / 1024).toFixed(0)} KiB`.padStart(10),
        verdict,
      ].join(' '),
    );
  }
}

function ms(value) {
  return `${value.toFixed(0)} ms`;
}

if (require.main === module) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}

module.exports = { build, out };
