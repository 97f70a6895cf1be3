// Import rules, checked in `npm test` (npm run lint:deps). docs/architecture.md explains the layers:
//   composition root (src/*.ts, src/cli, src/openapi) -> modules -> engine -> infra, common -> config, domain
const LOWER_THAN_MODULES = '^src/(engine|infra|common|config|domain)/';
const ROOT = '^src/([^/]+\\.ts$|cli/|openapi/)';
module.exports = {
  forbidden: [
    { name: 'no-cycles', severity: 'error', from: { path: '^src' }, to: { circular: true } },
    {
      name: 'production-code-not-test-code',
      comment: 'Fakes, fixtures and helpers live under test/; only unit specs may use them.',
      severity: 'error',
      from: { path: '^src', pathNot: '\\.spec\\.ts$' },
      to: { path: '^test/' },
    },
    {
      name: 'nothing-imports-the-composition-root',
      comment: 'app.module, app.entities, main, cli and the OpenAPI document assemble the app; nothing below uses them.',
      severity: 'error',
      from: { path: '^src/(modules|engine|infra|common|config|domain)/' },
      to: { path: ROOT },
    },
    {
      name: 'lower-layers-not-modules',
      comment: 'Feature modules use the engine and infrastructure, never the reverse.',
      severity: 'error',
      from: { path: LOWER_THAN_MODULES },
      to: { path: '^src/modules/' },
    },
    {
      name: 'below-engine-not-engine',
      comment: 'Infrastructure, common and domain code do not know the scan pipeline.',
      severity: 'error',
      from: { path: '^src/(infra|common|config|domain)/' },
      to: { path: '^src/engine/' },
    },
    {
      name: 'domain-is-the-bottom',
      comment: 'Vocabulary, pricing and scan configuration types depend on nothing else in src.',
      severity: 'error',
      from: { path: '^src/domain/' },
      to: { path: '^src/', pathNot: '^src/domain/' },
    },
    {
      name: 'config-only-on-domain',
      severity: 'error',
      from: { path: '^src/config/' },
      to: { path: '^src/', pathNot: '^src/(config|domain)/' },
    },
    {
      name: 'common-not-features',
      comment: 'common is cross-cutting HTTP plumbing: it may use infrastructure but no feature.',
      severity: 'error',
      from: { path: '^src/common/' },
      to: { path: '^src/(modules|engine)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
