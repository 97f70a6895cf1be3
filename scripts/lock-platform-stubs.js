#!/usr/bin/env node
// The registry this project installs from serves only linux builds, so `npm install` leaves the other
// platforms' optional binaries (swc, unrs-resolver, msgpackr-extract) out of package-lock.json, and
// `npm ci` then refuses the lock as out of sync. This records each missing optional package in the lock
// with the version its parent pins, marked optional, so `npm ci` skips it as it would on any other machine.
// Run after changing dependencies: `npm install && node scripts/lock-platform-stubs.js`.
const { readFileSync, writeFileSync } = require('node:fs');

const lockPath = 'package-lock.json';
const lock = JSON.parse(readFileSync(lockPath, 'utf8'));
let added = 0;
for (const [path, entry] of Object.entries(lock.packages)) {
  for (const [name, spec] of Object.entries(entry.optionalDependencies ?? {})) {
    const parentDir = path === '' ? '' : `${path}/`;
    const candidates = [`${parentDir}node_modules/${name}`, `node_modules/${name}`];
    if (candidates.some((candidate) => lock.packages[candidate])) continue;
    const version = String(spec).replace(/^[\^~=]/, '');
    lock.packages[`node_modules/${name}`] = { version, optional: true, ...platformOf(name) };
    added++;
  }
}
lock.packages = Object.fromEntries(Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))));
writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`recorded ${added} optional platform package(s)`);

function platformOf(name) {
  const os = ['darwin', 'win32', 'linux', 'freebsd', 'android', 'openharmony', 'wasm32', 'netbsd', 'openbsd', 'sunos', 'aix'].find((o) => name.includes(`-${o}`));
  const cpu = ['arm64', 'x64', 'ia32', 'arm', 'ppc64', 's390x', 'riscv64', 'loong64', 'mips64el'].find((c) => new RegExp(`-${c}(-|$)`).test(name));
  const libc = /-(musl)/.test(name) ? ['musl'] : /-gnu/.test(name) && os === 'linux' ? ['glibc'] : undefined;
  return { ...(os && os !== 'wasm32' ? { os: [os] } : {}), ...(cpu ? { cpu: [cpu] } : {}), ...(libc ? { libc } : {}) };
}
