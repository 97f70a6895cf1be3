import type { ResolvedScanConfig } from '../domain/scan-config.types';
import { SNAPSHOT_TITLE_MAX_LENGTH, titleOf } from './scan-engine.service';

const config = (jurisdictions: string[], areas: string[]) => ({ jurisdictions, areas, horizon: 36 }) as ResolvedScanConfig;
const names = (prefix: string, count: number, length: number) =>
  Array.from({ length: count }, (_, i) => `${prefix} ${i} ${'x'.repeat(length)}`.slice(0, length));

describe('titleOf', () => {
  it('names every jurisdiction and area when they fit', () => {
    expect(titleOf(config(['EU', 'UK'], ['Payments']), '2026-11-23')).toBe(
      'Regulatory horizon: EU, UK · Payments · 36 months (2026-11-23)',
    );
  });

  it.each([
    ['20 jurisdictions x 20 areas of maximum length, council suffix', names('Jurisdiction', 20, 100), names('Area', 20, 200), ' — council'],
    ['one over-long area', ['EU'], ['a '.repeat(100)], ' — seat B (timeline)'],
    ['many short names', names('J', 20, 12), names('A', 20, 30), ''],
  ])('fits the column for %s, summarising what it leaves out', (_case, jurisdictions, areas, suffix) => {
    const title = titleOf(config(jurisdictions, areas), '2026-11-23', suffix);
    expect(title.length).toBeLessThanOrEqual(SNAPSHOT_TITLE_MAX_LENGTH);
    expect(title.endsWith(`36 months (2026-11-23)${suffix}`)).toBe(true);
    if (jurisdictions.length > 1 && jurisdictions.join(', ').length > 140) expect(title).toMatch(/ and \d+ more · /);
  });
});
