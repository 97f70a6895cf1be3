/** Small hand-made calendars for the offline engine's unit tests. */
import type { Calendar, CalendarEntry, KeyDate } from '../../calendar/calendar.types';

export function keyDate(date: string, confidence: KeyDate['confidence'] = 'confirmed', event = 'Application date'): KeyDate {
  return { date, event, confidence };
}

/** A valid-looking entry; override any field. */
export function makeEntry(overrides: Partial<CalendarEntry> & { id: string }): CalendarEntry {
  return {
    title: `Instrument ${overrides.id}`,
    jurisdiction: 'EU',
    regulator: 'European Commission',
    areas: ['AML / KYC'],
    instrument_type: 'regulation',
    stage: 'adopted',
    impact: 'medium',
    key_dates: [keyDate('2027-01-15')],
    summary: `Summary of ${overrides.id}.`,
    implications: `Firms must prepare for ${overrides.id}.`,
    plain_summary: `Plain words about ${overrides.id}.`,
    themes: ['theme-a'],
    sources: [{ url: `https://example.europa.eu/${overrides.id}`, title: `Source for ${overrides.id}`, publisher: 'EUR-Lex' }],
    last_verified: '2026-11-01',
    ...overrides,
  };
}

export function makeCalendar(entries: CalendarEntry[], version = '2026-11-22'): Calendar {
  return { version, entries };
}
