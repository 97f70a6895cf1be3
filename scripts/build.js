#!/usr/bin/env node
// Compiles the service with swc into an output folder (default dist/): src without its unit specs, migrations
// and scripts. `npm run build` and the tests that start the service as a real process both use it, so the
// process under test is the build that ships.
const { execFileSync } = require('node:child_process');
const { rmSync } = require('node:fs');
const { join, resolve } = require('node:path');

const root = join(__dirname, '..');
const out = resolve(root, process.argv[2] ?? 'dist');
const swc = require.resolve('@swc/cli/bin/swc.js');
const compile = (folder, ...extra) =>
  execFileSync(
    process.execPath,
    [swc, folder, '-d', join(out, folder), '--strip-leading-paths', '--config-file', '.swcrc', '-q', ...extra],
    { cwd: root, stdio: 'inherit' },
  );

rmSync(out, { recursive: true, force: true });
compile('src', '--ignore', '**/*.spec.ts');
compile('migrations');
compile('scripts', '--only', '**/*.ts', '--ignore', '**/*.spec.ts');
