import {
  BATCH_EXPORT_PRIORITY,
  DEFAULT_ACCOUNT_EXPORT_SETTINGS,
  effectiveExportOptions,
  exportJobPriority,
  REALTIME_EXPORT_PRIORITY,
} from './export-account-rules';

const settings = (freeTextCustomisation: boolean, defaultInstructions: string | null) => ({
  ...DEFAULT_ACCOUNT_EXPORT_SETTINGS,
  freeTextCustomisation,
  defaultInstructions,
});

describe('effectiveExportOptions', () => {
  it("keeps a request's instructions while customisation is on, and fills the default when none were sent", () => {
    expect(effectiveExportOptions({ instructions: 'Mine', style: 'CLAY' }, settings(true, 'House'), true)).toEqual({
      instructions: 'Mine',
      style: 'CLAY',
    });
    expect(effectiveExportOptions({ style: 'CLAY' }, settings(true, 'House'), true)).toEqual({ style: 'CLAY', instructions: 'House' });
    expect(effectiveExportOptions({ style: 'CLAY' }, settings(true, null), true)).toEqual({ style: 'CLAY' });
  });

  it('replaces the instructions by the default while customisation is off, or drops them without a default', () => {
    expect(effectiveExportOptions({ instructions: 'Mine', style: 'CLAY' }, settings(false, 'House'), true)).toEqual({
      instructions: 'House',
      style: 'CLAY',
    });
    expect(effectiveExportOptions({ style: 'CLAY' }, settings(false, 'House'), true)).toEqual({ style: 'CLAY', instructions: 'House' });
    expect(effectiveExportOptions({ instructions: 'Mine', style: 'CLAY' }, settings(false, null), true)).toEqual({ style: 'CLAY' });
  });

  it('leaves the options of a type without instructions alone', () => {
    expect(effectiveExportOptions({ list: 'all_matched' }, settings(false, 'House'), false)).toEqual({ list: 'all_matched' });
  });
});

describe('exportJobPriority', () => {
  it('queues only the AI-generated exports of a batch-lane account behind the rest', () => {
    expect(exportJobPriority('batch', true)).toBe(BATCH_EXPORT_PRIORITY);
    expect(exportJobPriority('batch', false)).toBe(REALTIME_EXPORT_PRIORITY);
    expect(exportJobPriority('realtime', true)).toBe(REALTIME_EXPORT_PRIORITY);
    expect(BATCH_EXPORT_PRIORITY).toBeGreaterThan(REALTIME_EXPORT_PRIORITY);
  });
});
