import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { buildService } from './support/api-process';

// What ships is the build output (the image copies dist/ only): it must hold production code and nothing else.
describe('build output', () => {
  let out: string;
  let files: string[];

  beforeAll(() => {
    out = buildService();
    files = walk(out).map((file) => relative(out, file));
  }, 60_000);

  it('holds the service, its migrations and the operator CLI', () => {
    expect(files).toEqual(expect.arrayContaining(['src/main.js', 'src/cli.js', 'src/data-source.js']));
    expect(files.some((file) => file.startsWith('migrations/'))).toBe(true);
  });

  it('holds no unit specs, fakes, fixtures or test helpers', () => {
    const testCode = files.filter((file) => /\.spec\.js$|(^|\/)(fakes?|fixtures|__fixtures__)(\/|-)|\.testing\.js$|fake-/.test(file));
    expect(testCode).toEqual([]);
  });

  it('requires nothing from test/', () => {
    const testDir = resolve(__dirname);
    const offenders = files
      .filter((file) => file.endsWith('.js'))
      .flatMap((file) =>
        [...readFileSync(join(out, file), 'utf8').matchAll(/require\("(\.{1,2}\/[^"]+)"\)/g)]
          .map((match) => resolve(join(out, file, '..'), match[1]))
          .filter((target) => target.startsWith(join(out, 'test')) || target.startsWith(testDir))
          .map((target) => `${file} -> ${relative(out, target)}`),
      );
    expect(offenders).toEqual([]);
  });
});

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? walk(join(dir, entry.name)) : entry.name.endsWith('.map') ? [] : [join(dir, entry.name)],
  );
}
