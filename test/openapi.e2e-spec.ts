import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { bootTestApp, type TestApp } from './support/test-app';

const run = promisify(execFile);

describe('OpenAPI contract', () => {
  let t: TestApp;
  let served: Record<string, any>;

  beforeAll(async () => {
    t = await bootTestApp();
    served = (await t.http().get('/openapi.json').expect(200)).body;
  });
  afterAll(() => t.close());

  it('matches the committed openapi/openapi.json (run `npm run openapi:generate` after changing the API)', () => {
    const committed = JSON.parse(readFileSync(join(__dirname, '..', 'openapi', 'openapi.json'), 'utf8'));
    expect(served).toEqual(committed);
  });

  it('gives every operation a unique operationId, a summary and documented problem responses', () => {
    const ids: string[] = [];
    for (const [path, item] of Object.entries(served.paths) as Array<[string, Record<string, any>]>) {
      for (const operation of Object.values(item)) {
        ids.push(operation.operationId);
        expect(operation.summary).toEqual(expect.any(String));
        if (path.startsWith('/v1/')) {
          const problemStatuses = Object.keys(operation.responses).filter((status) => Number(status) >= 400);
          expect(problemStatuses).toEqual(expect.arrayContaining(['401', '500', '503']));
        }
      }
    }
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('puts every /v1 read in the reads bucket and key management in the keys bucket, and documents the headers', () => {
    for (const [path, item] of Object.entries(served.paths) as Array<[string, Record<string, any>]>) {
      if (!path.startsWith('/v1/')) continue;
      for (const [method, operation] of Object.entries(item)) {
        const expected = path.startsWith('/v1/keys')
          ? 'keys'
          : path.endsWith('/stream')
            ? undefined
            : method === 'get'
              ? 'reads'
              : operation['x-rate-limit-bucket'];
        expect([path, method, operation['x-rate-limit-bucket']]).toEqual([path, method, expected]);
        if (expected) {
          expect(operation.responses['429'].headers).toHaveProperty('Retry-After');
          const success = Object.entries(operation.responses).find(([status]) => status.startsWith('2'))![1] as { headers: object };
          expect(success.headers).toHaveProperty('RateLimit');
          expect(success.headers).toHaveProperty('RateLimit-Policy');
        }
      }
    }
  });

  it('declares bearer and dashboard-cookie security schemes', () => {
    expect(served.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(served.components.securitySchemes.dashboard).toMatchObject({ type: 'apiKey', in: 'cookie', name: 'dashboard_session' });
    expect(served.paths['/v1/meta/engines'].get.security).toEqual([{ bearer: [] }]);
    expect(served.paths['/v1/keys'].post.security).toEqual([{ dashboard: [] }]);
  });

  it('passes `redocly lint` (recommended-strict, plus operation-description and operation-tag-defined) with no errors and no warnings', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'rgs-openapi-')), 'openapi.json');
    writeFileSync(file, JSON.stringify(served));
    const cli = require.resolve('@redocly/cli/bin/cli.js');
    const result = await run(process.execPath, [cli, 'lint', file, '--config', join(__dirname, '..', 'redocly.yaml'), '--format', 'json'], {
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      maxBuffer: 20 * 1024 * 1024,
    }).catch((error: { stdout: string; stderr: string }) => error);
    const report = JSON.parse(result.stdout);
    expect(report.problems).toEqual([]);
  }, 120_000);
});
