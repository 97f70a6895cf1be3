#!/usr/bin/env node
// A worker's first export of each in-process type against its tenth (issue 14 item 4), in fresh processes.
// Builds like bench/render.js (BENCH_BUILD_DIR to move the build), then per type and mode runs BENCH_TRIALS
// (default 3) child processes. A child warms up as a worker does (`warmed`: warmUpWorkerRenderers with today's
// date, as ExportsProcessor does at start) or not (`cold`), then renders the realistic fixture snapshot with its
// drift and the type's default options (render 1, "first"), eight other fixture snapshots (hard, CJK, long
// prose, 100 items...), then (render 10, "tenth") the same content as a snapshot the process has not seen: another
// id and creation time, as a worker's tenth export is of a new snapshot; and (render 11, "repeat") render 1's input
// again, every word already shaped. Each is timed on its own; the ratio first/tenth is taken per process, so the
// load of a shared machine mostly cancels out. BENCH_TARGET=zh or ja makes render 1 and 10 the Chinese or Japanese
// fixture in its language.
// BENCH_TYPES (comma list, default all) and BENCH_MODES (default "warmed"; "cold,warmed" for both) narrow it;
// BENCH_NO_BUILD=1 reuses the build folder as it is (to measure an earlier build side by side).
// Prints a table and the machine; exits 0 whatever the figures (they are written in docs/performance.md).
const { performance } = require('node:perf_hooks');
const { execFileSync } = require('node:child_process');
const { join } = require('node:path');
const os = require('node:os');
const { build, out } = require('./render');

const TRIALS = Number(process.env.BENCH_TRIALS ?? 3);
const MODES = (process.env.BENCH_MODES ?? 'warmed').split(',');
/** Each type's default options (export-types.registry.ts), as an export that asks for nothing gets them. */
const DEFAULT_OPTIONS = {
  'slide-deck': { theme: 'dark' },
  'slide-web': { styleSlug: 'dark-editorial' },
  'tearsheet-detailed': { styleSlug: 'swiss-grid', planModel: 'medium' },
  'infographic-custom': { styleSlug: 'timeline-horizon', planModel: 'large' },
};

function load() {
  const exportsDir = join(out, 'src', 'modules', 'exports');
  return {
    renderers: require(join(exportsDir, 'renderers', 'index.js')),
    warmUp: require(join(exportsDir, 'renderer-warm-up.js')),
    calendar: require(join(out, 'src', 'engine', 'calendar', 'calendar.loader.js')),
    fixtures: require(join(out, 'test', 'fixtures', 'snapshots.js')),
  };
}

async function child(type, mode) {
  const { renderers, warmUp, calendar, fixtures: f } = load();
  let started = performance.now();
  if (mode === 'warmed') await warmUp.warmUpWorkerRenderers(calendar.loadCalendar(), new Date().toISOString().slice(0, 10));
  const warmMs = performance.now() - started;
  const options = DEFAULT_OPTIONS[type] ?? {};
  const realistic = f.realisticSnapshot();
  const language = process.env.BENCH_TARGET ?? 'en';
  const shown = language === 'zh' ? f.zhSnapshot() : language === 'ja' ? f.jaSnapshot() : realistic;
  const target = { snapshot: shown, drift: f.sampleDrift(shown), options, locale: language };
  const unseen = { ...target, snapshot: { ...shown, id: 'snp_01JD9A4M8TW', created_at: '2026-11-22T14:05:00.000Z' } };
  const hard = f.hardSnapshot();
  const others = [
    { snapshot: f.syntheticSnapshot(100), options, locale: 'en' },
    { snapshot: hard, drift: f.sampleDrift(hard), options, locale: 'en' },
    { snapshot: f.zhSnapshot(), options, locale: 'zh' },
    { snapshot: f.jaSnapshot(), options, locale: 'ja' },
    { snapshot: f.awkwardSnapshot(), options, locale: 'en' },
    { snapshot: f.longProse(realistic), options, locale: 'en' },
    { snapshot: f.distinctSources(realistic), options, locale: 'fr' },
    { snapshot: f.syntheticSnapshot(40), options, locale: 'en' },
  ];
  const timed = async (input) => {
    const start = performance.now();
    await renderers.renderArtefact(type, input);
    return performance.now() - start;
  };
  const first = await timed(target);
  for (const input of others) await timed(input);
  const tenth = await timed(unseen);
  const repeat = await timed(target);
  process.stdout.write(JSON.stringify({ warmMs, first, tenth, repeat }));
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

function span(values) {
  return `${Math.round(Math.min(...values))}–${Math.round(Math.max(...values))}`;
}

function main() {
  if (process.env.BENCH_NO_BUILD !== '1') build();
  const { renderers } = load();
  const types = process.env.BENCH_TYPES ? process.env.BENCH_TYPES.split(',') : renderers.RENDERED_ARTIFACT_TYPES;
  const cpu = `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}`;
  const target = process.env.BENCH_TARGET ?? 'en';
  console.log(
    `node ${process.version}, ${cpu}, load ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}; target ${target}; ${TRIALS} processes per row\n`,
  );
  const header = [
    'type',
    'mode',
    'first ms (median, range)',
    'tenth ms (median, range)',
    'first/tenth (median, range)',
    'repeat ms',
    'warm-up ms',
  ];
  console.log(`| ${header.join(' | ')} |\n|${header.map(() => '---').join('|')}|`);
  for (const type of types) {
    for (const mode of MODES) {
      const runs = [];
      for (let trial = 0; trial < TRIALS; trial++) {
        const output = execFileSync(process.execPath, [__filename, '--child', type, mode], { encoding: 'utf8', maxBuffer: 1 << 20 });
        runs.push(JSON.parse(output));
      }
      const firsts = runs.map((run) => run.first);
      const tenths = runs.map((run) => run.tenth);
      const ratios = runs.map((run) => run.first / run.tenth);
      const warm = runs.map((run) => run.warmMs);
      const cells = [
        type,
        mode,
        `${Math.round(median(firsts))} (${span(firsts)})`,
        `${Math.round(median(tenths))} (${span(tenths)})`,
        `${median(ratios).toFixed(2)} (${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)})`,
        `${Math.round(median(runs.map((run) => run.repeat)))}`,
        mode === 'warmed' ? `${Math.round(median(warm))}` : '',
      ];
      console.log(`| ${cells.join(' | ')} |`);
    }
  }
  console.log(
    `\nload at the end ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
}

if (process.argv[2] === '--child') {
  child(process.argv[3], process.argv[4]).catch((error) => {
    console.error(error);
    process.exit(1);
  });
} else {
  main();
}
