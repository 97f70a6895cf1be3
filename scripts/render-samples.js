#!/usr/bin/env node
// Renders every in-process artefact for a set of sample snapshots and turns each page into a PNG, so a person can
// look at what recipients get before a renderer change lands:
//
//   npm run render:samples [-- <folder>]        (default folder: samples/, git-ignored)
//
// Samples: `realistic` (EU + UK AML / KYC + Payments from the bundled calendar, with a drift against an earlier
// scan), `board` (EU, UK, US x AML / KYC, Payments, Operational Resilience, 18 months), `wide` (13 jurisdictions x
// 10 areas x 36 months, far more matches than the 40 items kept), `hard` (100 items, 200-character titles, Chinese and Japanese, missing and period-only dates), `zh`
// and `ja` (CJK titles in their own locale), and `fallback` (Chinese asked for, English produced).
// Pages become PNGs with Debian tools when they are installed: pdftoppm (poppler-utils) for PDF, LibreOffice
// (libreoffice-impress-nogui) for PPTX, Chromium (chromium) for the HTML slides. A missing tool is reported and
// its pages skipped; the artefacts themselves are always written.
const { execFileSync, spawnSync } = require('node:child_process');
const { mkdirSync, readdirSync, rmSync, writeFileSync } = require('node:fs');
const { join, resolve } = require('node:path');

const root = join(__dirname, '..');
const build = join(root, 'node_modules', '.cache', 'rgs-samples-build');
const folder = resolve(root, process.argv[2] ?? 'samples');

function compile() {
  execFileSync(process.execPath, [join(root, 'scripts', 'build.js'), build], { cwd: root, stdio: 'inherit' });
  const swc = require.resolve('@swc/cli/bin/swc.js');
  const args = ['test/fixtures', '-d', join(build, 'test'), '--strip-leading-paths', '--config-file', '.swcrc', '-q'];
  execFileSync(process.execPath, [swc, ...args], { cwd: root, stdio: 'inherit' });
}

function has(command) {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

function run(command, args, cwd) {
  const result = spawnSync(command, args, { cwd, stdio: ['ignore', 'ignore', 'pipe'], timeout: 180_000 });
  if (result.status !== 0) throw new Error(`${command} failed: ${result.stderr?.toString().trim() || result.signal}`);
}

const tools = { pdftoppm: has('pdftoppm'), libreoffice: has('libreoffice'), chromium: has('chromium') };
const skipped = new Set();

/** Pages of one artefact as PNGs next to it: <name>-<page>.png. */
function toPngs(dir, file, mime) {
  const base = file.replace(/\.[^.]+$/, '');
  if (mime === 'image/png') return;
  if (mime === 'application/pdf') {
    if (!tools.pdftoppm) return skipped.add('pdftoppm (apt-get install poppler-utils)');
    run('pdftoppm', ['-png', '-r', '70', file, base], dir);
  } else if (mime.includes('presentationml')) {
    if (!tools.libreoffice || !tools.pdftoppm) return skipped.add('libreoffice and pdftoppm (apt-get install libreoffice-impress-nogui poppler-utils)');
    run('libreoffice', ['--headless', '--convert-to', 'pdf', '--outdir', join(dir, '.pptx-pdf'), file], dir);
    run('pdftoppm', ['-png', '-r', '50', join('.pptx-pdf', `${base}.pdf`), base], dir);
    rmSync(join(dir, '.pptx-pdf'), { recursive: true, force: true });
  } else if (mime.startsWith('text/html')) {
    if (!tools.chromium || !tools.pdftoppm) return skipped.add('chromium and pdftoppm (apt-get install chromium poppler-utils)');
    // The slides' print style puts one slide on each 16:9 page.
    const pdf = join(dir, `${base}.print.pdf`);
    run('chromium', ['--headless=new', '--no-sandbox', '--disable-gpu', '--no-pdf-header-footer', `--print-to-pdf=${pdf}`, `file://${join(dir, file)}`], dir);
    run('pdftoppm', ['-png', '-r', '50', pdf, base], dir);
    rmSync(pdf, { force: true });
  }
}

async function main() {
  compile();
  const renderers = require(join(build, 'src', 'modules', 'exports', 'renderers', 'index.js'));
  const fixtures = require(join(build, 'test', 'fixtures', 'snapshots.js'));
  const realistic = fixtures.realisticSnapshot();
  const samples = {
    realistic: { snapshot: realistic, options: {}, locale: 'en', drift: fixtures.sampleDrift(realistic) },
    board: { snapshot: fixtures.boardSnapshot(), options: {}, locale: 'en' },
    wide: { snapshot: fixtures.wideSnapshot(), options: {}, locale: 'en' },
    hard: { snapshot: fixtures.hardSnapshot(), options: {}, locale: 'en' },
    zh: { snapshot: fixtures.zhSnapshot(), options: { targetLanguage: 'zh' }, locale: 'zh' },
    ja: { snapshot: fixtures.jaSnapshot(), options: { targetLanguage: 'ja' }, locale: 'ja' },
    fallback: { snapshot: realistic, options: { targetLanguage: 'zh' }, locale: 'en' },
  };
  rmSync(folder, { recursive: true, force: true });
  for (const [name, input] of Object.entries(samples)) {
    const dir = join(folder, name);
    mkdirSync(dir, { recursive: true });
    for (const type of renderers.RENDERED_ARTIFACT_TYPES) {
      const rendered = await renderers.renderArtefact(type, input);
      const file = `${type}.${rendered.filename.split('.').pop()}`;
      writeFileSync(join(dir, file), rendered.bytes);
      try {
        toPngs(dir, file, rendered.mime);
      } catch (error) {
        console.error(`${name}/${file}: ${error.message}`);
        process.exitCode = 1;
      }
    }
    console.log(`${name}: ${readdirSync(dir).length} files in ${dir}`);
  }
  for (const tool of skipped) console.log(`pages not rendered: install ${tool}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
