import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Calendar, CalendarEntry } from '../src/engine/calendar/calendar.types';
import { checkCalendar, main } from './calendar-check';

function entry(id: string, lastVerified: string, dates: string[]): CalendarEntry {
  return {
    id,
    title: `Instrument ${id}`,
    jurisdiction: 'EU',
    regulator: 'ESMA',
    areas: ['Capital Markets'],
    instrument_type: 'rule',
    stage: 'adopted',
    impact: 'low',
    key_dates: dates.map((date) => ({ date, event: 'Milestone', confidence: 'confirmed' as const })),
    summary: 'A test instrument used to exercise the calendar check.',
    implications: 'Nothing to do; this only exists in a unit test.',
    plain_summary: 'A made-up rule for testing.',
    themes: ['testing'],
    sources: [{ url: 'https://eur-lex.europa.eu/', title: 'EUR-Lex', publisher: 'EUR-Lex' }],
    last_verified: lastVerified,
  };
}

describe('checkCalendar', () => {
  const calendar: Calendar = {
    version: '2026-11-22',
    entries: [
      entry('eu-fresh-future', '2026-11-01', ['2025-01-01', '2027-01-01']),
      entry('eu-old-verified', '2026-01-01', ['2027-06-30']),
      entry('eu-all-passed', '2026-11-01', ['2024-01-01', '2026-06-30']),
      entry('eu-today', '2026-05-26', ['2026-11-22']),
    ],
  };

  it('lists entries verified more than 180 days ago and entries whose dates have all passed', () => {
    const result = checkCalendar(calendar, '2026-11-22');
    expect(result.total).toBe(4);
    expect(result.stale).toEqual([{ id: 'eu-old-verified', last_verified: '2026-01-01', age_days: 325 }]);
    expect(result.expired).toEqual([{ id: 'eu-all-passed', last_date: '2026-06-30' }]);
  });

  it('treats exactly 180 days as fresh and a date equal to today as not passed', () => {
    const result = checkCalendar(calendar, '2026-11-22');
    expect(result.stale.map((s) => s.id)).not.toContain('eu-today');
    expect(result.expired.map((s) => s.id)).not.toContain('eu-today');
    expect(checkCalendar(calendar, '2026-11-23').expired.map((e) => e.id)).toContain('eu-today');
  });

  it('accepts a Date and a custom maximum age', () => {
    const result = checkCalendar(calendar, new Date('2026-11-22T12:00:00Z'), 100);
    expect(result.today).toBe('2026-11-22');
    expect(result.stale.map((s) => s.id)).toEqual(['eu-old-verified', 'eu-today']);
  });

  it('rejects a malformed date', () => {
    expect(() => checkCalendar(calendar, '22/11/2026')).toThrow(/invalid date/);
  });
});

describe('calendar-check CLI', () => {
  it('exits 0 on the shipped calendar', () => {
    const lines: string[] = [];
    expect(main(['--today', '2026-11-22'], (l) => lines.push(l))).toBe(0);
    expect(lines[0]).toMatch(/entries valid/);
  });

  it('exits 1 on invalid data and names the problem', () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'calendar-check-'));
    try {
      const bad = { ...entry('eu-bad', '2026-11-01', ['2027-01-01']), regulator: 'FCA' };
      fs.writeFileSync(path.join(tmp, 'eu.json'), JSON.stringify({ jurisdiction: 'EU', version: '2026-11-22', entries: [bad] }));
      const lines: string[] = [];
      expect(main(['--dir', tmp], (l) => lines.push(l))).toBe(1);
      expect(lines.join('\n')).toMatch(/ERROR eu\.json \[eu-bad\]: regulator 'FCA'/);
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });

  it('exits 2 on a bad argument', () => {
    expect(main(['--bogus'], () => undefined)).toBe(2);
  });
});
