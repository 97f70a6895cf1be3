import { addMonths, daysBetween, formatLongDate, formatShortDate, isIsoDate } from './dates';

describe('offline dates', () => {
  it.each([
    ['2026-11-22', 3, '2027-02-22'],
    ['2026-11-22', 6, '2027-05-22'],
    ['2026-11-22', 12, '2027-11-22'],
    ['2026-11-22', 18, '2028-05-22'],
    ['2026-11-22', 24, '2028-11-22'],
    ['2026-11-22', 36, '2029-11-22'],
    ['2026-08-31', 6, '2027-02-28'],
    ['2027-11-30', 3, '2028-02-29'],
    ['2027-01-31', 1, '2027-02-28'],
    ['2028-02-29', 12, '2029-02-28'],
    ['2026-03-31', 1, '2026-04-30'],
    ['2026-12-31', 12, '2027-12-31'],
    ['2026-05-15', 0, '2026-05-15'],
    ['2026-05-31', -3, '2026-02-28'],
  ])('addMonths(%p, %p) = %p (clamped to month end)', (from, months, expected) => {
    expect(addMonths(from, months)).toBe(expected);
  });

  it('rejects invalid dates and fractional months', () => {
    expect(() => addMonths('2026-02-30', 1)).toThrow(RangeError);
    expect(() => addMonths('22/11/2026', 1)).toThrow(RangeError);
    expect(() => addMonths('2026-11-22', 1.5)).toThrow(RangeError);
    expect(isIsoDate('2026-02-29')).toBe(false);
    expect(isIsoDate('2028-02-29')).toBe(true);
  });

  it('formats and counts days', () => {
    expect(formatLongDate('2027-07-10')).toBe('10 July 2027');
    expect(formatShortDate('2027-07-10')).toBe('10 Jul 2027');
    expect(daysBetween('2026-11-22', '2027-11-22')).toBe(365);
    expect(daysBetween('2027-11-22', '2028-11-22')).toBe(366);
  });
});
