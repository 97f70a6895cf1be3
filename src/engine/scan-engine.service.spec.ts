import type { ResolvedScanConfig } from '../domain/scan-config.types';
import type { AppConfig } from '../config/app-config';
import { VENDOR_KEYS } from '../domain/vocabulary/models';
import { createProviderRegistry } from '../infra/providers/provider-registry';
import { CalendarService } from './calendar/calendar.service';
import { ScanEngineService, SNAPSHOT_TITLE_MAX_LENGTH, titleOf } from './scan-engine.service';

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

describe('offline pacing (OFFLINE_STEP_MS)', () => {
  const noVendor = { apiKey: undefined, baseUrl: undefined };
  const appConfig = {
    providers: Object.fromEntries(VENDOR_KEYS.map((vendor) => [vendor, noVendor])),
    openaiCompatible: undefined,
  } as unknown as AppConfig;
  const engine = new ScanEngineService(appConfig, createProviderRegistry(appConfig.providers), new CalendarService());
  const scan = (engineName: ResolvedScanConfig['engine']): ResolvedScanConfig => ({
    jurisdictions: ['EU', 'UK'],
    areas: ['Payments'],
    horizon: 18,
    engine: engineName,
    model: null,
    searchModel: null,
    verificationMode: null,
    realist: false,
    auditor: false,
    auditorModel: 'medium',
    fetchProvider: null,
    searchProvider: null,
    verifyProvider: 'fetch-b',
    translationLanguages: [],
  });

  it.each(['v4', 'council'] as const)(
    '%s: each pause follows a report, never precedes one, and none follows finalise',
    async (engineName) => {
      const calls: string[] = [];
      await engine.run({
        scanId: 'scan-1',
        config: scan(engineName),
        scanDate: '2026-11-24',
        advance: async (phase) => void calls.push(phase),
        pace: async () => void calls.push('pause'),
      });
      expect(calls[0]).toBe('plan');
      expect(calls.at(-1)).toBe('finalise');
      calls.forEach((call, index) => {
        if (call === 'pause') expect(calls[index - 1]).not.toBe('pause');
        else if (call !== 'finalise') expect(calls[index + 1]).toBe('pause');
      });
    },
  );
});
